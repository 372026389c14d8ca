package table

// View returns what seat s may see now: its own concealed tiles, the drawn
// tile when it is its own, everyone's discards and melds, scores and the
// dora indicators. It never holds another seat's concealed tiles or the
// wall. A seat number past the last (NumSeats) is a spectator, who sees no
// hand. The View is a copy: it does not change with the table.
func (t *Table) View(s Seat) View {
	var v View
	t.ViewInto(s, &v)
	return v
}

// ViewInto is View writing into v, reusing the room of v's slices: a host
// that keeps one View per seat takes views without allocating.
func (t *Table) ViewInto(s Seat, v *View) {
	r := &t.r
	// Fields one by one: the slices keep their room.
	v.Seat, v.Phase, v.RoundWind, v.Number, v.Dealer = s, t.phase, t.wind, t.number, t.dealer()
	v.Honba, v.RiichiSticks, v.Scores = t.honba, t.sticks, t.scores
	v.WallLeft, v.ToAct, v.Seq = r.liveLeft(), r.toAct, t.seq
	v.Drawn, v.HasDrawn = 0, false
	v.Dora, v.Hand, v.Legal = v.Dora[:0], v.Hand[:0], v.Legal[:0]
	if t.rounds == 0 {
		v.WallLeft = 0
		for o := range v.Seats {
			v.Seats[o] = SeatView{Score: t.scores[o]}
		}
		v.Dora, v.Hand, v.Legal = nil, nil, nil
		return
	}
	v.Dora = append(v.Dora, r.doraInd[:r.dora]...)
	for o := range r.seats {
		p := &r.seats[o]
		sv := &v.Seats[o]
		sv.Discards = append(sv.Discards[:0], p.pond...)
		sv.Melds = append(sv.Melds[:0], p.melds...)
		sv.HandSize, sv.Riichi, sv.Score = len(p.hand), p.riichi, t.scores[o]
	}
	if s >= NumSeats {
		v.Hand, v.Legal = nil, nil
		return
	}
	p := &r.seats[s]
	v.Hand = append(v.Hand, p.hand...)
	if t.phase == Turn && r.toAct == s && r.hasDrawn {
		v.Drawn, v.HasDrawn = r.drawn, true
		v.Hand = removeTile(v.Hand, r.drawn)
	}
	v.Legal = t.AppendLegal(v.Legal, s)
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
}
