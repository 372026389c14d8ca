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

// Event is one decoded event of a seat's or a spectator's stream: a game
// event (Body) or a notice about a seat's player (Notice).
type Event struct {
	Seq    uint64
	Time   time.Time // when the server logged it
	Body   table.Body
	Notice *pb.SeatNotice
}

// EventFromPB decodes one event of a stream.
func EventFromPB(e *pb.Event) (Event, error) {
	out := Event{Seq: e.GetSeq(), Time: e.GetTime().AsTime()}
	if n := e.GetSeatNotice(); n != nil {
		out.Notice = n
		return out, nil
	}
	body, err := wire.BodyFromPB(e)
	if err != nil {
		return out, fmt.Errorf("event %d: %w: %w", e.GetSeq(), ErrDecode, err)
	}
	out.Body = body
	return out, nil
}

// ViewFromPB reads a seat's view (the snapshot of its stream) as of seq.
func ViewFromPB(v *pb.View, seq uint64) (table.View, error) {
	out, err := wire.ViewFromPB(v, seq)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	return out, nil
}
