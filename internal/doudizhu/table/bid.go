package table

// The bidding: 叫分 (each seat once bids 1, 2 or 3, higher than the bid
// before it, or passes; a bid of 3 ends it) or, with Rules.Rob, 叫地主/抢地主
// (call or pass until someone calls; each later seat may rob or pass, each
// rob doubling the base; then the first caller may rob back once if anyone
// robbed). Nobody bidding or calling throws the deal in.

func (t *Table) checkBid(a Action) error {
	d := &t.d
	switch a.Type {
	case Pass:
		return nil
	case Bid:
		if t.rules.Rob {
			return refuse(a, ErrIllegal, "this table calls and robs; it does not bid points")
		}
		if a.Bid < 1 || a.Bid > 3 {
			return refuse(a, ErrBadAction, "a bid is 1, 2 or 3 points, not %d", a.Bid)
		}
		if a.Bid <= d.base {
			return refuse(a, ErrIllegal, "a bid must be higher than %d", d.base)
		}
		return nil
	case Call, Rob:
		if !t.rules.Rob {
			return refuse(a, ErrIllegal, "this table bids points; it does not call or rob")
		}
		if a.Type == Call && (d.hasBid || d.robBack) {
			return refuse(a, ErrIllegal, "the landlord is called already: rob or pass")
		}
		if a.Type == Rob && !d.hasBid {
			return refuse(a, ErrIllegal, "nobody called yet: call or pass")
		}
		return nil
	}
	return refuse(a, ErrPhase, "the bidding is on")
}

// bidOptions appends what the seat to act may do in the bidding.
func (t *Table) bidOptions(acts []Action) []Action {
	d := &t.d
	s := d.toAct
	switch {
	case !t.rules.Rob:
		for v := d.base + 1; v <= 3; v++ {
			acts = append(acts, Action{Seat: s, Type: Bid, Bid: v})
		}
	case d.hasBid:
		acts = append(acts, Action{Seat: s, Type: Rob})
	default:
		acts = append(acts, Action{Seat: s, Type: Call})
	}
	return append(acts, Action{Seat: s, Type: Pass})
}

func (t *Table) bid(a Action) {
	d := &t.d
	s := a.Seat
	switch a.Type {
	case Bid:
		d.base, d.bidder, d.hasBid = a.Bid, s, true
		d.bids[s] = int8(a.Bid)
	case Call:
		d.base, d.bidder, d.hasBid, d.caller = 1, s, true, s
	case Rob:
		d.base *= 2
		d.robs++
		d.bidder = s
	case Pass:
		if !t.rules.Rob {
			d.bids[s] = 0
		}
	}
	// Only a bid carries points: a pass, call or rob whose Bid field was
	// set anyway must not put that value into the public event.
	bid := 0
	if a.Type == Bid {
		bid = a.Bid
	}
	t.emit(Everyone, BidMade{Seat: s, Type: a.Type, Bid: bid, Base: d.base})
	if d.robBack {
		t.chooseLandlord()
		return
	}
	d.turns++
	switch {
	case a.Type == Bid && a.Bid == 3:
		t.chooseLandlord()
	case d.turns < NumSeats:
		d.toAct = s.Next()
	case !d.hasBid:
		t.throwIn()
	case t.rules.Rob && d.robs > 0:
		// Someone robbed after the first call: the caller may rob back.
		d.robBack = true
		d.toAct = d.caller
	default:
		t.chooseLandlord()
	}
}

func (t *Table) throwIn() {
	d := &t.d
	ev := ThrownIn{Index: t.index - 1, Seed: d.deck.Seed, Kitty: d.kitty.Counts()}
	for s := range ev.Hands {
		ev.Hands[s] = d.hands[s].Counts()
	}
	t.emit(Everyone, ev)
	t.phase = BetweenDeals
}

func (t *Table) chooseLandlord() {
	d := &t.d
	d.robBack = false
	d.landlord, d.hasLandlord = d.bidder, true
	d.shown = d.kitty.Counts()
	d.hands[d.landlord] |= d.kitty
	d.kitty = 0
	t.emit(Everyone, LandlordChosen{Seat: d.landlord, Kitty: d.shown, Base: d.base})
	d.toAct = d.landlord
	t.phase = Playing
}
