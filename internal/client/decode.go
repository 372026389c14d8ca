package client

import (
	"errors"
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wire"
)

// The client reads the wire into the table's own types (package wire), so
// that it decides and renders with the types the engine uses (bots take a
// *table.View). Everything the server sends is checked; a malformed message
// is an error wrapping ErrDecode, never a panic.

// ErrDecode is wrapped by every error of a message the client cannot read.
var ErrDecode = errors.New("client: malformed message")

// GameEvent is one decoded event of a seat's or a spectator's stream: a
// game event (Body, of the rule set's type) or a notice about a seat's
// player (Notice, then Body is zero).
type GameEvent[B any] struct {
	Seq    uint64
	Time   time.Time // when the server logged it
	Body   B
	Notice *pb.SeatNotice
}

// Event is a riichi event.
type Event = GameEvent[table.Body]

// EventFromPB decodes one event of a riichi stream.
func EventFromPB(e *pb.Event) (Event, error) { return eventFromPB(e, Riichi{}.BodyFromPB) }

// eventFromPB decodes one event with the rule set's decoder of bodies.
func eventFromPB[B any](e *pb.Event, body func(*pb.Event) (B, error)) (GameEvent[B], error) {
	out := GameEvent[B]{Seq: e.GetSeq(), Time: e.GetTime().AsTime()}
	if n := e.GetSeatNotice(); n != nil {
		out.Notice = n
		return out, nil
	}
	b, err := body(e)
	if err != nil {
		return out, fmt.Errorf("event %d: %w", e.GetSeq(), err)
	}
	out.Body = b
	return out, nil
}

// Riichi is riichi's Game: package wire's conversions and Tracker.
type Riichi struct{}

var _ Game[table.Action, table.View, table.Body, *Tracker] = Riichi{}

// NewTracker returns a riichi tracker (see NewTracker).
func (Riichi) NewTracker(seat table.Seat) *Tracker { return NewTracker(seat) }

// ViewFromPB reads a riichi view (see ViewFromPB).
func (Riichi) ViewFromPB(v *pb.View, seq uint64) (table.View, error) { return ViewFromPB(v, seq) }

// BodyFromPB reads a riichi event body.
func (Riichi) BodyFromPB(e *pb.Event) (table.Body, error) {
	b, err := wire.BodyFromPB(e)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	return b, nil
}

// ActionToPB writes a riichi action.
func (Riichi) ActionToPB(a table.Action) *pb.Action { return wire.ActionToPB(a) }

// SeatOf is the view's seat.
func (Riichi) SeatOf(v *table.View) table.Seat { return v.Seat }

// RoundStarts reports whether b is a RoundStarted.
func (Riichi) RoundStarts(b table.Body) bool {
	_, ok := b.(table.RoundStarted)
	return ok
}

// GameEnds reports whether b is a GameEnded.
func (Riichi) GameEnds(b table.Body) bool {
	_, ok := b.(table.GameEnded)
	return ok
}

// ViewFromPB reads a seat's view (the snapshot of its stream) as of seq.
func ViewFromPB(v *pb.View, seq uint64) (table.View, error) {
	out, err := wire.ViewFromPB(v, seq)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	return out, nil
}
