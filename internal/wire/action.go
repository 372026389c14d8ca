package wire

import (
	"fmt"
	"slices"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// actionTypes are the action types a seat may send; Deal is the host's.
var actionTypes = map[pb.ActionType]table.ActionType{
	pb.ActionType_ACTION_TYPE_DISCARD:        table.Discard,
	pb.ActionType_ACTION_TYPE_RIICHI:         table.Riichi,
	pb.ActionType_ACTION_TYPE_CHI:            table.Chi,
	pb.ActionType_ACTION_TYPE_PON:            table.Pon,
	pb.ActionType_ACTION_TYPE_OPEN_KAN:       table.OpenKan,
	pb.ActionType_ACTION_TYPE_CLOSED_KAN:     table.ClosedKan,
	pb.ActionType_ACTION_TYPE_ADDED_KAN:      table.AddedKan,
	pb.ActionType_ACTION_TYPE_TSUMO:          table.Tsumo,
	pb.ActionType_ACTION_TYPE_RON:            table.Ron,
	pb.ActionType_ACTION_TYPE_PASS:           table.Pass,
	pb.ActionType_ACTION_TYPE_NINE_TERMINALS: table.NineTerminals,
}

var pbActionTypes = invert(actionTypes)

// ActionType returns the table's action type of t; false for an unknown
// type (and for the unspecified zero).
func ActionType(t pb.ActionType) (table.ActionType, bool) {
	typ, ok := actionTypes[t]
	return typ, ok
}

// ActionToPB is the wire form of a seat's action: only the fields its type
// uses are set. Ron and open kan carry no tile: the server knows the tile
// its claim window is about.
func ActionToPB(a table.Action) *pb.Action {
	out := &pb.Action{}
	fillAction(out, a)
	return out
}

// fillAction sets out, a new message, to the wire form of a.
func fillAction(out *pb.Action, a table.Action) {
	out.Type = pbActionTypes[a.Type]
	switch a.Type {
	case table.Discard, table.Riichi:
		out.Tile, out.Tsumogiri = a.Tile.String(), a.Tsumogiri
	case table.ClosedKan, table.AddedKan:
		out.Tile = a.Tile.String()
	case table.Chi, table.Pon:
		out.Tiles = tile.FormatInOrder(a.Tiles[:])
	}
}

// ActionsToPB converts a list of actions (an offer, a view's Legal), the
// messages allocated together: every offer sent is converted.
func ActionsToPB(as []table.Action) []*pb.Action {
	out := make([]*pb.Action, len(as))
	msgs := make([]pb.Action, len(as))
	for i, a := range as {
		fillAction(&msgs[i], a)
		out[i] = &msgs[i]
	}
	return out
}

// ActionFromPB reads the action a of seat: the tile of a discard, riichi
// or closed or added kan, the two own tiles of a chi or pon, tsumogiri for
// a discard or riichi. The fields its type does not use are ignored.
func ActionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	typ, ok := ActionType(a.GetType())
	if !ok {
		return table.Action{}, malformed("action.type", "%v", a.GetType())
	}
	out := table.Action{Seat: seat, Type: typ}
	var err error
	switch typ {
	case table.Discard, table.Riichi:
		out.Tsumogiri = a.GetTsumogiri()
		out.Tile, err = ParseTile("action.tile", a.GetTile())
	case table.ClosedKan, table.AddedKan:
		out.Tile, err = ParseTile("action.tile", a.GetTile())
	case table.Chi, table.Pon:
		var ts []tile.Tile
		if ts, err = ParseTiles("action.tiles", a.GetTiles()); err == nil && len(ts) != 2 {
			err = tileError("action.tiles", a.GetTiles(), fmt.Errorf("want the 2 own tiles, have %d", len(ts)))
		}
		if err == nil {
			out.Tiles = [2]tile.Tile{ts[0], ts[1]}
		}
	}
	if err != nil {
		return table.Action{}, err
	}
	return out, nil
}

func actionsFromPB(field string, as []*pb.Action, seat table.Seat) ([]table.Action, error) {
	if len(as) == 0 {
		return nil, nil
	}
	out := make([]table.Action, len(as))
	for i, a := range as {
		var err error
		if out[i], err = ActionFromPB(a, seat); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}

var meldTypes = map[judge.MeldType]pb.MeldType{
	judge.Chi:       pb.MeldType_MELD_TYPE_CHI,
	judge.Pon:       pb.MeldType_MELD_TYPE_PON,
	judge.OpenKan:   pb.MeldType_MELD_TYPE_OPEN_KAN,
	judge.AddedKan:  pb.MeldType_MELD_TYPE_ADDED_KAN,
	judge.ClosedKan: pb.MeldType_MELD_TYPE_CLOSED_KAN,
}

var judgeMeldTypes = invert(meldTypes)

// MeldToPB is the wire form of a declared meld: its tiles sorted, the
// called tile (none for a closed kan) and the added tile of an added kan.
func MeldToPB(m table.Meld) *pb.Meld {
	out := &pb.Meld{
		Type:     meldTypes[m.Type],
		Tiles:    tile.Format(m.Tiles[:m.Len()]),
		FromSeat: uint32(m.From),
	}
	if m.Type != judge.ClosedKan {
		out.CalledTile = m.Called.String()
	}
	if m.Type == judge.AddedKan {
		out.AddedTile = m.Added.String()
	}
	return out
}

func meldsToPB(ms []table.Meld) []*pb.Meld {
	out := make([]*pb.Meld, len(ms))
	for i, m := range ms {
		out[i] = MeldToPB(m)
	}
	return out
}

// MeldFromPB reads a declared meld.
func MeldFromPB(m *pb.Meld) (table.Meld, error) {
	var out table.Meld
	typ, ok := judgeMeldTypes[m.GetType()]
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
	copy(out.Tiles[:], ts)
	if out.From, err = seatOf("meld.from_seat", m.GetFromSeat()); err != nil {
		return out, err
	}
	if typ == judge.ClosedKan {
		// No tile was called; the engine keeps the last one there.
		out.Called = ts[len(ts)-1]
	} else if out.Called, err = meldTile("meld.called_tile", m.GetCalledTile(), ts); err != nil {
		return out, err
	}
	if typ == judge.AddedKan {
		if out.Added, err = meldTile("meld.added_tile", m.GetAddedTile(), ts); err != nil {
			return out, err
		}
	}
	return out, nil
}

// meldTile reads the called or added tile of a meld, which must be one of
// its tiles: a reader takes it out of the meld's tiles to know what left
// the hand.
func meldTile(field, s string, tiles []tile.Tile) (tile.Tile, error) {
	x, err := ParseTile(field, s)
	if err != nil {
		return 0, err
	}
	if !slices.Contains(tiles, x) {
		return 0, malformed(field, "%v is not among the meld's tiles %s", x, tile.Format(tiles))
	}
	return x, nil
}

func meldsFromPB(field string, ms []*pb.Meld) ([]table.Meld, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	out := make([]table.Meld, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = MeldFromPB(m); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}
