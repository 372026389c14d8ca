package classical

import (
	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// playing reports whether x is one of the 34 playing kinds, not red.
func playing(x tile.Tile) bool { return !x.Red() && x.Kind() < tile.NumKinds }

func (t *Table) checkTurn(a Action) error {
	r := &t.r
	switch a.Type {
	case Deal:
		return refuse(a, ErrPhase, "a hand is being played")
	case Discard, Fish, ConcealedKong, AddedKong, MahJong:
	case Chow, Pung, Kong, Pass:
		return refuse(a, ErrPhase, "no claim window is open")
	default:
		return refuse(a, ErrBadAction, "no action type %d", a.Type)
	}
	if a.Seat >= NumSeats {
		return refuse(a, ErrBadAction, "no seat %d", a.Seat)
	}
	if a.Seat != r.toAct {
		return refuse(a, ErrNotToAct, "seat %d is to act", r.toAct)
	}
	p := &r.seats[a.Seat]
	switch a.Type {
	case Discard:
		if !playing(a.Tile) {
			return refuse(a, ErrBadAction, "no such tile")
		}
		if p.counts[a.Tile.Kind()] == 0 {
			return refuse(a, ErrIllegal, "the hand holds no %v", a.Tile)
		}
	case Fish:
		if p.fishing {
			return refuse(a, ErrIllegal, "already announced")
		}
		if !t.turnAnswers().fish {
			return refuse(a, ErrIllegal, "no discard leaves the hand one tile from Mah Jong")
		}
	case ConcealedKong:
		if !playing(a.Tile) {
			return refuse(a, ErrBadAction, "no such tile")
		}
		if p.counts[a.Tile.Kind()] != 4 {
			return refuse(a, ErrIllegal, "the hand does not hold four %v", a.Tile)
		}
		if r.remaining() == 0 {
			return refuse(a, ErrIllegal, "no tile left to replace a kong")
		}
	case AddedKong:
		if !playing(a.Tile) {
			return refuse(a, ErrBadAction, "no such tile")
		}
		if p.counts[a.Tile.Kind()] == 0 || p.pungOf(a.Tile.Kind()) < 0 {
			return refuse(a, ErrIllegal, "no exposed pung of %v with its fourth tile in hand", a.Tile)
		}
		if r.remaining() == 0 {
			return refuse(a, ErrIllegal, "no tile left to replace a kong")
		}
	case MahJong:
		if !r.hasDrawn {
			return refuse(a, ErrIllegal, "nothing drawn to go out on")
		}
		if !t.turnAnswers().win {
			return refuse(a, ErrIllegal, "the hand is not complete")
		}
	}
	return nil
}

// owned is how many tiles of kind k seat p holds, concealed or melded.
func (p *seatState) owned(k tile.Kind) int {
	n := int(p.counts[k])
	for _, m := range p.melds {
		switch {
		case m.Type == MeldChow && k >= m.Kind && k <= m.Kind+2:
			n++
		case m.Type != MeldChow && m.Kind == k:
			n += m.Len()
		}
	}
	return n
}

// pungOf returns the index of p's exposed pung of kind k, or -1.
func (p *seatState) pungOf(k tile.Kind) int {
	for i, m := range p.melds {
		if m.Type == MeldPung && m.Kind == k {
			return i
		}
	}
	return -1
}

// judgeHand is seat p's hand for the judge: its concealed tiles, melds and
// bonus tiles. melds is the room for the judge's melds.
func judgeHand(p *seatState, melds *[4]jc.Meld) jc.Hand {
	h := jc.Hand{Concealed: p.counts, Melds: melds[:len(p.melds)], Bonus: jc.BonusOf(p.bonus)}
	for i, m := range p.melds {
		melds[i] = jc.Meld{Type: m.Type, Kind: m.Kind}
	}
	return h
}

// canFish reports whether seat s, in its turn, has a discard that leaves
// its hand one tile from Mah Jong.
func (t *Table) canFish(s Seat) bool {
	p := &t.r.seats[s]
	var ms [4]jc.Meld
	h := judgeHand(p, &ms)
	if jc.Shanten(&h) > 0 {
		return false
	}
	for k := range tile.Kind(tile.NumKinds) {
		if h.Concealed[k] == 0 {
			continue
		}
		h.Concealed[k]--
		w := jc.Waits(&h)
		h.Concealed[k]++
		for x := range w.All() {
			if p.owned(x) < 4 {
				return true
			}
		}
	}
	return false
}

// waits returns the kinds that complete seat s's hand (between its
// turns), from the cache when it is fresh.
func (t *Table) waits(s Seat) tile.KindSet {
	p := &t.r.seats[s]
	if !p.fresh {
		var ms [4]jc.Meld
		h := judgeHand(p, &ms)
		p.waits, p.fresh = jc.Waits(&h), true
	}
	return p.waits
}

type turnAnswers struct{ win, fish bool }

// turnAnswers asks the judge, once a turn, whether the seat to act may go
// out on its drawn tile and whether it may announce fishing.
func (t *Table) turnAnswers() turnAnswers {
	r := &t.r
	if !r.turnFresh {
		s := r.toAct
		r.turnWin = r.hasDrawn && t.selfDrawnWin(s)
		r.turnFish = !r.seats[s].fishing && t.canFish(s)
		r.turnFresh = true
	}
	return turnAnswers{r.turnWin, r.turnFish}
}

// selfDrawnWin reports whether seat s, to act with a drawn tile, holds a
// complete hand.
func (t *Table) selfDrawnWin(s Seat) bool {
	res := t.score(s, t.r.drawn.Kind(), true, false)
	return res.Win
}

// score is the judge's score of seat s going out on kind win.
func (t *Table) score(s Seat, win tile.Kind, selfDrawn, robbed bool) jc.Result {
	r := &t.r
	p := &r.seats[s]
	var ms [4]jc.Meld
	h := judgeHand(p, &ms)
	if selfDrawn {
		if h.Concealed[win] == 0 {
			return jc.Result{}
		}
		h.Concealed[win]--
	}
	sit := jc.Situation{
		Tsumo:        selfDrawn,
		Rinshan:      selfDrawn && r.kongDraw,
		Chankan:      robbed,
		Haitei:       selfDrawn && r.lastLive,
		Houtei:       !selfDrawn && !robbed && r.liveLeft() == 0,
		OriginalCall: r.original[s],
		SeatWind:     windOf(s, t.dealer),
		RoundWind:    t.round,
	}
	return jc.Score(&h, win, &sit, &t.jrules)
}

func (t *Table) applyTurn(a Action) {
	r := &t.r
	s := a.Seat
	p := &r.seats[s]
	switch a.Type {
	case Discard:
		t.discard(s, a.Tile)
	case Fish:
		p.fishing, r.turnFish = true, false
		r.original[s] = p.turns == 0 && !r.calls
		t.emit(Everyone, Fishing{Seat: s, Original: r.original[s]})
	case ConcealedKong:
		k := a.Tile.Kind()
		for range 4 {
			p.remove(tile.Plain(k))
		}
		m := Meld{Type: MeldConcealedKong, Kind: k, From: s}
		p.melds = append(p.melds, m)
		r.calls = true
		t.emit(Everyone, Called{Seat: s, Meld: m})
		t.drawBack(s, true)
	case AddedKong:
		// The kong is shown at once; a seat that robs it takes the tile
		// and the pung stays a pung.
		p.remove(a.Tile)
		i := p.pungOf(a.Tile.Kind())
		p.melds[i].Type = MeldKong
		r.hasDrawn = false
		r.calls = true
		t.emit(Everyone, Called{Seat: s, Meld: p.melds[i]})
		t.openWindow(s, a.Tile, true)
	case MahJong:
		t.win(s, s, r.drawn, true, false)
	}
}

func (t *Table) discard(s Seat, x tile.Tile) {
	r := &t.r
	p := &r.seats[s]
	p.remove(x)
	p.pond = append(p.pond, DiscardView{Tile: x})
	p.turns++
	r.discards++
	r.hasDrawn = false
	t.emit(Everyone, discardedBody(s, x))
	t.openWindow(s, x, false)
}

// firstGoRound reports whether the discard being claimed is one of the
// first four of the hand with no claim before it.
func (r *hand) firstGoRound() bool { return r.discards <= NumSeats && !r.calls }

// mayGoOut reports whether seat o may claim Mah Jong on another seat's
// tile: the fishing requirement.
func (t *Table) mayGoOut(o Seat) bool {
	return !t.rules.FishingFirst || t.r.seats[o].fishing || t.r.firstGoRound()
}

// openWindow opens the claim window on tile x from seat s (a discard, or
// the tile of an added kong when robbing), or, when nobody may claim it,
// goes on at once.
func (t *Table) openWindow(s Seat, x tile.Tile, robbing bool) {
	r := &t.r
	r.claimTile, r.claimFrom, r.robbing = x, s, robbing
	r.pending = 0
	k := x.Kind()
	for o := range Seat(NumSeats) {
		r.answered[o], r.answers[o] = false, Action{}
		r.offers[o] = r.offerBuf[o][:0]
		if o == s {
			continue
		}
		q := &r.seats[o]
		opts := r.offers[o]
		if t.mayGoOut(o) && t.waits(o).Has(k) && t.score(o, k, false, robbing).Win {
			opts = append(opts, Action{Seat: o, Type: MahJong, Tile: x})
		}
		if !robbing {
			if q.counts[k] == 3 && r.remaining() > 0 {
				opts = append(opts, Action{Seat: o, Type: Kong, Tile: x})
			}
			if q.counts[k] >= 2 {
				opts = append(opts, Action{Seat: o, Type: Pung, Tile: x})
			}
			if o == s.Next() && k < 27 {
				n := int(k % 9)
				for low := max(0, n-2); low <= min(n, 6); low++ {
					b := k - tile.Kind(n-low)
					if (b == k || q.counts[b] > 0) && (b+1 == k || q.counts[b+1] > 0) && (b+2 == k || q.counts[b+2] > 0) {
						opts = append(opts, Action{Seat: o, Type: Chow, Tile: tile.Plain(b)})
					}
				}
			}
		}
		if len(opts) == 0 {
			continue
		}
		opts = append(opts, Action{Seat: o, Type: Pass})
		r.offers[o] = opts
		r.pending++
	}
	if r.pending == 0 {
		t.closeWindow()
		return
	}
	t.phase = ClaimWindow
	for o := range Seat(NumSeats) {
		if len(r.offers[o]) > 0 {
			t.emit(Only(o), ClaimOffer{Seat: o, Options: t.copyActions(r.offers[o])})
		}
	}
}

func (t *Table) copyActions(as []Action) []Action {
	if len(t.acts)+len(as) > cap(t.acts) {
		t.acts = make([]Action, 0, max(256, len(as)))
	}
	start := len(t.acts)
	t.acts = append(t.acts, as...)
	return t.acts[start:len(t.acts):len(t.acts)]
}

// offered returns the option of seat o's offer that a matches, if any.
func (r *hand) offered(a Action) bool {
	for _, o := range r.offers[a.Seat] {
		if o.Type == a.Type && (a.Type != Chow || o.Tile.Kind() == a.Tile.Kind()) {
			return true
		}
	}
	return false
}

func (t *Table) checkAnswer(a Action) error {
	r := &t.r
	switch a.Type {
	case Deal:
		return refuse(a, ErrPhase, "a hand is being played")
	case MahJong, Chow, Pung, Kong, Pass:
	case Discard, Fish, ConcealedKong, AddedKong:
		return refuse(a, ErrPhase, "a claim window is open")
	default:
		return refuse(a, ErrBadAction, "no action type %d", a.Type)
	}
	if a.Seat >= NumSeats {
		return refuse(a, ErrBadAction, "no seat %d", a.Seat)
	}
	if len(r.offers[a.Seat]) == 0 {
		return refuse(a, ErrNotToAct, "seat %d has nothing to claim", a.Seat)
	}
	if r.answered[a.Seat] {
		return refuse(a, ErrNotToAct, "seat %d already answered", a.Seat)
	}
	if a.Type == Chow && !playing(a.Tile) {
		return refuse(a, ErrBadAction, "no such tile")
	}
	if !r.offered(a) {
		if a.Type == MahJong && !t.mayGoOut(a.Seat) && t.score(a.Seat, r.claimTile.Kind(), false, r.robbing).Win {
			return refuse(a, ErrIllegal, "Mah Jong on a discard needs an earlier fishing announcement")
		}
		return refuse(a, ErrIllegal, "not offered")
	}
	return nil
}

func (t *Table) answer(a Action) {
	r := &t.r
	r.answered[a.Seat], r.answers[a.Seat] = true, a
	r.pending--
	if r.pending > 0 {
		return
	}
	t.resolve()
}

// resolve applies the classical priorities: Mah Jong first (the seat
// nearest the discarder in turn order when several go out), then a pung
// or kong, then the chow.
func (t *Table) resolve() {
	r := &t.r
	best, bestSeat := 0, Seat(0)
	for i := 1; i < NumSeats; i++ {
		o := (r.claimFrom + Seat(i)) % NumSeats
		if !r.answered[o] {
			continue
		}
		p := 0
		switch r.answers[o].Type {
		case MahJong:
			p = 3
		case Pung, Kong:
			p = 2
		case Chow:
			p = 1
		}
		if p > best {
			best, bestSeat = p, o
		}
	}
	if best == 0 {
		t.closeWindow()
		return
	}
	a := r.answers[bestSeat]
	if a.Type == MahJong {
		from := &r.seats[r.claimFrom]
		if r.robbing {
			for i, m := range from.melds {
				if m.Type == MeldKong && m.Kind == r.claimTile.Kind() {
					from.melds[i].Type = MeldPung
				}
			}
		} else {
			from.pond[len(from.pond)-1].Claimed = true
		}
		t.win(bestSeat, r.claimFrom, r.claimTile, false, r.robbing)
		return
	}
	t.claim(bestSeat, a)
}

// closeWindow goes on when nobody claimed: after a discard the next seat
// draws; after an added kong the kong is made and replaced.
func (t *Table) closeWindow() {
	r := &t.r
	if r.robbing {
		t.drawBack(r.claimFrom, true)
		return
	}
	t.drawFront(r.claimFrom.Next())
}

// claim makes seat s's chow, pung or kong of the discard.
func (t *Table) claim(s Seat, a Action) {
	r := &t.r
	p := &r.seats[s]
	from := &r.seats[r.claimFrom]
	from.pond[len(from.pond)-1].Claimed = true
	k := r.claimTile.Kind()
	m := Meld{Kind: k, From: r.claimFrom}
	switch a.Type {
	case Chow:
		m.Type, m.Kind = MeldChow, a.Tile.Kind()
		for b := m.Kind; b < m.Kind+3; b++ {
			if b != k {
				p.remove(tile.Plain(b))
			}
		}
	case Pung:
		m.Type = MeldPung
		p.remove(tile.Plain(k))
		p.remove(tile.Plain(k))
	case Kong:
		m.Type = MeldKong
		for range 3 {
			p.remove(tile.Plain(k))
		}
	}
	p.melds = append(p.melds, m)
	r.calls = true
	t.emit(Everyone, Called{Seat: s, Meld: m})
	if a.Type == Kong {
		t.drawBack(s, true)
		return
	}
	t.phase = Turn
	r.turnFresh = false
	r.toAct, r.hasDrawn, r.kongDraw, r.lastLive = s, false, false, false
}
