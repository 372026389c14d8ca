package table

import (
	"slices"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

func (t *Table) checkPlay(a Action) error {
	d := &t.d
	switch a.Type {
	case Pass:
		if !d.hasLast {
			return refuse(a, ErrIllegal, "the seat leads: it must play")
		}
		return nil
	case Play:
		if !a.Cards.Fits() || a.Cards.Empty() {
			return refuse(a, ErrBadAction, "%q is no set of cards", a.Cards.String())
		}
		hand := d.hands[a.Seat].Counts()
		if !hand.Contains(&a.Cards) {
			return refuse(a, ErrIllegal, "the hand %s does not hold %s", hand.String(), a.Cards.String())
		}
		if _, ok := t.read(&a.Cards); !ok {
			if d.hasLast {
				return refuse(a, ErrIllegal, "%s does not beat %s", a.Cards.String(), d.last.String())
			}
			return refuse(a, ErrIllegal, "%s is not a play", a.Cards.String())
		}
		return nil
	}
	return refuse(a, ErrPhase, "the play is on")
}

// read reads cards as the seat to act would play them now.
func (t *Table) read(c *card.Counts) (judge.Play, bool) {
	if t.d.hasLast {
		return judge.Answer(c, &t.d.last)
	}
	return judge.Lead(c)
}

func (t *Table) play(a Action) {
	d := &t.d
	s := a.Seat
	if a.Type == Pass {
		d.passes++
		lead := d.passes == 2
		if lead {
			d.hasLast, d.passes = false, 0
		}
		t.emit(Everyone, passedBodies[s][b2i(lead)])
		d.toAct = s.Next()
		return
	}
	p, _ := t.read(&a.Cards)
	took, _ := d.hands[s].Take(&a.Cards)
	d.hands[s] &^= took
	d.played |= took
	if p.Type == judge.Bomb || p.Type == judge.Rocket {
		d.bombs++
	}
	d.playsBy[s]++
	left := d.hands[s].Len()
	t.emit(Everyone, Played{Seat: s, Play: p, Left: left, Bombs: d.bombs})
	if left == 0 {
		t.endDeal(s)
		return
	}
	d.last, d.lastBy, d.hasLast, d.passes = p, s, true, 0
	d.toAct = s.Next()
}

// endDeal scores the deal seat w won and ends it, and the match after its
// last deal.
func (t *Table) endDeal(w Seat) {
	d := &t.d
	ll := d.landlord
	ev := DealEnded{Winner: w, Landlord: ll, LandlordWon: w == ll, Base: d.base, Bombs: d.bombs, Seed: d.deck.Seed}
	farmerPlays := 0
	for s := range Seat(NumSeats) {
		ev.Hands[s] = d.hands[s].Counts()
		if s != ll {
			farmerPlays += d.playsBy[s]
		}
	}
	ev.Spring = ev.LandlordWon && farmerPlays == 0
	ev.AntiSpring = !ev.LandlordWon && d.playsBy[ll] == 1
	ev.Doublings = d.bombs
	if t.rules.BombCap > 0 {
		ev.Doublings = min(ev.Doublings, t.rules.BombCap)
	}
	ev.Stake = d.base << ev.Doublings
	if ev.Spring || ev.AntiSpring {
		ev.Stake *= 2
	}
	for s := range Seat(NumSeats) {
		switch {
		case s == ll && ev.LandlordWon:
			ev.Deltas[s] = 2 * ev.Stake
		case s == ll:
			ev.Deltas[s] = -2 * ev.Stake
		case ev.LandlordWon:
			ev.Deltas[s] = -ev.Stake
		default:
			ev.Deltas[s] = ev.Stake
		}
		t.scores[s] += ev.Deltas[s]
	}
	ev.Scores = t.scores
	t.done++
	ev.MatchOver = t.done >= t.rules.Deals
	t.emit(Everyone, ev)
	if !ev.MatchOver {
		t.phase = BetweenDeals
		return
	}
	t.emit(Everyone, MatchEnded{Scores: t.scores, Ranks: t.ranks()})
	t.phase = MatchOver
}

func (t *Table) ranks() [NumSeats]int {
	order := []Seat{0, 1, 2}
	slices.SortStableFunc(order, func(a, b Seat) int { return t.scores[b] - t.scores[a] })
	var r [NumSeats]int
	for i, s := range order {
		r[s] = i + 1
	}
	return r
}

// Legal lists what seat s may do now: nothing unless the table waits for
// it. While playing: Pass (unless it leads), then every distinct play,
// sorted as the judge lists them.
func (t *Table) Legal(s Seat) []Action {
	if (t.phase != Bidding && t.phase != Playing) || s != t.d.toAct {
		return nil
	}
	return t.AppendLegal(nil, s)
}

// AppendLegal appends what Legal lists to dst, for callers that reuse a
// buffer.
func (t *Table) AppendLegal(dst []Action, s Seat) []Action {
	if (t.phase != Bidding && t.phase != Playing) || s != t.d.toAct {
		return dst
	}
	if t.phase == Bidding {
		return t.bidOptions(dst)
	}
	hand := t.d.hands[s].Counts()
	t.plays = judge.AppendLegal(t.plays[:0], &hand, t.lastPtr())
	judge.Sort(t.plays)
	dst = slices.Grow(dst, len(t.plays)+1)
	if t.d.hasLast {
		dst = append(dst, Action{Seat: s, Type: Pass})
	}
	for i := range t.plays {
		dst = append(dst, Action{Seat: s, Type: Play, Cards: t.plays[i].Cards})
	}
	return dst
}

func (t *Table) lastPtr() *judge.Play {
	if t.d.hasLast {
		return &t.d.last
	}
	return nil
}

// Default is the action played for the seat to act when it runs out of
// time: pass in the bidding, pass when it may, else its smallest lead (a
// single of its lowest card). Between deals it has none (ok false): the
// host deals.
func (t *Table) Default() (Action, bool) {
	d := &t.d
	s := d.toAct
	switch t.phase {
	case Bidding:
		return Action{Seat: s, Type: Pass}, true
	case Playing:
		if d.hasLast {
			return Action{Seat: s, Type: Pass}, true
		}
		hand := d.hands[s].Counts()
		for r := range card.Rank(card.NumRanks) {
			if hand[r] > 0 {
				a := Action{Seat: s, Type: Play}
				a.Cards[r] = 1
				return a, true
			}
		}
	}
	return Action{}, false
}

// passedBodies are the six Passed bodies, boxed once: a pass is the most
// common event and needs no allocation.
var passedBodies = func() (b [NumSeats][2]Body) {
	for s := range Seat(NumSeats) {
		b[s] = [2]Body{Passed{Seat: s}, Passed{Seat: s, Lead: true}}
	}
	return b
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
