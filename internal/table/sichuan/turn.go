package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// startTurn gives s the turn with x as the tile it drew.
func (t *Table) startTurn(s Seat, x tile.Tile, replacement bool) {
	r := &t.r
	p := &r.seats[s]
	r.toAct, r.drawn, r.hasDrawn, r.replacement = s, x, true, replacement
	p.passLock = false
	if !replacement {
		// Only the discard after a kan's replacement tile is 杠上炮: a
		// seat that won on that tile (血流成河) and drew again is past it.
		p.afterKan = false
	}
	t.phase = Turn
	r.tsumo = false
	if p.waits.Has(x.Kind()) {
		r.tsumoWin, r.tsumo = t.winOn(s, x, situation{tsumo: true, rinshan: replacement, last: r.liveLeft() == 0})
	}
}

// draw gives s the next tile of the wall, or ends the hand when none is
// left.
func (t *Table) draw(s Seat, replacement bool) {
	r := &t.r
	if r.liveLeft() == 0 {
		t.endHand(EndWallEmpty)
		return
	}
	x := r.wall.Tiles[LivePos(r.next)]
	r.next++
	r.seats[s].add(x)
	left := r.liveLeft()
	t.emit(Everyone, drewBody(s, 0, false, replacement, left))
	t.emit(Only(s), drewBody(s, x, true, replacement, left))
	t.startTurn(s, x, replacement)
}

// locked reports whether p may only win or discard its drawn tile: a
// winner that stays in play (血流成河) keeps its hand as it won.
func (t *Table) locked(p *seatState) bool { return p.wins > 0 }

// checkTurn validates an action of the Turn phase.
func (t *Table) checkTurn(a Action) error {
	r := &t.r
	if a.Seat != r.toAct {
		switch a.Type {
		case Deal:
			return refuse(a, ErrPhase, "a hand is being played")
		case Exchange, Void:
			return refuse(a, ErrPhase, "play has started")
		}
		return refuse(a, ErrNotToAct, "seat %d is to act", r.toAct)
	}
	p := &r.seats[a.Seat]
	switch a.Type {
	case Discard:
		x := a.Tile
		switch {
		case !suited(x):
			return refuse(a, ErrBadAction, "no such tile")
		case p.has(x) == 0:
			return refuse(a, ErrIllegal, "%v is not in the hand", x)
		case t.locked(p) && (!r.hasDrawn || x != r.drawn):
			return refuse(a, ErrIllegal, "after a win only the drawn tile may be discarded")
		case t.rules.VoidFirst && !p.isVoid(x) && p.voidTiles() > 0:
			return refuse(a, ErrIllegal, "tiles of the void suit %v go first", p.void)
		}
		return nil
	case ClosedKan, AddedKan:
		return t.checkKan(a)
	case Tsumo:
		if !r.hasDrawn || !r.tsumo {
			return refuse(a, ErrIllegal, "the hand does not win on the drawn tile")
		}
		return nil
	}
	return refuse(a, ErrPhase, "seat %d must discard, declare a kan or win", r.toAct)
}

