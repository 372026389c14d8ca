package mcr

import (
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// startTurn gives s the turn with x as the tile it drew; afterKan when x
// replaced its kong.
func (t *Table) startTurn(s Seat, x tile.Tile, afterKan bool) {
	r := &t.r
	p := &r.seats[s]
	r.toAct, r.drawn, r.hasDrawn, r.afterKan = s, x, true, afterKan
	t.phase = Turn
	r.tsumo = false
	if p.waits.Has(x.Kind()) {
		r.tsumoWin, r.tsumo = t.winOn(s, x, situation{tsumo: true, rinshan: afterKan, last: r.wallLeft() == 0})
	}
}

// draw gives s the next tile of the wall (from the back for a kong's
// replacement), setting aside every flower it draws and replacing it from
// the back; it ends the hand when the wall runs out.
func (t *Table) draw(s Seat, afterKan bool) {
	r := &t.r
	back := afterKan
	for {
		if r.wallLeft() == 0 {
			t.endHand(EndWallEmpty)
			return
		}
		var x tile.Tile
		if back {
			x = r.wall.Tiles[wall.Back144Pos(r.back)]
			r.back++
		} else {
			x = r.wall.Tiles[r.front]
			r.front++
		}
		left := r.wallLeft()
		t.emit(Everyone, drewBody(s, 0, false, back, left))
		t.emit(Only(s), drewBody(s, x, true, back, left))
		if !isFlower(x) {
			r.seats[s].add(x)
			t.startTurn(s, x, afterKan)
			return
		}
		t.setAside(s, x)
		// A flower's replacement is a plain self-draw, not a kong's.
		back, afterKan = true, false
	}
}

// checkTurn validates an action of the Turn phase.
func (t *Table) checkTurn(a Action) error {
	r := &t.r
	if a.Seat != r.toAct {
		if a.Type == Deal {
			return refuse(a, ErrPhase, "a hand is being played")
		}
		return refuse(a, ErrNotToAct, "seat %d is to act", r.toAct)
	}
	p := &r.seats[a.Seat]
	switch a.Type {
	case Discard:
		x := a.Tile
		switch {
		case !playing(x):
			return refuse(a, ErrBadAction, "no such tile")
		case p.has(x) == 0:
			return refuse(a, ErrIllegal, "%v is not in the hand", x)
		}
		return nil
	case ClosedKan, AddedKan:
		return t.checkKan(a)
	case Tsumo:
		if !r.hasDrawn || !r.tsumo {
			return refuse(a, ErrIllegal, "the hand does not win on the drawn tile with %d fans", minimumFan)
		}
		return nil
	}
	return refuse(a, ErrPhase, "seat %d must discard, declare a kong or win", r.toAct)
}

// playing reports whether x is one of the 34 playing kinds, not red.
func playing(x tile.Tile) bool { return !x.Red() && x.Kind() < tile.NumKinds }

func (t *Table) checkKan(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	x := a.Tile
	switch {
	case !playing(x):
		return refuse(a, ErrBadAction, "no such tile")
	case !r.hasDrawn:
		return refuse(a, ErrIllegal, "a kong needs a draw first")
	case r.wallLeft() == 0:
		return refuse(a, ErrIllegal, "no kong with no tile left to replace it")
	case a.Type == ClosedKan && p.has(x) < 4:
		return refuse(a, ErrIllegal, "the hand does not hold four %v", x)
	case a.Type == AddedKan && p.has(x) == 0:
		return refuse(a, ErrIllegal, "%v is not in the hand", x)
	case a.Type == AddedKan && p.ponOf(x.Kind()) < 0:
		return refuse(a, ErrIllegal, "no pung of %v to add to", x)
	}
	return nil
}

func (t *Table) applyTurn(a Action) {
	switch a.Type {
	case Discard:
		t.discard(a.Seat, a.Tile)
	case ClosedKan:
		t.closedKan(a.Seat, a.Tile)
	case AddedKan:
		t.addedKan(a.Seat, a.Tile)
	case Tsumo:
		t.winTsumo(a.Seat)
	}
}

func (t *Table) discard(s Seat, x tile.Tile) {
	r := &t.r
	p := &r.seats[s]
	// Discarding the tile just drawn gives back the hand the cached waits
	// were computed for: the judge need not run again.
	same := r.hasDrawn && x == r.drawn
	p.remove(x)
	p.pond = append(p.pond, DiscardView{Tile: x})
	r.hasDrawn, r.tsumo, r.afterKan = false, false, false
	t.emit(Everyone, discardedBody(s, x))
	if !same {
		t.updateWaits(s)
	}
	t.openWindow(s, x, false)
}

// openWindow asks every other seat what it may claim of x, discarded by s
// or added to a kong by s (robbing), and waits for the answers, or goes on
// at once when nobody may claim anything. Only a win may claim the last
// discard or a kong being added; no kong is offered without a tile left
// to replace it.
func (t *Table) openWindow(s Seat, x tile.Tile, robbing bool) {
	r := &t.r
	r.claimTile, r.claimFrom, r.robbing = x, s, robbing
	r.offered, r.answered, r.pending = [NumSeats]uint8{}, [NumSeats]Action{}, 0
	k := x.Kind()
	left := r.wallLeft()
	calls := !robbing && left > 0
	chiSeat := r.next(s)
	for o := r.next(s); o != s; o = r.next(o) {
		p := &r.seats[o]
		var bits uint8
		if p.waits.Has(k) {
			sit := situation{chankan: robbing, last: !robbing && left == 0}
			if w, ok := t.winOn(o, x, sit); ok {
				r.ronWin[o], bits = w, offerRon
			}
		}
		if calls {
			if p.counts[k] >= 2 {
				bits |= offerPon
			}
			if p.counts[k] == 3 {
				bits |= offerKan
			}
			if o == chiSeat {
				bits |= chiBits(&p.counts, k)
			}
		}
		if bits != 0 {
			r.offered[o] = bits
			r.pending++
		}
	}
	if r.pending == 0 {
		t.resolve()
		return
	}
	t.phase = ClaimWindow
	for o := r.next(s); o != s; o = r.next(o) {
		if r.offered[o] != 0 {
			t.emit(Only(o), ClaimOffer{Seat: o, Options: t.offerActions(o)})
		}
	}
}

// chiBits are the runs the hand c can make with a discard of kind k.
func chiBits(c *tile.Counts, k tile.Kind) uint8 {
	if k >= 27 {
		return 0
	}
	n := k % 9
	var bits uint8
	if n <= 6 && c[k+1] > 0 && c[k+2] > 0 {
		bits |= offerChiLow
	}
	if n >= 1 && n <= 7 && c[k-1] > 0 && c[k+1] > 0 {
		bits |= offerChiMid
	}
	if n >= 2 && c[k-2] > 0 && c[k-1] > 0 {
		bits |= offerChiHigh
	}
	return bits
}

// offerActions returns seat o's options and Pass, cut from a block the
// table never writes again behind them.
func (t *Table) offerActions(o Seat) []Action {
	if len(t.acts)+7 > cap(t.acts) {
		t.acts = make([]Action, 0, actBlock)
	}
	start := len(t.acts)
	t.acts = t.appendOffer(t.acts, o)
	return t.acts[start:len(t.acts):len(t.acts)]
}

func (t *Table) appendOffer(dst []Action, o Seat) []Action {
	r := &t.r
	bits, x := r.offered[o], r.claimTile
	k := x.Kind()
	if bits&offerRon != 0 {
		dst = append(dst, Action{Seat: o, Type: Ron, Tile: x})
	}
	if bits&offerPon != 0 {
		dst = append(dst, Action{Seat: o, Type: Pon, Tile: x})
	}
	if bits&offerKan != 0 {
		dst = append(dst, Action{Seat: o, Type: OpenKan, Tile: x})
	}
	if bits&offerChiHigh != 0 {
		dst = append(dst, Action{Seat: o, Type: Chi, Tile: x, Run: k - 2})
	}
	if bits&offerChiMid != 0 {
		dst = append(dst, Action{Seat: o, Type: Chi, Tile: x, Run: k - 1})
	}
	if bits&offerChiLow != 0 {
		dst = append(dst, Action{Seat: o, Type: Chi, Tile: x, Run: k})
	}
	return append(dst, Action{Seat: o, Type: Pass})
}

// chiBit is the offer bit of a chi of the claim tile into the run from
// low, or 0 when no such run holds it.
func chiBit(k, low tile.Kind) uint8 {
	switch {
	case low == k:
		return offerChiLow
	case low+1 == k:
		return offerChiMid
	case low+2 == k:
		return offerChiHigh
	}
	return 0
}

func (t *Table) checkAnswer(a Action) error {
	r := &t.r
	var bit uint8
	switch a.Type {
	case Pass:
	case Ron:
		bit = offerRon
	case Pon:
		bit = offerPon
	case OpenKan:
		bit = offerKan
	case Chi:
		if bit = chiBit(r.claimTile.Kind(), a.Run); bit == 0 {
			return refuse(a, ErrIllegal, "the run from %v does not hold %v", a.Run, r.claimTile)
		}
	case Deal:
		return refuse(a, ErrPhase, "a hand is being played")
	default:
		return refuse(a, ErrPhase, "a claim window is open: answer with ron, pon, open_kan, chi or pass")
	}
	switch {
	case a.Seat >= NumSeats || r.offered[a.Seat] == 0:
		return refuse(a, ErrNotToAct, "seat %d has nothing to answer", a.Seat)
	case r.answered[a.Seat].Type != 0:
		return refuse(a, ErrNotToAct, "seat %d already answered", a.Seat)
	case r.offered[a.Seat]&bit != bit:
		return refuse(a, ErrIllegal, "%v was not offered", a.Type)
	}
	return nil
}

func (t *Table) answer(a Action) {
	r := &t.r
	r.answered[a.Seat] = Action{Seat: a.Seat, Type: a.Type, Tile: r.claimTile, Run: a.Run}
	r.pending--
	if r.pending == 0 {
		t.resolve()
	}
}

// resolve ends the claim window: the first seat in turn order from the
// discarder that wins takes the tile alone (head bump); else a pung or
// kong, else a chi; else play goes on.
func (t *Table) resolve() {
	r := &t.r
	var call *Action
	for o := r.next(r.claimFrom); o != r.claimFrom; o = r.next(o) {
		a := &r.answered[o]
		switch a.Type {
		case Ron:
			t.winClaim(o)
			return
		case Pon, OpenKan:
			call = a
		case Chi:
			if call == nil {
				call = a
			}
		}
	}
	from := r.claimFrom
	switch {
	case r.robbing:
		t.draw(from, true)
	case call != nil:
		t.call(*call)
	case r.wallLeft() == 0:
		t.endHand(EndWallEmpty)
	default:
		t.draw(r.next(from), false)
	}
}

// call makes the chi, pung or open kong of the discard.
func (t *Table) call(a Action) {
	r := &t.r
	s := a.Seat
	p := &r.seats[s]
	x, from := r.claimTile, r.claimFrom
	d := &r.seats[from]
	d.pond[len(d.pond)-1].Called = true
	k := x.Kind()
	m := Meld{Kind: k, Called: k, From: from}
	switch a.Type {
	case Chi:
		m.Type, m.Kind = MeldChi, a.Run
		for j := a.Run; j < a.Run+3; j++ {
			if j != k {
				p.remove(tile.Plain(j))
			}
		}
	case Pon:
		m.Type = MeldPon
		p.remove(x)
		p.remove(x)
	case OpenKan:
		m.Type = MeldOpenKan
		p.remove(x)
		p.remove(x)
		p.remove(x)
	}
	p.melds = append(p.melds, m)
	t.emit(Everyone, Called{Seat: s, Meld: m})
	if m.Type == MeldOpenKan {
		t.updateWaits(s)
		t.draw(s, true)
		return
	}
	r.toAct, r.hasDrawn, r.tsumo, r.afterKan = s, false, false, false
	t.phase = Turn
}

func (t *Table) closedKan(s Seat, x tile.Tile) {
	p := &t.r.seats[s]
	for range 4 {
		p.remove(x)
	}
	k := x.Kind()
	m := Meld{Type: MeldClosedKan, Kind: k, Called: k, From: s}
	p.melds = append(p.melds, m)
	t.r.hasDrawn, t.r.tsumo = false, false
	t.emit(Everyone, Called{Seat: s, Meld: Meld{Type: MeldClosedKan, From: s, Hidden: true}})
	t.emit(Only(s), Called{Seat: s, Meld: m})
	t.updateWaits(s)
	t.draw(s, true)
}

func (t *Table) addedKan(s Seat, x tile.Tile) {
	p := &t.r.seats[s]
	i := p.ponOf(x.Kind())
	p.remove(x)
	p.melds[i].Type = MeldAddedKan
	t.r.hasDrawn, t.r.tsumo = false, false
	t.emit(Everyone, Called{Seat: s, Meld: p.melds[i]})
	t.updateWaits(s)
	t.openWindow(s, x, true)
}
