package host

import "time"

// Observer is told what the host does, for an operator's metrics
// (package metrics implements it over Prometheus). Its methods are called
// from the tables' runners and the streams' on the hot path: they must
// be quick, must not block, must be safe for concurrent use, and should
// not allocate. The host knows no metrics library: this interface is all
// it says.
type Observer interface {
	// Acted is told of every action the host applied or refused, with
	// its kind (Config.ActionKind: "discard", "pon", ...): a
	// player's request (err nil when applied; a retried request id is
	// told again, with its remembered answer) or a step it played itself
	// (by a bot, a timeout or the system; refused steps of those are
	// retried and told each time). Steps replayed at recovery are not
	// told.
	Acted(by Actor, kind string, err error)
	// StreamOpened and StreamClosed count the open streams of seats and
	// spectators.
	StreamOpened(spectator bool)
	StreamClosed(spectator bool)
	// EventSent is told, for each event a stream sent that was logged
	// while the stream was open, how long after its logging it was sent
	// (the server's share of an event's latency).
	EventSent(latency time.Duration)
	// ClaimWindow is told of every step that opens a claim window
	// (Out.Dwell); Dwell of how long each claim dwell held the table's
	// events back.
	ClaimWindow()
	Dwell(held time.Duration)
	// GameOver is told when a table's game ends.
	GameOver()
	// Snapshot is told of every table snapshot the store took: its size
	// in bytes (state and events).
	Snapshot(bytes int)
	// Recovered is told once per Recover: the tables resumed and how long
	// it took.
	Recovered(tables int, took time.Duration)
	// TableSetAside is told of every table taken out of play: damaged in
	// the store at recovery, or a call into it panicked.
	TableSetAside(why SetAside)
}

// Actor is who took a step.
type Actor uint8

// The actors.
const (
	ByPlayer  Actor = iota + 1 // a player's request
	ByBot                      // the bot of a seat no player plays
	ByTimeout                  // the default move of a seat out of time
	BySystem                   // a system step (the next deal)
)

var actorNames = [...]string{"", "player", "bot", "timeout", "system"}

func (a Actor) String() string {
	if int(a) < len(actorNames) && a != 0 {
		return actorNames[a]
	}
	return "invalid"
}

// SetAside is why a table was taken out of play.
type SetAside uint8

// The reasons a table is set aside.
const (
	SetAsideDamaged SetAside = iota + 1 // its stored data does not decode or replay
	SetAsidePanic                       // a call into it panicked
)

var setAsideNames = [...]string{"", "damaged", "panic"}

func (s SetAside) String() string {
	if int(s) < len(setAsideNames) && s != 0 {
		return setAsideNames[s]
	}
	return "invalid"
}

// NopObserver observes nothing: the default.
type NopObserver struct{}

func (NopObserver) Acted(Actor, string, error)   {}
func (NopObserver) StreamOpened(bool)            {}
func (NopObserver) StreamClosed(bool)            {}
func (NopObserver) EventSent(time.Duration)      {}
func (NopObserver) ClaimWindow()                 {}
func (NopObserver) Dwell(time.Duration)          {}
func (NopObserver) GameOver()                    {}
func (NopObserver) Snapshot(int)                 {}
func (NopObserver) Recovered(int, time.Duration) {}
func (NopObserver) TableSetAside(SetAside)       {}

// Each calls f with the description of every table in memory, in no
// order, for an operator's gauges (tables by state, seats connected). It
// holds no lock of the host while f runs: a slow f delays no request.
func (h *Host[A, V, B]) Each(f func(Info)) {
	h.mu.RLock()
	ts := make([]*table[A, V, B], 0, len(h.tables))
	for _, t := range h.tables {
		ts = append(ts, t)
	}
	h.mu.RUnlock()
	for _, t := range ts {
		t.mu.RLock()
		in := t.snap // Seats is replaced, never changed, by refresh
		t.mu.RUnlock()
		f(in)
	}
}
