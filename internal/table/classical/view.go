package classical

// View returns what seat s may see (s < NumSeats).
func (t *Table) View(s Seat) View {
	var v View
	t.ViewInto(s, &v)
	return v
}

// ViewInto fills v with seat s's view, reusing v's slices.
func (t *Table) ViewInto(s Seat, v *View) {
	r := &t.r
	*v = View{Seat: s, Phase: t.phase, Index: max(0, t.hands-1), Round: t.round, Dealer: t.dealer, Scores: t.scores, Seq: t.seq,
		Tiles: v.Tiles[:0], Legal: v.Legal[:0]}
	for o := range v.Seats {
		v.Seats[o].Score = t.scores[o]
	}
	if t.phase != Turn && t.phase != ClaimWindow {
		return
	}
	v.WallLeft = r.liveLeft()
	v.ToAct = r.toAct
	if t.phase == ClaimWindow {
		v.ClaimTile, v.ClaimFrom = r.claimTile, r.claimFrom
	}
	p := &r.seats[s]
	v.Tiles = append(v.Tiles, p.hand...)
	if t.phase == Turn && r.toAct == s && r.hasDrawn {
		v.Drawn, v.HasDrawn = r.drawn, true
		for i, x := range v.Tiles {
			if x == r.drawn {
				v.Tiles = append(v.Tiles[:i], v.Tiles[i+1:]...)
				break
			}
		}
	}
	for o := range r.seats {
		q := &r.seats[o]
		v.Seats[o] = SeatView{Discards: q.pond, Melds: q.melds, Bonus: q.bonus, HandSize: len(q.hand), Fishing: q.fishing, Score: t.scores[o]}
	}
	v.Legal = t.AppendLegal(v.Legal, s)
}
