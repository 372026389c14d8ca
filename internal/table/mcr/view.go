package mcr

import "github.com/mahjong-authority/authority/internal/tile"

// View returns what seat s may see now. A seat number past the last gives
// a spectator's view: everything public and no tiles of any hand.
func (t *Table) View(s Seat) View {
	var v View
	t.ViewInto(&v, s)
	return v
}

// ViewInto is View reusing v's slices.
func (t *Table) ViewInto(v *View, s Seat) {
	r := &t.r
	v.Seat, v.Phase, v.Hand, v.Scores, v.Seq = s, t.phase, t.hands-1, t.scores, t.seq
	v.Round, v.Winds, v.Dealer = r.round, r.winds, r.dealer
	v.WallLeft, v.ToAct = r.wallLeft(), r.toAct
	v.Drawn, v.HasDrawn = 0, false
	v.Tiles, v.Legal = v.Tiles[:0], v.Legal[:0]
	if t.hands == 0 {
		v.Hand, v.WallLeft = 0, 0
		v.Round, v.Winds = Winds(0)
		v.Dealer = 0
		for o := range v.Seats {
			v.Seats[o] = SeatView{Score: t.scores[o]}
		}
		v.Tiles, v.Legal = nil, nil
		return
	}
	for o := range r.seats {
		p := &r.seats[o]
		sv := &v.Seats[o]
		sv.Discards = append(sv.Discards[:0], p.pond...)
		sv.Melds = sv.Melds[:0]
		for _, m := range p.melds {
			if m.Type == MeldClosedKan && Seat(o) != s && !(r.won && r.winner == Seat(o)) {
				// Face down, until a win shows the winner's melds.
				m = Meld{Type: MeldClosedKan, From: m.From, Hidden: true}
			}
			sv.Melds = append(sv.Melds, m)
		}
		sv.Flowers = append(sv.Flowers[:0], p.flowers...)
		sv.HandSize, sv.Score = len(p.hand), t.scores[o]
		if len(sv.Discards) == 0 {
			sv.Discards = nil
		}
		if len(sv.Melds) == 0 {
			sv.Melds = nil
		}
		if len(sv.Flowers) == 0 {
			sv.Flowers = nil
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
