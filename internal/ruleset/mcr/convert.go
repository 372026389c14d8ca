package mcr

import (
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	wmcr "github.com/mahjong-authority/authority/internal/wire/mcr"
)

// actionFromPB checks a client's action and returns it for seat. The
// fields an action type does not use must be empty, so that a retried
// request with another payload is never taken for the same one.
func actionFromPB(a *pb.Action, seat tbl.Seat) (tbl.Action, error) {
	if a == nil {
		return tbl.Action{}, fmt.Errorf("action: %w", ruleset.ErrMalformed)
	}
	typ, ok := wmcr.ActionType(a.GetType())
	if !ok {
		return tbl.Action{}, fmt.Errorf("action.type: %v: %w", a.GetType(), ruleset.ErrMalformed)
	}
	unused := func(field string) error {
		return fmt.Errorf("action.%s: unused by %v: %w", field, typ, ruleset.ErrMalformed)
	}
	switch {
	case a.GetTsumogiri():
		return tbl.Action{}, unused("tsumogiri")
	case a.GetTiles() != "":
		return tbl.Action{}, unused("tiles")
	case a.GetRun() != "" && typ != tbl.Chi:
		return tbl.Action{}, unused("run")
	case a.GetTile() != "" && (typ == tbl.Tsumo || typ == tbl.Pass):
		return tbl.Action{}, unused("tile")
	}
	return wmcr.ActionFromPB(a, seat) // bad tiles wrap ErrBadTile, which is ruleset.ErrBadTile
}

// ActionFromPB checks a client's action for seat (ruleset.Parts).
func (parts) ActionFromPB(a *pb.Action, seat int) (tbl.Action, error) {
	return actionFromPB(a, tbl.Seat(seat))
}

// ViewToPB is a seat's view in the API (ruleset.Parts).
func (parts) ViewToPB(v tbl.View) *pb.View { return wmcr.ViewToPB(v) }

// EventToPB is a game event in the API (ruleset.Parts).
func (parts) EventToPB(seq uint64, at time.Time, b tbl.Body) (*pb.Event, error) {
	return wmcr.EventToPB(seq, at, b)
}
