// Package sichuan holds a simple deterministic player of Sichuan tables
// (package internal/table/sichuan), for benchmarks, fuzzing and empty
// seats. Its choice is a pure function of what its seat sees: the View,
// legal actions included.
package sichuan

import (
	"errors"
	"fmt"

	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Efficient gives its shortest suit in the exchange and voids its
// shortest suit, discards the void suit first, then discards for the
// lowest shanten over its live suits (ties to the most isolated tile, then
// the highest), wins whenever it may, pons and kans when that does not
// take its hand further from ready, and passes otherwise. The zero value
// is ready to use.
type Efficient struct{}

// Act returns seat v.Seat's action; ok is false when it has nothing to do.
func (Efficient) Act(v *sc.View) (sc.Action, bool) {
	if len(v.Legal) == 0 {
		return sc.Action{}, false
	}
	for _, a := range v.Legal {
		if a.Type == sc.Tsumo || a.Type == sc.Ron {
			return a, true
		}
	}
	c := tile.CountsOf(v.Tiles)
	if v.HasDrawn {
		c[v.Drawn.Kind()]++
	}
	s := v.Seat
	switch v.Phase {
	case sc.Exchanging:
		return sc.Action{Seat: s, Type: sc.Exchange, Tiles: sc.DefaultExchange(&c)}, true
	case sc.ChoosingVoid:
		return sc.Action{Seat: s, Type: sc.Void, Suit: sc.DefaultVoid(&c)}, true
	case sc.ClaimWindow:
		return claim(v, &c), true
	}
	return turn(v, &c), true
}

// hand is the judge's view of the seat's hand with counts c.
func hand(v *sc.View, c *tile.Counts, melds *[4]jsc.Meld) jsc.Hand {
	h := jsc.Hand{Concealed: *c, Void: v.Void}
	ms := v.Seats[v.Seat].Melds
	for i, m := range ms {
		melds[i] = jsc.Meld{Type: jsc.MeldType(m.Type), Kind: m.Kind}
	}
	h.Melds = melds[:len(ms)]
	return h
}

// claim pons or kans the discard when the hand is then no further from
// ready than now, and passes otherwise.
func claim(v *sc.View, c *tile.Counts) sc.Action {
	var ms [4]jsc.Meld
	h := hand(v, c, &ms)
	now := jsc.Shanten(&h)
	pass := sc.Action{Seat: v.Seat, Type: sc.Pass}
	for _, a := range v.Legal {
		if a.Type != sc.OpenKan && a.Type != sc.Pon {
			continue
		}
		k := a.Tile.Kind()
		after := h
		after.Melds = ms[:len(h.Melds)+1]
		if a.Type == sc.OpenKan {
			ms[len(h.Melds)] = jsc.Meld{Type: jsc.OpenKan, Kind: k}
			after.Concealed[k] -= 3
			if jsc.Shanten(&after) <= now {
				return a
			}
			continue
		}
		ms[len(h.Melds)] = jsc.Meld{Type: jsc.Pon, Kind: k}
		after.Concealed[k] -= 2
		if _, sh := bestDiscard(&after, 0); sh < now {
			return a
		}
	}
	return pass
}

// turn wins, kans or discards.
func turn(v *sc.View, c *tile.Counts) sc.Action {
	var ms [4]jsc.Meld
	h := hand(v, c, &ms)
	var allowed tile.KindSet
	var first [tile.NumKinds]int8
	for i, a := range v.Legal {
		if a.Type == sc.Discard {
			allowed = allowed.With(a.Tile.Kind())
			first[a.Tile.Kind()] = int8(i)
		}
	}
	k, sh := bestDiscard(&h, allowed)
	for _, a := range v.Legal {
		if a.Type != sc.ClosedKan && a.Type != sc.AddedKan {
			continue
		}
		after := h
		kk := a.Tile.Kind()
		if a.Type == sc.ClosedKan {
			ms[len(h.Melds)] = jsc.Meld{Type: jsc.ClosedKan, Kind: kk}
			after.Melds = ms[:len(h.Melds)+1]
			after.Concealed[kk] -= 4
		} else {
			for i := range after.Melds {
				if after.Melds[i].Kind == kk {
					after.Melds[i].Type = jsc.AddedKan
				}
			}
			after.Concealed[kk]--
		}
		ok := jsc.Shanten(&after) <= sh
		for i := range h.Melds {
			ms[i].Type = jsc.MeldType(v.Seats[v.Seat].Melds[i].Type)
		}
		if ok {
			return a
		}
	}
	return v.Legal[first[k]]
}

// bestDiscard returns the kind among allowed (every kind held when 0)
// whose discard leaves h (3n+2 tiles) at the lowest shanten, and that
// shanten. Ties go to the tile with the fewest neighbours in its suit,
// then to the highest kind. No discard leaves a hand nearer to ready than
// the whole 3n+2 tiles are, so the candidates are tried in the order of
// the ties and the first that reaches that bound is the answer.
func bestDiscard(h *jsc.Hand, allowed tile.KindSet) (tile.Kind, int) {
	c := &h.Concealed
	var order [27]tile.Kind
	var key [27]int
	n := 0
	for k := tile.Kind(26); ; k-- {
		if c[k] != 0 && (allowed == 0 || allowed.Has(k)) {
			// Insertion by neighbours, stable: highest kinds first.
			nb := neighbours(c, k)
			i := n
			for i > 0 && key[i-1] > nb {
				order[i], key[i] = order[i-1], key[i-1]
				i--
			}
			order[i], key[i] = k, nb
			n++
		}
		if k == 0 {
			break
		}
	}
	bound := jsc.Shanten(h)
	best, bestSh := order[0], 1<<30
	for _, k := range order[:n] {
		c[k]--
		sh := jsc.Shanten(h)
		c[k]++
		if sh < bestSh {
			best, bestSh = k, sh
		}
		if sh <= bound {
			break
		}
	}
	return best, bestSh
}

// neighbours counts the other tiles of k's suit within two of it.
func neighbours(c *tile.Counts, k tile.Kind) int {
	n := int(c[k]) - 1
	lo, hi := k-k%9, k-k%9+8
	for d := tile.Kind(1); d <= 2; d++ {
		if k >= lo+d {
			n += int(c[k-d])
		}
		if k+d <= hi {
			n += int(c[k+d])
		}
	}
	return n
}

// ErrTooLong is Play's error for a match that does not end in time.
var ErrTooLong = errors.New("bot: match too long")

// Play plays t to the end of its match with bots[s] at seat s, dealing
// each hand the wall next returns, and returns the number of steps. A host
// in process (benchmarks, tests) uses it; it allocates nothing of its own
// per step.
func Play(t *sc.Table, bots *[sc.NumSeats]Efficient, next func() sc.Wall, maxSteps int) (int, error) {
	steps := 0
	var w sc.Wall
	var views [sc.NumSeats]sc.View
	var evs []sc.Event
	var err error
	for t.Phase() != sc.MatchOver {
		if steps >= maxSteps {
			return steps, ErrTooLong
		}
		steps++
		if t.Phase() == sc.BetweenHands {
			w = next()
			if evs, err = t.StepInto(evs[:0], sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
				return steps, fmt.Errorf("bot: deal: %w", err)
			}
			continue
		}
		acted := false
		for s := range sc.Seat(sc.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			v := &views[s]
			t.ViewInto(s, v)
			a, ok := bots[s].Act(v)
			if !ok {
				return steps, fmt.Errorf("bot: seat %d has nothing to do in %v", s, t.Phase())
			}
			if evs, err = t.StepInto(evs[:0], a); err != nil {
				return steps, fmt.Errorf("bot: seat %d: %w", s, err)
			}
			acted = true
			break
		}
		if !acted {
			return steps, fmt.Errorf("bot: the table waits for nobody in %v", t.Phase())
		}
	}
	return steps, nil
}
