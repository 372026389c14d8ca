// Package host runs turn-based games for remote players. It knows nothing of
// mahjong: a game is a deterministic state machine behind the Game
// interface, and the host adds what playing it over a network needs - calls into each
// table serialized (by a small executor, not a goroutine: exec.go), secret
// seat tokens, the event log with
// sequence numbers and audiences, per-seat streams that resume without gaps
// or repeats, retried requests applied once, stale decisions refused, turn
// timers, bots for empty or abandoned seats, rate limits, and storage: a
// log of every accepted step, snapshots at the game's round boundaries,
// and recovery from them (snapshot.go).
//
// Keeping the rules out of this package keeps both sides small: the game
// engine stays pure (no clock, no I/O, no goroutines), and the hosting
// logic is tested with a toy game in milliseconds.
package host

// System is the actor of steps that no seat takes, such as dealing the next
// round; Game.Default(System) returns the step to apply.
const System = -1

// Audience says who may see an event: everyone (spectators included), or
// one seat only.
type Audience struct {
	Private bool
	Seat    int // the only viewer when Private
}

// Everyone is the public audience.
var Everyone = Audience{}

// Only is the audience of one seat.
func Only(seat int) Audience { return Audience{Private: true, Seat: seat} }

// Sees reports whether seat may see an event for this audience.
func (a Audience) Sees(seat int) bool { return !a.Private || a.Seat == seat }

// Out is an event a game emits; the host numbers it and logs it.
type Out[B any] struct {
	To   Audience
	Body B
	// Dwell marks the last event of those that open a claim window (a
	// discard, a kan that may be robbed, and the private offers that
	// follow), whether or not any seat may claim. It and the events
	// before it are published at once; the events after it, and
	// those of every later step, wait until the table's claim dwell has
	// passed, so that a seat cannot tell a window nobody could claim in
	// from one that others answered quickly. Meanwhile only the seats the
	// window waits for may act.
	Dwell bool
	// Offer marks an event that tells its one viewer (To is Only(seat))
	// what the seat may do now: a turn or claim offer, the last event of
	// its step. A seat's stream that opens while the offer still stands
	// gets it as an event right after the snapshot (see Follow), so that a
	// client acting on events alone never waits for a timer.
	Offer bool
	// Simultaneous marks an event that reports one of several decisions
	// the seats take at once, independently (a seat has chosen its
	// tiles, while every seat chooses): it changes nothing that the seats
	// who see it may decide. So it neither makes their decisions stale -
	// an action sent with a last seq from before it is still taken - nor
	// starts a new decision point: the timer of what the game waits for
	// keeps running. It is numbered, logged and streamed like any event.
	// Leave it unset on anything a seat's choices depend on: a turn, a
	// claim window, the end of the phase, an offer.
	Simultaneous bool
}

// WaitKind is what a game waits for, which decides the timer that runs.
type WaitKind uint8

// The kinds of wait.
const (
	WaitNone   WaitKind = iota // nothing (the game is over, or waits for no one)
	WaitTurn                   // one seat's turn: the turn timer
	WaitClaim                  // seats answering an offer: the claim timer
	WaitSystem                 // a system step, after the round pause
)

var waitNames = [...]string{"none", "turn", "claim", "system"}

func (k WaitKind) String() string {
	if int(k) < len(waitNames) {
		return waitNames[k]
	}
	return "invalid"
}

// Pending is what a game waits for now.
type Pending struct {
	Kind WaitKind
	// Seats are the seats whose action is awaited (none for
	// WaitSystem). The game may share the slice between calls: it is
	// read, never changed.
	Seats []int
}

// Game is the rules engine of one table, as the host needs it. The host
// makes one call into it at a time, never two at once, though not always
// from the same goroutine (exec.go): it needs no lock, and must keep no
// state per goroutine.
type Game[A comparable, V, B any] interface {
	// Apply plays an action and returns the events it caused. On error
	// nothing changed. The host copies what it keeps of the events before
	// its next call into the game, so a game may reuse the slice.
	Apply(a A) ([]Out[B], error)
	// View is what seat may see of the game now.
	View(seat int) V
	// Pending says whose action the game waits for.
	Pending() Pending
	// Default is the action played for a seat that runs out of time (or
	// for System, the system step): it must be legal whenever seat is
	// pending.
	Default(seat int) A
	// Over reports whether the game has ended.
	Over() bool
}

// Bot plays a seat that no player plays.
type Bot[A, V any] interface {
	// Act returns the action for seat, which the game waits for, given
	// what the seat sees.
	Act(seat int, view V) (A, error)
}
