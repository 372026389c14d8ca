package mcr

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

var actionTypes = map[tbl.ActionType]pb.ActionType{
	tbl.Discard:   pb.ActionType_ACTION_TYPE_DISCARD,
	tbl.Chi:       pb.ActionType_ACTION_TYPE_CHI,
	tbl.Pon:       pb.ActionType_ACTION_TYPE_PON,
	tbl.OpenKan:   pb.ActionType_ACTION_TYPE_OPEN_KAN,
	tbl.ClosedKan: pb.ActionType_ACTION_TYPE_CLOSED_KAN,
	tbl.AddedKan:  pb.ActionType_ACTION_TYPE_ADDED_KAN,
	tbl.Tsumo:     pb.ActionType_ACTION_TYPE_TSUMO,
	tbl.Ron:       pb.ActionType_ACTION_TYPE_RON,
	tbl.Pass:      pb.ActionType_ACTION_TYPE_PASS,
}

var tableTypes = invert(actionTypes)

// ActionType is the engine's action type for a wire type; riichi's own
// (riichi, nine terminals) and the unset type have none.
func ActionType(t pb.ActionType) (tbl.ActionType, bool) {
	at, ok := tableTypes[t]
	return at, ok
}

// ActionToPB is the wire form of a seat's action: the tile of a discard
// or a kong, the run's lowest tile of a chi, and in a claim offer the
// claimed tile (a claim may name it; the engine does not read it). Deals
// never cross the wire.
func ActionToPB(a tbl.Action) *pb.Action {
	out := &pb.Action{Type: actionTypes[a.Type]}
	switch a.Type {
	case tbl.Discard, tbl.ClosedKan, tbl.AddedKan:
		out.Tile = a.Tile.String()
	case tbl.Chi, tbl.Pon, tbl.OpenKan, tbl.Ron:
		if a.Tile != 0 {
			out.Tile = a.Tile.String()
		}
	}
	if a.Type == tbl.Chi {
		out.Run = tile.Plain(a.Run).String()
	}
	return out
}

// ActionsToPB is the wire form of offered actions (nil for none).
func ActionsToPB(as []tbl.Action) []*pb.Action {
	if len(as) == 0 {
		return nil
	}
	out := make([]*pb.Action, len(as))
	for i, a := range as {
		out[i] = ActionToPB(a)
	}
	return out
}

// ActionFromPB reads seat's action. Fields the type does not use are
// ignored here (the server refuses them itself).
func ActionFromPB(a *pb.Action, seat tbl.Seat) (tbl.Action, error) {
	typ, ok := ActionType(a.GetType())
	if !ok {
		return tbl.Action{}, malformed("action.type", "%v", a.GetType())
	}
	out := tbl.Action{Seat: seat, Type: typ}
	var err error
	switch typ {
	case tbl.Discard, tbl.ClosedKan, tbl.AddedKan:
		out.Tile, err = ParseTile("action.tile", a.GetTile())
	case tbl.Pon, tbl.OpenKan, tbl.Ron:
		if a.GetTile() != "" {
			out.Tile, err = ParseTile("action.tile", a.GetTile())
		}
	case tbl.Chi:
		if a.GetTile() != "" {
			if out.Tile, err = ParseTile("action.tile", a.GetTile()); err != nil {
				return tbl.Action{}, err
			}
		}
		var low tile.Tile
		low, err = ParseTile("action.run", a.GetRun())
		if err == nil && (low.Kind().IsHonor() || low.Kind().Number() > 7) {
			err = malformed("action.run", "%v does not start a run", low)
		}
		out.Run = low.Kind()
	}
	if err != nil {
		return tbl.Action{}, err
	}
	return out, nil
}

func actionsFromPB(field string, as []*pb.Action, seat tbl.Seat) ([]tbl.Action, error) {
	if len(as) == 0 {
		return nil, nil
	}
	out := make([]tbl.Action, len(as))
	for i, a := range as {
		var err error
		if out[i], err = ActionFromPB(a, seat); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}

var meldTypes = map[tbl.MeldType]pb.MeldType{
	tbl.MeldChi:       pb.MeldType_MELD_TYPE_CHI,
	tbl.MeldPon:       pb.MeldType_MELD_TYPE_PON,
	tbl.MeldOpenKan:   pb.MeldType_MELD_TYPE_OPEN_KAN,
	tbl.MeldAddedKan:  pb.MeldType_MELD_TYPE_ADDED_KAN,
	tbl.MeldClosedKan: pb.MeldType_MELD_TYPE_CLOSED_KAN,
}

var tableMelds = invert(meldTypes)

// MeldToPB is the wire form of a meld: its tiles and the called tile (none
// for a closed kong). A concealed kong seen face down has no tiles.
func MeldToPB(m tbl.Meld) *pb.Meld {
	out := &pb.Meld{Type: meldTypes[m.Type], FromSeat: uint32(m.From)}
	if m.Hidden {
		return out
	}
	ts := make([]tile.Tile, m.Len())
	for i := range ts {
		if m.Type == tbl.MeldChi {
			ts[i] = tile.Plain(m.Kind + tile.Kind(i))
		} else {
			ts[i] = tile.Plain(m.Kind)
		}
	}
	out.Tiles = tile.Format(ts)
	if m.Type != tbl.MeldClosedKan {
		out.CalledTile = tile.Plain(m.Called).String()
	}
	return out
}

func meldsToPB(ms []tbl.Meld) []*pb.Meld {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Meld, len(ms))
	for i, m := range ms {
		out[i] = MeldToPB(m)
	}
	return out
}

// MeldFromPB reads a meld.
func MeldFromPB(m *pb.Meld) (tbl.Meld, error) {
	var out tbl.Meld
	typ, ok := tableMelds[m.GetType()]
	if !ok {
		return out, malformed("meld.type", "%v", m.GetType())
	}
	out.Type = typ
	var err error
	if out.From, err = seatOf("meld.from_seat", m.GetFromSeat()); err != nil {
		return out, err
	}
	if typ == tbl.MeldClosedKan && m.GetTiles() == "" {
		out.Hidden = true
		return out, nil
	}
	ts, err := parseTiles("meld.tiles", m.GetTiles(), false)
	if err != nil {
		return out, err
	}
	if len(ts) != out.Len() {
		return out, malformed("meld.tiles", "%d tiles for a %v", len(ts), typ)
	}
	out.Kind = ts[0].Kind()
	for i, x := range ts {
		want := out.Kind
		if typ == tbl.MeldChi {
			want += tile.Kind(i)
		}
		if x.Kind() != want || typ == tbl.MeldChi && (want.IsHonor() || want/9 != out.Kind/9) {
			return out, malformed("meld.tiles", "%s is not a %v", m.GetTiles(), typ)
		}
	}
	if typ == tbl.MeldClosedKan {
		out.Called = out.Kind
		return out, nil
	}
	c, err := ParseTile("meld.called_tile", m.GetCalledTile())
	if err != nil {
		return out, err
	}
	if c.Kind() < out.Kind || c.Kind() >= out.Kind+tile.Kind(len(ts)) || typ != tbl.MeldChi && c.Kind() != out.Kind {
		return out, malformed("meld.called_tile", "%v is not among the meld's tiles", c)
	}
	out.Called = c.Kind()
	return out, nil
}

func meldsFromPB(field string, ms []*pb.Meld) ([]tbl.Meld, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	out := make([]tbl.Meld, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = MeldFromPB(m); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}
