package host

import "time"

// NoticeKind is what happened to a seat's player or to the table, as
// opposed to the game.
type NoticeKind uint8

// The notice kinds.
const (
	NoticeJoined         NoticeKind = iota + 1 // a player took the seat
	NoticeLeft                                 // the player gave the seat up
	NoticeBotTookOver                          // a bot plays the seat now
	NoticePlayerReturned                       // the player plays the seat again
	NoticeTimedOut                             // the seat ran out of time and was played by default (private)
	NoticeStarted                              // the table started
	NoticeReserved                             // the seat was reserved for a named player (not published)
	NoticeAbandoned                            // the table was abandoned in play: the game ends here, a draw
)

var noticeNames = [...]string{"", "joined", "left", "bot_took_over", "player_returned", "timed_out", "started", "reserved", "abandoned"}

func (k NoticeKind) String() string {
	if int(k) < len(noticeNames) && k != 0 {
		return noticeNames[k]
	}
	return "invalid"
}

// Notice is a host event about a seat (Seat is -1 for the table).
type Notice struct {
	Kind NoticeKind
	Seat int
	Name string
	// PlayerID is the room service's id of the seat's player
	// (NoticeReserved, and NoticeJoined with a Pass); it is kept in the
	// log, not in published events.
	PlayerID string
}

// Event is one entry of a table's event log: a game event (Body) or a
// notice of the host (Notice non-nil).
type Event[B any] struct {
	// Seq numbers the events one viewer may see: 1, 2, 3, ... with no gap
	// for each seat, and for spectators over the public events. A seat
	// cannot tell from it how many events others received.
	Seq    uint64
	At     time.Time
	To     Audience
	Body   B
	Notice *Notice
}

// logged is an Event as a table's log keeps it: 40 bytes (for a game
// whose bodies are interfaces or pointers) instead of the Event's 72 - no
// Seq (each viewer numbers it its own way), the time in Unix nanoseconds
// (as a stored segment keeps it too), the audience in one word - since a
// table holds every event of the round in play. at converts it back.
type logged[B any] struct {
	at     int64
	body   B
	notice *Notice
	to     int32 // the only viewer's seat, or -1: everyone
}

func logEvent[B any](e Event[B]) logged[B] {
	to := int32(-1)
	if e.To.Private {
		to = int32(e.To.Seat)
	}
	return logged[B]{at: e.At.UnixNano(), body: e.Body, notice: e.Notice, to: to}
}

// event is the Event that l logs, unnumbered.
func (l *logged[B]) event() Event[B] {
	e := Event[B]{At: time.Unix(0, l.at), Body: l.body, Notice: l.notice}
	if l.to >= 0 {
		e.To = Only(int(l.to))
	}
	return e
}

// Snapshot is what a seat saw as of its event Seq.
type Snapshot[V any] struct {
	Seq  uint64
	View V
	// Left is how long the seat had to decide when the snapshot was
	// taken: the turn or claim timer running for it, 0 when none does.
	// A client that opens its stream mid-turn counts down from it.
	Left time.Duration
}

// Item is what a seat's stream delivers: a snapshot first (when it starts
// from the beginning), then events.
type Item[V, B any] struct {
	Snapshot *Snapshot[V]
	Event    *Event[B]
	// Wire is the event encoded by Config.Encode (without its Seq),
	// shared with every stream that sends the same event: it must not be
	// changed. Nil without an Encode.
	Wire []byte
}
