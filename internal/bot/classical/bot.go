// Package classical holds a simple deterministic player of classical
// tables (package internal/table/classical), for benchmarks, fuzzing and
// empty seats. Its choice is a pure function of what its seat sees: the
// View, legal actions included.
package classical

import (
	"errors"
	"fmt"

	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Efficient goes Mah Jong whenever it may, announces fishing as soon as
// it is one tile away (so that it may go out on a discard), declares
// every kong, claims a pung of dragons or of its own or the prevailing
// wind and any pung or chow that brings its hand nearer Mah Jong, and
// discards the tile that leaves the lowest shanten, ties to the most
// isolated tile, then the highest. The zero value is ready to use.
type Efficient struct{}

// Act returns seat v.Seat's action; ok is false when it has nothing to do.
func (Efficient) Act(v *ct.View) (ct.Action, bool) {
	if len(v.Legal) == 0 {
		return ct.Action{}, false
	}
	for _, typ := range [...]ct.ActionType{ct.MahJong, ct.Fish, ct.ConcealedKong, ct.AddedKong, ct.Kong} {
		for _, a := range v.Legal {
			if a.Type == typ {
				return a, true
			}
		}
	}
	c := tile.CountsOf(v.Tiles)
	if v.HasDrawn {
		c[v.Drawn.Kind()]++
	}
	melds := v.Seats[v.Seat].Melds
	if v.Phase == ct.ClaimWindow {
		return claim(v, &c, melds), true
	}
	var ms [5]jc.Meld
	h := hand(&c, melds, &ms)
	return ct.Action{Seat: v.Seat, Type: ct.Discard, Tile: tile.Plain(bestDiscard(&h))}, true
}

// hand is the judge's hand of counts c and melds.
func hand(c *tile.Counts, melds []ct.Meld, ms *[5]jc.Meld) jc.Hand {
	n := 0
	for _, m := range melds {
		ms[n] = jc.Meld{Type: m.Type, Kind: m.Kind}
		n++
	}
	return jc.Hand{Concealed: *c, Melds: ms[:n]}
}

// bestDiscard returns the kind whose discard leaves h (one tile over) at
// the lowest shanten; ties to the tile with the fewest neighbours, then
// the highest kind.
func bestDiscard(h *jc.Hand) tile.Kind {
	best, bestSh, bestN := tile.Kind(0), 99, 99
	for k := tile.NumKinds - 1; k >= 0; k-- {
		kind := tile.Kind(k)
		if h.Concealed[kind] == 0 {
			continue
		}
		h.Concealed[kind]--
		sh := jc.Shanten(h)
		h.Concealed[kind]++
		n := neighbours(&h.Concealed, kind)
		if sh < bestSh || (sh == bestSh && n < bestN) {
			best, bestSh, bestN = kind, sh, n
		}
	}
	return best
}

// neighbours counts the tiles of c within two of k in its suit, k's other
// copies included; for an honour, its other copies.
func neighbours(c *tile.Counts, k tile.Kind) int {
	n := int(c[k]) - 1
	if k >= 27 {
		return n
	}
	for d := -2; d <= 2; d++ {
		o := int(k%9) + d
		if d != 0 && o >= 0 && o < 9 {
			n += int(c[int(k)+d])
		}
	}
	return n
}

// claim answers a claim window: Mah Jong and kongs were taken above; a
// pung of a valuable honour, or a pung or chow that lowers the shanten;
// else Pass.
func claim(v *ct.View, c *tile.Counts, melds []ct.Meld) ct.Action {
	var ms [5]jc.Meld
	h := hand(c, melds, &ms)
	best := ct.Action{Seat: v.Seat, Type: ct.Pass}
	bestSh := jc.Shanten(&h)
	x := v.ClaimTile.Kind()
	for _, a := range v.Legal {
		cc := *c
		var m jc.Meld
		switch a.Type {
		case ct.Pung:
			if valuable(x, v) {
				return a
			}
			cc[x] -= 2
			m = jc.Meld{Type: jc.Pung, Kind: x}
		case ct.Chow:
			low := a.Tile.Kind()
			for k := low; k < low+3; k++ {
				if k != x {
					cc[k]--
				}
			}
			m = jc.Meld{Type: jc.Chow, Kind: low}
		default:
			continue
		}
		var ms2 [5]jc.Meld
		h2 := hand(&cc, melds, &ms2)
		h2.Melds = append(h2.Melds, m)
		if sh := jc.Shanten(&h2); sh < bestSh {
			best, bestSh = a, sh
		}
	}
	return best
}

// valuable reports whether a pung of k doubles for seat v.Seat: a dragon,
// its own wind or the prevailing wind.
func valuable(k tile.Kind, v *ct.View) bool {
	own := tile.Wind((v.Seat + ct.NumSeats - v.Dealer) % ct.NumSeats).Kind()
	return k.IsDragon() || k == own || k == v.Round.Kind()
}

// ErrTooLong is Play's error for a game that does not end in time.
var ErrTooLong = errors.New("bot: game too long")

// Play plays t to the end of its game with bots[s] at seat s, dealing
// each hand the wall next returns, and returns the number of steps.
func Play(t *ct.Table, bots *[ct.NumSeats]Efficient, next func() wall.Wall144, maxSteps int) (int, error) {
	steps := 0
	var w wall.Wall144
	var evs []ct.Event
	var v ct.View
	var err error
	for t.Phase() != ct.GameOver {
		if steps >= maxSteps {
			return steps, ErrTooLong
		}
		steps++
		if t.Phase() == ct.BetweenHands {
			w = next()
			if evs, err = t.StepInto(evs[:0], ct.Action{Type: ct.Deal, Wall: &w}); err != nil {
				return steps, fmt.Errorf("bot: deal: %w", err)
			}
			continue
		}
		acted := false
		for s := range ct.Seat(ct.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			t.ViewInto(s, &v)
			a, ok := bots[s].Act(&v)
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