func (t *Table) checkKan(a Action) error {
	r := &t.r
	p := &r.seats[a.Seat]
	x := a.Tile
	switch {
	case !suited(x):
		return refuse(a, ErrBadAction, "no such tile")
	case !r.hasDrawn:
		return refuse(a, ErrIllegal, "a kan needs a draw first")
	case t.locked(p):
		return refuse(a, ErrIllegal, "no kan after a win")
	case p.isVoid(x):
		return refuse(a, ErrIllegal, "no kan of the void suit %v", p.void)
	case r.liveLeft() == 0:
		return refuse(a, ErrIllegal, "no kan with no tile left to replace it")
	case a.Type == ClosedKan && p.has(x) < 4:
		return refuse(a, ErrIllegal, "the hand does not hold four %v", x)
	case a.Type == AddedKan && p.has(x) == 0:
		return refuse(a, ErrIllegal, "%v is not in the hand", x)
	case a.Type == AddedKan && p.ponOf(x.Kind()) < 0:
		return refuse(a, ErrIllegal, "no pon of %v to add to", x)
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
	r.hasDrawn, r.tsumo = false, false
	t.emit(Everyone, discardedBody(s, x))
	if !same {
		t.updateWaits(s)
	}
	t.openWindow(s, x, false)
}

// openWindow asks every other seat still in play what it may claim of x,
// discarded by s or added to a kan by s (robbing), and waits for the
// answers, or goes on at once when nobody may claim anything.
func (t *Table) openWindow(s Seat, x tile.Tile, robbing bool) {
	r := &t.r
	r.claimTile, r.claimFrom, r.robbing = x, s, robbing
	r.offered, r.answered, r.pending = [NumSeats]uint8{}, [NumSeats]ActionType{}, 0
	k := x.Kind()
	calls := !robbing && r.liveLeft() > 0
	last := r.liveLeft() == 0
	for o := s.Next(); o != s; o = o.Next() {
		p := &r.seats[o]
		if !r.inPlay(o) || p.isVoid(x) {
			continue
		}
		var bits uint8
		if p.waits.Has(k) && (robbing || !t.rules.PassLock || !p.passLock) {
			sit := situation{chankan: robbing, afterKan: !robbing && r.seats[s].afterKan, last: !robbing && last}
			if w, ok := t.winOn(o, x, sit); ok {
				r.ronWin[o], bits = w, offerRon
			}
		}
		if calls && !t.locked(p) {
			if p.counts[k] >= 2 {
				bits |= offerPon
			}
			if p.counts[k] == 3 {
				bits |= offerKan
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
	for o := s.Next(); o != s; o = o.Next() {
		if r.offered[o] != 0 {
			t.emit(Only(o), ClaimOffer{Seat: o, Options: t.offerActions(o)})
		}
	}
}

// offerActions returns seat o's options and Pass, cut from a block the
// table never writes again behind them.
func (t *Table) offerActions(o Seat) []Action {
	if len(t.acts)+4 > cap(t.acts) {
		t.acts = make([]Action, 0, actBlock)
	}
	start := len(t.acts)
	t.acts = t.appendOffer(t.acts, o)
	return t.acts[start:len(t.acts):len(t.acts)]
}

func (t *Table) appendOffer(dst []Action, o Seat) []Action {
	r := &t.r
	bits, x := r.offered[o], r.claimTile
	if bits&offerRon != 0 {
		dst = append(dst, Action{Seat: o, Type: Ron, Tile: x})
	}
	if bits&offerPon != 0 {
		dst = append(dst, Action{Seat: o, Type: Pon, Tile: x})
	}
	if bits&offerKan != 0 {
		dst = append(dst, Action{Seat: o, Type: OpenKan, Tile: x})
	}
	return append(dst, Action{Seat: o, Type: Pass})
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
	case Deal:
		return refuse(a, ErrPhase, "a hand is being played")
	default:
		return refuse(a, ErrPhase, "a claim window is open: answer with ron, pon, open_kan or pass")
	}
	switch {
	case a.Seat >= NumSeats || r.offered[a.Seat] == 0:
		return refuse(a, ErrNotToAct, "seat %d has nothing to answer", a.Seat)
	case r.answered[a.Seat] != 0:
		return refuse(a, ErrNotToAct, "seat %d already answered", a.Seat)
	case r.offered[a.Seat]&bit != bit:
		return refuse(a, ErrIllegal, "%v was not offered", a.Type)
	}
	return nil
}

func (t *Table) answer(a Action) {
	r := &t.r
	r.answered[a.Seat] = a.Type
	r.pending--
	if r.pending == 0 {
		t.resolve()
	}
}

// resolve ends the claim window: wins (any number, in turn order from the
// discarder), a pon or a kan, or play goes on.
func (t *Table) resolve() {
	r := &t.r
	var rons [NumSeats - 1]Seat
	n := 0
	var caller Seat
	var call ActionType
	for o := r.claimFrom.Next(); o != r.claimFrom; o = o.Next() {
		switch r.answered[o] {
		case Ron:
			rons[n] = o
			n++
		case Pon, OpenKan:
			caller, call = o, r.answered[o]
		}
		if r.offered[o]&offerRon != 0 && r.answered[o] != Ron && t.rules.PassLock {
			r.seats[o].passLock = true
		}
	}
	from := r.claimFrom
	switch {
	case n > 0:
		t.winClaim(rons[:n])
	case r.robbing:
		t.payKan(from, MeldAddedKan)
		t.draw(from, true)
	case call != 0:
		t.call(caller, call)
	default:
		r.seats[from].afterKan = false
		t.draw(r.nextInPlay(from), false)
	}
}

// call makes the pon or open kan of the discard.
func (t *Table) call(s Seat, typ ActionType) {
	r := &t.r
	p := &r.seats[s]
	x, from := r.claimTile, r.claimFrom
	r.seats[from].afterKan = false
	d := &r.seats[from]
	d.pond[len(d.pond)-1].Called = true
	m := Meld{Type: MeldPon, Kind: x.Kind(), From: from}
	n := 2
	if typ == OpenKan {
		m.Type, n = MeldOpenKan, 3
	}
	for range n {
		p.remove(x)
	}
	p.melds = append(p.melds, m)
	t.emit(Everyone, Called{Seat: s, Meld: m})
	if m.Type == MeldOpenKan {
		t.updateWaits(s)
		t.payKan(s, MeldOpenKan)
		t.draw(s, true)
		return
	}
	r.toAct, r.hasDrawn, r.tsumo, r.replacement = s, false, false, false
	t.phase = Turn
}

func (t *Table) closedKan(s Seat, x tile.Tile) {
	p := &t.r.seats[s]
	for range 4 {
		p.remove(x)
	}
	m := Meld{Type: MeldClosedKan, Kind: x.Kind(), From: s}
	p.melds = append(p.melds, m)
	t.r.hasDrawn, t.r.tsumo = false, false
	t.emit(Everyone, Called{Seat: s, Meld: m})
	t.updateWaits(s)
	t.payKan(s, MeldClosedKan)
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

// Kan money: units from each payer.
const (
	openKanUnits   = 2 // from the discarder
	addedKanUnits  = 1 // from each seat still in play
	closedKanUnits = 2 // from each seat still in play
)

// payKan collects the money of s's kan at once and keeps it as the kan
// 呼叫转移 would move.
func (t *Table) payKan(s Seat, typ MeldType) {
	r := &t.r
	p := &r.seats[s]
	var d [NumSeats]int
	switch typ {
	case MeldOpenKan:
		d[r.claimFrom] = -openKanUnits
	default:
		units := closedKanUnits
		if typ == MeldAddedKan {
			units = addedKanUnits
		}
		for o := range Seat(NumSeats) {
			if o != s && r.inPlay(o) {
				d[o] = -units
			}
		}
	}
	total := 0
	for o := range d {
		p.kanIn[o] -= d[o]
		total -= d[o]
		t.scores[o] += d[o]
	}
	t.scores[s] += total
	d[s] = total
	p.lastKan, p.afterKan = total, true
	p.lastKanFrom = [NumSeats]int{}
	for o := range d {
		if Seat(o) != s {
			p.lastKanFrom[o] = -d[o]
		}
	}
	t.emit(Everyone, KanPaid{Seat: s, Type: typ, Deltas: d, Scores: t.scores})
}
