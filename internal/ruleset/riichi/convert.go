package riichi

import (
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wire"
)

// The wire forms of the table's types are package wire's, shared with the
// Go client; what is the server's own is here: the checks of a client's
// action beyond its conversion.

// fieldError says which request field is wrong.
func fieldError(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }

// actionFromPB checks a client's action and returns it for seat. The fields
// an action type does not use must be empty, so that a retried request with
// another payload is never mistaken for the same one.
func actionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	if a == nil {
		return table.Action{}, fieldError("action", ruleset.ErrMalformed)
	}
	typ, ok := wire.ActionType(a.GetType())
	if !ok {
		return table.Action{}, fieldError("action.type", fmt.Errorf("%v: %w", a.GetType(), ruleset.ErrMalformed))
	}
	if a.GetTsumogiri() && typ != table.Discard && typ != table.Riichi {
		return table.Action{}, fieldError("action.tsumogiri", fmt.Errorf("unused by %v: %w", typ, ruleset.ErrMalformed))
	}
	out, err := wire.ActionFromPB(a, seat) // bad tiles wrap wire.ErrBadTile, which is ruleset.ErrBadTile
	if err != nil {
		return table.Action{}, err
	}
	switch typ {
	case table.Discard, table.Riichi, table.ClosedKan, table.AddedKan:
		if a.GetTiles() != "" {
			return table.Action{}, fieldError("action.tiles", fmt.Errorf("unused by %v: %w", typ, ruleset.ErrMalformed))
		}
	case table.Chi, table.Pon:
		if a.GetTile() != "" {
			return table.Action{}, fieldError("action.tile", fmt.Errorf("unused by %v: %w", typ, ruleset.ErrMalformed))
		}
	default:
		if a.GetTile() != "" || a.GetTiles() != "" {
			return table.Action{}, fieldError("action", fmt.Errorf("%v takes no tiles: %w", typ, ruleset.ErrMalformed))
		}
	}
	return out, nil
}

// ActionFromPB checks a client's action for seat (ruleset.Parts).
func (p *parts) ActionFromPB(a *pb.Action, seat int) (table.Action, error) {
	return actionFromPB(a, table.Seat(seat))
}

// ViewToPB is a seat's view in the API (ruleset.Parts).
func (p *parts) ViewToPB(v table.View) *pb.View { return wire.ViewToPB(v) }

var _ ruleset.EventMarshaler[table.Body] = (*parts)(nil)

// MarshalEvent is EventToPB's encoding (ruleset.EventMarshaler): an
// offer's messages are reused.
func (p *parts) MarshalEvent(seq uint64, at time.Time, b table.Body) ([]byte, error) {
	return wire.MarshalEvent(seq, at, b)
}

// EventToPB is a game event in the API (ruleset.Parts).
func (p *parts) EventToPB(seq uint64, at time.Time, b table.Body) (*pb.Event, error) {
	return wire.EventToPB(seq, at, b)
}
