package sichuan

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// actionTypes are the action types a seat may send; Deal is the host's.
var actionTypes = map[pb.ActionType]sc.ActionType{
	pb.ActionType_ACTION_TYPE_SICHUAN_EXCHANGE: sc.Exchange,
	pb.ActionType_ACTION_TYPE_SICHUAN_VOID:     sc.Void,
	pb.ActionType_ACTION_TYPE_DISCARD:          sc.Discard,
	pb.ActionType_ACTION_TYPE_PON:              sc.Pon,
	pb.ActionType_ACTION_TYPE_OPEN_KAN:         sc.OpenKan,
	pb.ActionType_ACTION_TYPE_CLOSED_KAN:       sc.ClosedKan,
	pb.ActionType_ACTION_TYPE_ADDED_KAN:        sc.AddedKan,
	pb.ActionType_ACTION_TYPE_TSUMO:            sc.Tsumo,
	pb.ActionType_ACTION_TYPE_RON:              sc.Ron,
	pb.ActionType_ACTION_TYPE_PASS:             sc.Pass,
}

var pbActionTypes = invert(actionTypes)

// ActionType returns the engine's action type of t; false for a type a
// Sichuan seat cannot send (riichi's chi, riichi, nine terminals, and the
// unspecified zero).
func ActionType(t pb.ActionType) (sc.ActionType, bool) {
	typ, ok := actionTypes[t]
	return typ, ok
}

// takesTile reports whether an action type carries Action.Tile: the tile
// discarded or declared, or for a claim the tile claimed (which the offers
// name and the engine does not need: the window is about one tile).
func takesTile(t sc.ActionType) bool {
	switch t {
	case sc.Discard, sc.ClosedKan, sc.AddedKan, sc.Pon, sc.OpenKan, sc.Ron:
		return true
	}
	return false
}

// ActionToPB is the wire form of a seat's action: only the fields its type
// uses are set. The three tiles of an exchange keep their order.
func ActionToPB(a sc.Action) *pb.Action {
	out := &pb.Action{Type: pbActionTypes[a.Type]}
	switch {
	case a.Type == sc.Exchange:
		out.Tiles = tile.FormatInOrder(a.Tiles[:])
	case a.Type == sc.Void:
		out.Suit = SuitToPB(a.Suit)
	case takesTile(a.Type):
		out.Tile = a.Tile.String()
	}
	return out
}

// ActionsToPB converts a list of actions (an offer, a view's Legal).
func ActionsToPB(as []sc.Action) []*pb.Action {
	out := make([]*pb.Action, len(as))
	for i, a := range as {
		out[i] = ActionToPB(a)
	}
	return out
}

// ActionFromPB reads the action a of seat: the three tiles of an exchange,
// the suit of a void choice, the tile of a discard or kan; a claim (pon,
// open kan, ron) may name its tile or not. The fields its type does not
// use are ignored.
func ActionFromPB(a *pb.Action, seat sc.Seat) (sc.Action, error) {
	typ, ok := ActionType(a.GetType())
	if !ok {
		return sc.Action{}, malformed("action.type", "%v", a.GetType())
	}
	out := sc.Action{Seat: seat, Type: typ}
	var err error
	switch typ {
	case sc.Exchange:
		out.Tiles, err = three("action.tiles", a.GetTiles())
	case sc.Void:
		out.Suit, err = SuitFromPB("action.suit", a.GetSuit())
	case sc.Discard, sc.ClosedKan, sc.AddedKan:
		out.Tile, err = ParseTile("action.tile", a.GetTile())
	case sc.Pon, sc.OpenKan, sc.Ron:
		out.Tile, _, err = optTile("action.tile", a.GetTile())
	}
	if err != nil {
		return sc.Action{}, err
	}
	return out, nil
}

func actionsFromPB(field string, as []*pb.Action, seat sc.Seat) ([]sc.Action, error) {
	if len(as) == 0 {
		return nil, nil
	}
	out := make([]sc.Action, len(as))
	for i, a := range as {
		var err error
		if out[i], err = ActionFromPB(a, seat); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}

var meldTypes = map[sc.MeldType]pb.MeldType{
	sc.MeldPon:       pb.MeldType_MELD_TYPE_PON,
	sc.MeldOpenKan:   pb.MeldType_MELD_TYPE_OPEN_KAN,
	sc.MeldAddedKan:  pb.MeldType_MELD_TYPE_ADDED_KAN,
	sc.MeldClosedKan: pb.MeldType_MELD_TYPE_CLOSED_KAN,
}

var scMeldTypes = invert(meldTypes)

// MeldToPB is the wire form of a meld: its tiles (all of one kind), the
// seat it was called from, and the called tile but for a closed kan.
func MeldToPB(m sc.Meld) *pb.Meld {
	x := tile.Plain(m.Kind)
	ts := [4]tile.Tile{x, x, x, x}
	out := &pb.Meld{Type: meldTypes[m.Type], Tiles: tile.Format(ts[:m.Len()]), FromSeat: uint32(m.From)}
	if m.Type != sc.MeldClosedKan {
		out.CalledTile = x.String()
	}
	if m.Type == sc.MeldAddedKan {
		out.AddedTile = x.String()
	}
	return out
}

func meldsToPB(ms []sc.Meld) []*pb.Meld {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Meld, len(ms))
	for i, m := range ms {
		out[i] = MeldToPB(m)
	}
	return out
}

// MeldFromPB reads a meld: its tiles must be Len tiles of one kind.
func MeldFromPB(m *pb.Meld) (sc.Meld, error) {
	var out sc.Meld
	typ, ok := scMeldTypes[m.GetType()]
	if !ok {
		return out, malformed("meld.type", "%v", m.GetType())
	}
	out.Type = typ
	ts, err := ParseTiles("meld.tiles", m.GetTiles())
	if err != nil {
		return out, err
	}
	if len(ts) != out.Len() {
		return out, malformed("meld.tiles", "%d tiles for a %v", len(ts), typ)
	}
	for _, x := range ts {
		if x.Kind() != ts[0].Kind() {
			return out, malformed("meld.tiles", "%s is not of one kind", m.GetTiles())
		}
	}
	out.Kind = ts[0].Kind()
	if out.From, err = seatOf("meld.from_seat", m.GetFromSeat()); err != nil {
		return out, err
	}
	return out, nil
}

func meldsFromPB(field string, ms []*pb.Meld) ([]sc.Meld, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	out := make([]sc.Meld, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = MeldFromPB(m); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}
