package table

import (
	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// checkTurn validates an action of the Turn phase.
func (t *Table) checkTurn(a Action) error {
	r := &t.r
	if a.Seat >= NumSeats || a.Seat != r.toAct {
		if a.Type == Deal {
			return refuse(a, ErrPhase, "a round is being played")
		}
		return refuse(a, ErrNotToAct, "seat %d is to act", r.toAct)
	}
	p := &r.seats[a.Seat]
	switch a.Type {
	case Discard, Riichi:
		return t.checkDiscard(a)
	case ClosedKan:
		return t.checkClosedKan(a)
	case AddedKan:
		return t.checkAddedKan(a)
	case Tsumo:
		if !r.hasDrawn || !r.tsumo {
			return refuse(a, ErrIllegal, "the hand does not win on the drawn tile")
		}
		return nil
	case NineTerminals:
		switch {
		case r.interrupted || len(p.pond) > 0 || !r.hasDrawn || r.drawnRinshan:
			return refuse(a, ErrIllegal, "not the seat's first uninterrupted turn")
		case yaochuKinds(&p.counts) < 9:
			return refuse(a, ErrIllegal, "fewer than nine kinds of terminals and honours")
		}
		return nil
	}
	return refuse(a, ErrPhase, "seat %d must discard, declare a kan or win", r.toAct)
}

func (t *Table) checkDiscard(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	x := a.Tile
	switch {
	case !x.Valid() || x.Kind() >= tile.NumKinds:
		return refuse(a, ErrBadAction, "no such tile")
	case !p.holds(x):
		return refuse(a, ErrIllegal, "%v is not in the hand", x)
	case a.Tsumogiri && (!r.hasDrawn || x != r.drawn):
		return refuse(a, ErrIllegal, "%v is not the tile just drawn", x)
	case p.riichi && (!r.hasDrawn || x != r.drawn):
		return refuse(a, ErrIllegal, "after riichi only the drawn tile may be discarded")
	case p.forbid.Has(x.Kind()):
		return refuse(a, ErrIllegal, "kuikae: %v may not be discarded right after this call", x.Kind())
	}
	if a.Type == Riichi {
		return t.checkRiichi(a)
	}
	return nil
}

func (t *Table) checkRiichi(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	switch {
	case p.riichi:
		return refuse(a, ErrIllegal, "already in riichi")
	case !p.closed():
		return refuse(a, ErrIllegal, "riichi needs a closed hand")
	case t.scores[a.Seat] < 1000:
		return refuse(a, ErrIllegal, "riichi needs 1000 points")
	case r.liveLeft() < 4:
		return refuse(a, ErrIllegal, "riichi needs four tiles left to draw")
	}
	c := p.counts
	c[a.Tile.Kind()]--
	if sh, _ := tenpai(p, &c); sh != 0 {
		return refuse(a, ErrIllegal, "the hand is not tenpai after discarding %v", a.Tile)
	}
	return nil
}

func (t *Table) checkClosedKan(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	k := a.Tile.Kind()
	switch {
	case !a.Tile.Valid() || k >= tile.NumKinds:
		return refuse(a, ErrBadAction, "no such tile")
	case !r.hasDrawn:
		return refuse(a, ErrIllegal, "a kan needs a draw first")
	case p.counts[k] < 4:
		return refuse(a, ErrIllegal, "the hand does not hold four %v", k)
	}
	if err := t.checkKanRoom(a); err != nil {
		return err
	}
	if p.riichi {
		if r.drawn.Kind() != k {
			return refuse(a, ErrIllegal, "after riichi only the drawn tile may make a closed kan")
		}
		if !riichiKanKeepsHand(p, k) {
			return refuse(a, ErrIllegal, "a kan of %v would change the waits or the reading of the riichi hand", k)
		}
	}
	return nil
}

func (t *Table) checkAddedKan(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	switch {
	case !a.Tile.Valid() || a.Tile.Kind() >= tile.NumKinds:
		return refuse(a, ErrBadAction, "no such tile")
	case !r.hasDrawn:
		return refuse(a, ErrIllegal, "a kan needs a draw first")
	case p.has(a.Tile) == 0:
		return refuse(a, ErrIllegal, "%v is not in the hand", a.Tile)
	case p.ponOf(a.Tile.Kind()) < 0:
		return refuse(a, ErrIllegal, "no pon of %v to add to", a.Tile.Kind())
	}
	return t.checkKanRoom(a)
}

func (t *Table) checkKanRoom(a Action) error {
	r := &t.r
	switch {
	case r.liveLeft() == 0:
		return refuse(a, ErrIllegal, "no kan once the live wall is empty")
	case r.kans >= 4:
		return refuse(a, ErrIllegal, "four kans already")
	}
	return nil
}

// ponOf returns the index of p's pon of kind k, or -1.
func (p *seatState) ponOf(k tile.Kind) int {
	for i, m := range p.melds {
		if m.Type == judge.Pon && m.Kind() == k {
			return i
		}
	}
	return -1
}

// riichiKanKeepsHand reports whether a riichi hand that drew the fourth k
// may declare a closed kan of it: the waits stay the same, and k is a
// triplet in every reading of the hand completed by any wait.
func riichiKanKeepsHand(p *seatState, k tile.Kind) bool {
	c13 := p.counts
	c13[k]--
	if c13[k] != 3 {
		return false
	}
	after := c13
	after[k] = 0
	// After the kan all four k are in it: the hand no longer waits on k,
	// whatever its shape says (tenpai counts only the melds already made).
	if _, w := tenpai(p, &after); w.Without(k) != p.waits {
		return false
	}
	for wk := range p.waits.All() {
		c := c13
		c[wk]++
		without := c
		without[k] -= 3
		if countReadings(&c, true) != countReadings(&without, true) {
			return false
		}
	}
	return true
}

// countReadings counts the distinct ways c splits into sets, plus one pair
// when pair is set. Every reading with a triplet of k maps to one reading
// of c without three k, so equal counts mean k is a triplet in every
// reading. The groups that start at the lowest kind are chosen together
// (a pair or not, a triplet or not, the rest runs), so each reading is
// counted once, whatever the order of its groups.
func countReadings(c *tile.Counts, pair bool) int {
	k := 0
	for k < tile.NumKinds && c[k] == 0 {
		k++
	}
	if k == tile.NumKinds {
		if pair {
			return 0
		}
		return 1
	}
	n := 0
	have := c[k]
	for pairs := uint8(0); pairs <= 1; pairs++ {
		if pairs == 1 && !pair {
			break
		}
		for trips := uint8(0); trips <= 1; trips++ {
			if 2*pairs+3*trips > have {
				continue
			}
			runs := have - 2*pairs - 3*trips
			if runs > 0 && (k >= 27 || k%9 > 6 || c[k+1] < runs || c[k+2] < runs) {
				continue
			}
			c[k] = 0
			if runs > 0 {
				c[k+1] -= runs
				c[k+2] -= runs
			}
			n += countReadings(c, pair && pairs == 0)
			c[k] = have
			if runs > 0 {
				c[k+1] += runs
				c[k+2] += runs
			}
		}
	}
	return n
}

func (t *Table) applyTurn(a Action) {
	s := a.Seat
	switch a.Type {
	case Discard, Riichi:
		t.discard(s, a)
	case ClosedKan:
		t.closedKan(s, a.Tile.Kind())
	case AddedKan:
		t.addedKan(s, a.Tile)
	case Tsumo:
		t.winTsumo(s)
	case NineTerminals:
		var hands [NumSeats][]tile.Tile
		hands[s] = append([]tile.Tile(nil), t.r.seats[s].hand...)
		t.abort(EndNineTerminals, hands)
	}
}

func (t *Table) discard(s Seat, a Action) {
	r := &t.r
	p := &r.seats[s]
	x := a.Tile
	riichi := a.Type == Riichi
	tsumogiri := a.Tsumogiri || p.riichi || (r.hasDrawn && x == r.drawn && p.has(x) == 1)
	// Discarding a copy of the tile just drawn gives back the hand the
	// cached waits were computed for: the judge need not run again.
	same := r.hasDrawn && x == r.drawn
	first := !r.interrupted && len(p.pond) == 0
	p.remove(x)
	p.pond = append(p.pond, DiscardView{Tile: x, Tsumogiri: tsumogiri, Riichi: riichi})
	k := x.Kind()
	p.discarded = p.discarded.With(k)
	if !k.IsYaochu() {
		p.nagashi = false
	}
	p.ippatsu = false // its next discard after riichi: the ippatsu chance is over
	p.tempFuriten = false
	p.forbid = 0
	r.hasDrawn, r.tsumo = false, false
	r.discards++
	if r.discards == 1 {
		r.firstWind = k
	} else if r.discards <= NumSeats && k != r.firstWind {
		r.firstWind = tile.NumKinds // not four of one wind
	}
	t.emit(Everyone, discardedBody(s, x, tsumogiri, riichi))
	t.revealPending()
	if !same {
		p.updateWaits()
	}
	t.emit(Only(s), t.fishingBody(Fishing{Seat: s, Shanten: p.shanten, Waits: p.waits, Furiten: p.furiten()}))
	r.riichiPending, r.riichiDouble = riichi, riichi && first
	t.openDiscardWindow(s, x)
}

func (t *Table) openDiscardWindow(s Seat, x tile.Tile) {
	r := &t.r
	fourthRiichi := r.riichiPending && t.riichiSeats() == 3
	ctx := claims.Context{
		Source: claims.Discard,
		From:   claims.Seat(s),
		Tile:   x,
		Calls:  r.liveLeft() > 0 && !r.fourKans && !fourthRiichi,
		Kan:    r.kans < 4,
	}
	t.openWindow(&ctx)
}

// riichiSeats counts the seats whose riichi is accepted.
func (t *Table) riichiSeats() int {
	n := 0
	for s := range t.r.seats {
		if t.r.seats[s].riichi {
			n++
		}
	}
	return n
}

// openWindow asks every other seat what it may claim and waits for the
// answers, or resolves at once when nobody may claim anything.
func (t *Table) openWindow(ctx *claims.Context) {
	r := &t.r
	r.src, r.claimTile, r.claimFrom = ctx.Source, ctx.Tile, Seat(ctx.From)
	// A quick filter on the seats' kind sets first: a seat may claim
	// ctx.Tile only when it waits on it, or, when calls are allowed, holds
	// two of its kind, or is the next seat and holds the rest of a run
	// with it. Only such seats are asked for their offers.
	k := ctx.Tile.Kind()
	calls := ctx.Source == claims.Discard && ctx.Calls
	next := Seat(ctx.From).Next()
	var offers [NumSeats]claims.Offer
	asked, offered := false, false
	for o := range r.seats {
		p := &r.seats[o]
		if Seat(o) == r.claimFrom {
			continue
		}
		call := calls && !p.riichi && (p.pairs.Has(k) || Seat(o) == next && p.chiKinds().Has(k))
		if !call && !p.waits.Has(k) {
			continue
		}
		cl := claims.Claimant{Hand: p.hand, Counts: &p.counts, Riichi: p.riichi, CanRon: t.canRon(Seat(o), ctx.Tile, ctx.Source)}
		offers[o] = claims.SeatOffer(ctx, claims.Seat(o), &cl)
		asked, offered = true, offered || offers[o].Len() > 0
	}
	if !asked {
		// The usual case: nobody waits on the tile or may call it. No
		// window opens (the window is read in the ClaimWindow phase only,
		// and by missedRon for seats that wait on the tile).
		t.settle(claims.Resolution{})
		return
	}
	r.window.Open(ctx.From, offers)
	if !offered {
		t.settle(claims.Resolution{})
		return
	}
	t.phase = ClaimWindow
	for o := range offers {
		if offers[o].Len() == 0 {
			continue
		}
		t.emit(Only(Seat(o)), ClaimOffer{Seat: Seat(o), Options: t.offerActions(Seat(o), &offers[o])})
	}
}

// canRon reports whether seat o may ron x now, keeping the judge's result.
func (t *Table) canRon(o Seat, x tile.Tile, src claims.Source) bool {
	r := &t.r
	p := &r.seats[o]
	if !p.waits.Has(x.Kind()) || p.furiten() {
		return false
	}
	res := t.score(o, x, false, src == claims.AddedKan, t.honba, t.sticks)
	if !res.Win || (src == claims.ClosedKan && !hasYaku(&res, judge.Kokushi, judge.Kokushi13)) {
		return false
	}
	r.ronRes[o] = res
	return true
}

func hasYaku(res *judge.Result, ys ...judge.Yaku) bool {
	for _, yh := range res.Yaku() {
		for _, y := range ys {
			if yh.Yaku == y {
				return true
			}
		}
	}
	return false
}

func (t *Table) closedKan(s Seat, k tile.Kind) {
	r := &t.r
	p := &r.seats[s]
	m := Meld{Meld: judge.Meld{Type: judge.ClosedKan}, From: s}
	n := 0
	for i := 0; i < len(p.hand); {
		if p.hand[i].Kind() == k {
			m.Tiles[n] = p.hand[i]
			n++
			p.remove(p.hand[i])
			continue
		}
		i++
	}
	sortTiles(m.Tiles[:])
	m.Called = m.Tiles[3]
	p.addMeld(m)
	t.declareKan(s, m)
	t.revealDora()
	t.openWindow(&claims.Context{Source: claims.ClosedKan, From: claims.Seat(s), Tile: m.Called})
}

func (t *Table) addedKan(s Seat, x tile.Tile) {
	r := &t.r
	p := &r.seats[s]
	i := p.ponOf(x.Kind())
	p.remove(x)
	m := p.melds[i]
	m.Type = judge.AddedKan
	m.Tiles[3] = x
	sortTiles(m.Tiles[:])
	m.Added = x
	p.melds[i], p.jmelds[i] = m, m.Meld
	t.declareKan(s, m)
	r.pending++
	t.openWindow(&claims.Context{Source: claims.AddedKan, From: claims.Seat(s), Tile: x})
}

// declareKan is what every kan does: the count, the end of first-turn
// specials, the kan event, the indicators still waiting from an earlier
// kan, the four-kan check and the new waits.
func (t *Table) declareKan(s Seat, m Meld) {
	r := &t.r
	p := &r.seats[s]
	r.hasDrawn, r.tsumo = false, false
	r.kans++
	r.kansBy[s]++
	r.interrupted = true
	t.emit(Everyone, Called{Seat: s, Meld: m, Scores: t.scores})
	t.revealPending()
	if r.kans == 4 && r.kansBy[s] < 4 {
		r.fourKans = true
	}
	p.updateWaits()
}

// afterKan continues a kan nobody robbed: ippatsu is over for everyone and
// the kan player draws a replacement tile.
func (t *Table) afterKan(s Seat) {
	t.breakIppatsu()
	t.draw(s, true)
}

func (t *Table) breakIppatsu() {
	for i := range t.r.seats {
		t.r.seats[i].ippatsu = false
	}
}

// offerActions returns the actions of seat s's offer and Pass, cut from a
// block the table never writes again behind them (no spare room either),
// so the ClaimOffer event may carry them.
func (t *Table) offerActions(s Seat, offer *claims.Offer) []Action {
	n := offer.Len() + 1
	if len(t.acts)+n > cap(t.acts) {
		t.acts = make([]Action, 0, max(actBlock, n))
	}
	start := len(t.acts)
	for _, opt := range offer.Options() {
		t.acts = append(t.acts, t.optionAction(s, opt))
	}
	t.acts = append(t.acts, Action{Seat: s, Type: Pass})
	return t.acts[start:len(t.acts):len(t.acts)]
}

// optionAction is the Action that answers with opt.
func (t *Table) optionAction(s Seat, opt claims.Option) Action {
	a := Action{Seat: s}
	switch opt.Call {
	case claims.Pass:
		a.Type = Pass
	case claims.Ron:
		a.Type = Ron
		a.Tile = t.r.claimTile
	case claims.Chi:
		a.Type = Chi
		a.Tiles = [2]tile.Tile{opt.Tiles[0], opt.Tiles[1]}
	case claims.Pon:
		a.Type = Pon
		a.Tiles = [2]tile.Tile{opt.Tiles[0], opt.Tiles[1]}
	case claims.OpenKan:
		a.Type = OpenKan
		a.Tile = t.r.claimTile
	}
	return a
}
