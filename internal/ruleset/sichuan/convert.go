package sichuan

import (
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

func fieldError(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }

// actionFromPB checks a client's action and returns it for seat. The
// fields an action type does not use must be empty, so that a retried
// request with another payload is never mistaken for the same one.
func actionFromPB(a *pb.Action, seat sc.Seat) (sc.Action, error) {
	if a == nil {
		return sc.Action{}, fieldError("action", ruleset.ErrMalformed)
	}
	typ, ok := wsc.ActionType(a.GetType())
	if !ok {
		return sc.Action{}, fieldError("action.type", fmt.Errorf("%v is not a Sichuan action: %w", a.GetType(), ruleset.ErrMalformed))
	}
	if a.GetTsumogiri() {
		return sc.Action{}, fieldError("action.tsumogiri", fmt.Errorf("not a Sichuan field: %w", ruleset.ErrMalformed))
	}
	out, err := wsc.ActionFromPB(a, seat) // bad tiles wrap wire.ErrBadTile, which is ruleset.ErrBadTile
	if err != nil {
		return sc.Action{}, err
	}
	unused := func(field string, set bool) error {
		if set {
			return fieldError("action."+field, fmt.Errorf("unused by %v: %w", typ, ruleset.ErrMalformed))
		}
		return nil
	}
	var errs [3]error
	switch typ {
	case sc.Exchange:
		errs = [3]error{unused("tile", a.GetTile() != ""), unused("suit", a.GetSuit() != 0)}
	case sc.Void:
		errs = [3]error{unused("tile", a.GetTile() != ""), unused("tiles", a.GetTiles() != "")}
	case sc.Discard, sc.ClosedKan, sc.AddedKan, sc.Pon, sc.OpenKan, sc.Ron:
		errs = [3]error{unused("tiles", a.GetTiles() != ""), unused("suit", a.GetSuit() != 0)}
	default:
		errs = [3]error{unused("tile", a.GetTile() != ""), unused("tiles", a.GetTiles() != ""), unused("suit", a.GetSuit() != 0)}
	}
	for _, err := range errs {
		if err != nil {
			return sc.Action{}, err
		}
	}
	return out, nil
}

// ActionFromPB checks a client's action for seat (ruleset.Parts).
func (p *parts) ActionFromPB(a *pb.Action, seat int) (sc.Action, error) {
	return actionFromPB(a, sc.Seat(seat))
}

// ViewToPB is a seat's view in the API (ruleset.Parts).
func (p *parts) ViewToPB(v sc.View) *pb.View { return wsc.ViewToPB(v) }

// EventToPB is a game event in the API (ruleset.Parts).
func (p *parts) EventToPB(seq uint64, at time.Time, b sc.Body) (*pb.Event, error) {
	return wsc.EventToPB(seq, at, b)
}
