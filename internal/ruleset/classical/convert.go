package classical

import (
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	wcl "github.com/mahjong-authority/authority/internal/wire/classical"
)

func fieldError(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }

// actionFromPB checks a client's action and returns it for seat. The
// fields classical actions do not use must be empty, and so must the tile
// of a pass or a fishing announcement, so that a retried request with
// another payload is never mistaken for the same one.
func actionFromPB(a *pb.Action, seat ct.Seat) (ct.Action, error) {
	if a == nil {
		return ct.Action{}, fieldError("action", ruleset.ErrMalformed)
	}
	typ, ok := wcl.ActionType(a.GetType())
	if !ok {
		return ct.Action{}, fieldError("action.type", fmt.Errorf("%v is not a classical action: %w", a.GetType(), ruleset.ErrMalformed))
	}
	switch {
	case a.GetTsumogiri():
		return ct.Action{}, fieldError("action.tsumogiri", fmt.Errorf("not a classical field: %w", ruleset.ErrMalformed))
	case a.GetTiles() != "":
		return ct.Action{}, fieldError("action.tiles", fmt.Errorf("not a classical field (a chow names its run's lowest tile in tile): %w", ruleset.ErrMalformed))
	case (typ == ct.Pass || typ == ct.Fish) && a.GetTile() != "":
		return ct.Action{}, fieldError("action.tile", fmt.Errorf("unused by %v: %w", typ, ruleset.ErrMalformed))
	}
	return wcl.ActionFromPB(a, seat) // bad tiles wrap wire.ErrBadTile, which is ruleset.ErrBadTile
}

// ActionFromPB checks a client's action for seat (ruleset.Parts).
func (p *parts) ActionFromPB(a *pb.Action, seat int) (ct.Action, error) {
	return actionFromPB(a, ct.Seat(seat))
}

// ViewToPB is a seat's view in the API (ruleset.Parts).
func (p *parts) ViewToPB(v ct.View) *pb.View { return wcl.ViewToPB(v) }

// EventToPB is a game event in the API (ruleset.Parts).
func (p *parts) EventToPB(seq uint64, at time.Time, b ct.Body) (*pb.Event, error) {
	return wcl.EventToPB(seq, at, b)
}
