package table

import "github.com/mahjong-authority/authority/internal/tile"

// View returns what seat s may see now: its own concealed tiles, the drawn
// tile when it is its own, everyone's discards and melds, scores and the
// dora indicators. It never holds another seat's concealed tiles or the
// wall. The View is a copy: it does not change with the table.
func (t *Table) View(s Seat) View {
	r := &t.r
	v := View{
		Seat:         s,
		Phase:        t.phase,
		RoundWind:    t.wind,
		Number:       t.number,
		Dealer:       t.dealer(),
		Honba:        t.honba,
		RiichiSticks: t.sticks,
		Scores:       t.scores,
		WallLeft:     r.liveLeft(),
		ToAct:        r.toAct,
		Seq:          t.seq,
	}
	if t.rounds == 0 {
		v.WallLeft = 0
		for o := range v.Seats {
			v.Seats[o].Score = t.scores[o]
		}
		return v
	}
	v.Dora = append([]tile.Tile(nil), r.doraInd[:r.dora]...)
	for o := range r.seats {
		p := &r.seats[o]
		v.Seats[o] = SeatView{
			Discards: append([]DiscardView(nil), p.pond...),
			Melds:    append([]Meld(nil), p.melds...),
			HandSize: len(p.hand),
			Riichi:   p.riichi,
			Score:    t.scores[o],
		}
	}
	if s < NumSeats {
		p := &r.seats[s]
		v.Hand = append([]tile.Tile(nil), p.hand...)
		if t.phase == Turn && r.toAct == s && r.hasDrawn {
			v.Drawn, v.HasDrawn = r.drawn, true
			v.Hand = removeTile(v.Hand, r.drawn)
		}
		v.Legal = t.Legal(s)
	}
	return v
}
