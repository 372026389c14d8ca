package table

// View is what seat s may see now.
func (t *Table) View(s Seat) View {
	d := &t.d
	v := View{
		Seat: s, Phase: t.phase, Index: t.index - 1, Number: t.number, Scores: t.scores,
		First: Seat(d.deck.First), ToAct: d.toAct, Base: d.base, Bidder: d.bidder, HasBid: d.hasBid,
		Robs: d.robs, Bids: d.bids, Landlord: d.landlord, HasLandlord: d.hasLandlord, Kitty: d.shown,
		Last: d.last, LastBy: d.lastBy, HasLast: d.hasLast, Bombs: d.bombs, Played: d.played.Counts(),
		Seq: t.seq,
	}
	if s < NumSeats {
		v.Hand = d.hands[s].Counts()
	}
	for i := range v.Left {
		v.Left[i] = d.hands[i].Len()
	}
	v.MustLead = t.phase == Playing && !d.hasLast
	v.Legal = t.Legal(s)
	return v
}
