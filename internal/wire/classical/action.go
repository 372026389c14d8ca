package classical

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ActionType returns the engine's action type of t; false for a type a
// classical seat cannot send. TSUMO and RON are both Mah Jong: the table
// knows which it is.
func ActionType(t pb.ActionType) (ct.ActionType, bool) {
	switch t {
	case pb.ActionType_ACTION_TYPE_DISCARD:
		return ct.Discard, true
	case pb.ActionType_ACTION_TYPE_CLASSICAL_FISH:
		return ct.Fish, true
	case pb.ActionType_ACTION_TYPE_CLOSED_KAN:
		return ct.ConcealedKong, true
	case pb.ActionType_ACTION_TYPE_ADDED_KAN:
		return ct.AddedKong, true
	case pb.ActionType_ACTION_TYPE_TSUMO, pb.ActionType_ACTION_TYPE_RON:
		return ct.MahJong, true
	case pb.ActionType_ACTION_TYPE_CHI:
		return ct.Chow, true
	case pb.ActionType_ACTION_TYPE_PON:
		return ct.Pung, true
	case pb.ActionType_ACTION_TYPE_OPEN_KAN:
		return ct.Kong, true
	case pb.ActionType_ACTION_TYPE_PASS:
		return ct.Pass, true
	}
	return 0, false
}

var pbTypes = [...]pb.ActionType{
	ct.Discard:       pb.ActionType_ACTION_TYPE_DISCARD,
	ct.Fish:          pb.ActionType_ACTION_TYPE_CLASSICAL_FISH,
	ct.ConcealedKong: pb.ActionType_ACTION_TYPE_CLOSED_KAN,
	ct.AddedKong:     pb.ActionType_ACTION_TYPE_ADDED_KAN,
	ct.MahJong:       pb.ActionType_ACTION_TYPE_TSUMO,
	ct.Chow:          pb.ActionType_ACTION_TYPE_CHI,
	ct.Pung:          pb.ActionType_ACTION_TYPE_PON,
	ct.Kong:          pb.ActionType_ACTION_TYPE_OPEN_KAN,
	ct.Pass:          pb.ActionType_ACTION_TYPE_PASS,
}

// ActionToPB is the wire form of a seat's action; window says whether it
// answers a claim window, where Mah Jong is RON (TSUMO in a turn). Every
// type but Pass and Fish carries its tile.
func ActionToPB(a ct.Action, window bool) *pb.Action {
	out := &pb.Action{}
	if int(a.Type) < len(pbTypes) {
		out.Type = pbTypes[a.Type]
	}
	if a.Type == ct.MahJong && window {
		out.Type = pb.ActionType_ACTION_TYPE_RON
	}
	if a.Type != ct.Pass && a.Type != ct.Fish {
		out.Tile = a.Tile.String()
	}
	return out
}

// ActionsToPB converts a list of actions (an offer, a view's Legal).
func ActionsToPB(as []ct.Action, window bool) []*pb.Action {
	out := make([]*pb.Action, len(as))
	for i, a := range as {
		out[i] = ActionToPB(a, window)
	}
	return out
}

// ActionFromPB reads the action a of seat: the tile of a discard or a
// kong declared from the hand, the lowest tile of a chow's run; a claim
// (pung, kong, Mah Jong) may name its tile or not. Other fields are
// ignored.
func ActionFromPB(a *pb.Action, seat ct.Seat) (ct.Action, error) {
	typ, ok := ActionType(a.GetType())
	if !ok {
		return ct.Action{}, malformed("action.type", "%v", a.GetType())
	}
	out := ct.Action{Seat: seat, Type: typ}
	var err error
	switch typ {
	case ct.Discard, ct.ConcealedKong, ct.AddedKong, ct.Chow:
		out.Tile, err = ParseTile("action.tile", a.GetTile())
	case ct.Pung, ct.Kong, ct.MahJong:
		out.Tile, err = optTile("action.tile", a.GetTile())
	}
	if err != nil {
		return ct.Action{}, err
	}
	return out, nil
}

func actionsFromPB(field string, as []*pb.Action, seat ct.Seat) ([]ct.Action, error) {
	if len(as) == 0 {
		return nil, nil
	}
	out := make([]ct.Action, len(as))
	for i, a := range as {
		var err error
		if out[i], err = ActionFromPB(a, seat); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}

var meldTypes = map[ct.MeldType]pb.MeldType{
	ct.MeldChow:          pb.MeldType_MELD_TYPE_CHI,
	ct.MeldPung:          pb.MeldType_MELD_TYPE_PON,
	ct.MeldKong:          pb.MeldType_MELD_TYPE_OPEN_KAN,
	ct.MeldConcealedKong: pb.MeldType_MELD_TYPE_CLOSED_KAN,
}

// MeldToPB is the wire form of a meld: its tiles and the seat it was
// claimed from. A kong claimed or added to a pung is OPEN_KAN.
func MeldToPB(m ct.Meld) *pb.Meld {
	var ts [4]tile.Tile
	for i := range m.Len() {
		if m.Type == ct.MeldChow {
			ts[i] = tile.Plain(m.Kind + tile.Kind(i))
		} else {
			ts[i] = tile.Plain(m.Kind)
		}
	}
	return &pb.Meld{Type: meldTypes[m.Type], Tiles: tile.Format(ts[:m.Len()]), FromSeat: uint32(m.From)}
}

func meldsToPB(ms []ct.Meld) []*pb.Meld {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Meld, len(ms))
	for i, m := range ms {
		out[i] = MeldToPB(m)
	}
	return out
}

// MeldFromPB reads a meld: a run of three of one suit for CHI, three or
// four of one kind for the others.
func MeldFromPB(m *pb.Meld) (ct.Meld, error) {
	var out ct.Meld
	switch m.GetType() {
	case pb.MeldType_MELD_TYPE_CHI:
		out.Type = ct.MeldChow
	case pb.MeldType_MELD_TYPE_PON:
		out.Type = ct.MeldPung
	case pb.MeldType_MELD_TYPE_OPEN_KAN, pb.MeldType_MELD_TYPE_ADDED_KAN:
		out.Type = ct.MeldKong
	case pb.MeldType_MELD_TYPE_CLOSED_KAN:
		out.Type = ct.MeldConcealedKong
	default:
		return out, malformed("meld.type", "%v", m.GetType())
	}
	ts, err := ParseTiles("meld.tiles", m.GetTiles())
	if err != nil {
		return out, err
	}
	if len(ts) != out.Len() {
		return out, malformed("meld.tiles", "%d tiles for a %v", len(ts), out.Type)
	}
	tile.Sort(ts)
	k := ts[0].Kind()
	for i, x := range ts {
		want := k
		if out.Type == ct.MeldChow {
			want = k + tile.Kind(i)
		}
		if x.Kind() != want || (out.Type == ct.MeldChow && (k >= 27 || k%9 > 6)) {
			return out, malformed("meld.tiles", "%s is no %v", m.GetTiles(), out.Type)
		}
	}
	out.Kind = k
	if out.From, err = seatOf("meld.from_seat", m.GetFromSeat()); err != nil {
		return out, err
	}
	return out, nil
}

func meldsFromPB(field string, ms []*pb.Meld) ([]ct.Meld, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	out := make([]ct.Meld, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = MeldFromPB(m); err != nil {
			return nil, prefix(field, err)
		}
	}
	return out, nil
}
