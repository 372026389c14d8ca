package sichuan

import "github.com/mahjong-authority/authority/internal/tile"

// View returns what seat s may see now: its own concealed tiles and drawn
// tile, its own exchange and void choice, everyone's discards, melds, wins
// and scores, the exchange direction once made and the void suits once all
// are revealed. It never holds another seat's concealed tiles, exchange or
// hidden void choice, nor the wall. A seat number past the last (NumSeats)
// is a spectator, who sees no hand. The View is a copy.
func (t *Table) View(s Seat) View {
	var v View
	t.ViewInto(s, &v)
	return v
}

// ViewInto is View writing into v, reusing the room of v's slices.
func (t *Table) ViewInto(s Seat, v *View) {
	r := &t.r
	v.Seat, v.Phase, v.Index, v.Dealer, v.Scores = s, t.phase, t.hands-1, t.dealer, t.scores
	v.WallLeft, v.ToAct, v.Seq = r.liveLeft(), r.toAct, t.seq
	v.Drawn, v.HasDrawn = 0, false
	v.Direction, v.Gave, v.Got, v.Chose, v.Void, v.VoidSet = 0, [3]tile.Tile{}, [3]tile.Tile{}, false, 0, false
	v.Revealed = t.hands > 0 && t.phase != Exchanging && t.phase != ChoosingVoid
	v.Tiles, v.Legal = v.Tiles[:0], v.Legal[:0]
	if t.hands == 0 {
		v.Index, v.WallLeft = 0, 0
		for o := range v.Seats {
			v.Seats[o] = SeatView{Score: t.scores[o]}
		}
		v.Tiles, v.Legal = nil, nil
		return
	}
	exchanged := t.rules.Exchange && t.phase != Exchanging
	if exchanged {
		v.Direction = r.wall.Direction
	}
	for o := range r.seats {
		p := &r.seats[o]
		sv := &v.Seats[o]
		sv.Discards = append(sv.Discards[:0], p.pond...)
		sv.Melds = append(sv.Melds[:0], p.melds...)
		sv.Won = sv.Won[:0]
		for _, w := range p.won {
			sv.Won = append(sv.Won, w.tile)
		}
		sv.HandSize, sv.Left, sv.Score, sv.Void = len(p.hand), p.left, t.scores[o], 0
		if v.Revealed {
			sv.Void = p.void
		}
		sv.KanMoney = 0
		for _, u := range p.kanIn {
			sv.KanMoney += u
		}
	}
	if s >= NumSeats {
		v.Tiles, v.Legal = nil, nil
		return
	}
	p := &r.seats[s]
	v.Tiles = append(v.Tiles, p.hand...)
	if t.phase == Turn && r.toAct == s && r.hasDrawn {
		v.Drawn, v.HasDrawn = r.drawn, true
		v.Tiles = removeOne(v.Tiles, r.drawn)
	}
	if t.rules.Exchange && (p.chose || exchanged) {
		v.Gave, v.Chose = p.gave, true
	}
	if exchanged {
		v.Got = p.got
	}
	if p.voidSet {
		v.Void, v.VoidSet = p.void, true
	}
	v.Legal = t.AppendLegal(v.Legal, s)
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
	if len(v.Tiles) == 0 {
		v.Tiles = nil
	}
}

func removeOne(ts []tile.Tile, x tile.Tile) []tile.Tile {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i] == x {
			return append(ts[:i], ts[i+1:]...)
		}
	}
	return ts
}
