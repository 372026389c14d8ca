package sichuan

import (
	"fmt"

	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Verify checks the table's invariants from scratch and reports the first
// one broken: the units sum to zero; each of the 27 kinds has its four tiles
// in the undrawn wall, hands, melds, ponds and won tiles (108 in all, none
// in two places); hands are sorted and their counts match; hand sizes are
// legal; a seat's melds hold no tile of its void suit; cached waits are what
// the judge says now; kan money received is never negative. It is for
// tests: it costs judge calls.
func (t *Table) Verify() error {
	sum := 0
	for _, v := range t.scores {
		sum += v
	}
	if sum != 0 {
		return fmt.Errorf("scores %v sum to %d", t.scores, sum)
	}
	if t.hands == 0 {
		return nil
	}
	r := &t.r
	if r.next < 0 || r.next > LiveSize {
		return fmt.Errorf("%d draws", r.next)
	}
	var have [numKinds]int
	for pos := LivePos(r.next); pos < WallSize; pos++ {
		have[r.wall.Tiles[pos].Kind()]++
	}
	inPlay := t.phase == Turn || t.phase == ClaimWindow
	for s := range r.seats {
		p := &r.seats[s]
		var c tile.Counts
		for i, x := range p.hand {
			if !suited(x) {
				return fmt.Errorf("seat %d: tile %v", s, x)
			}
			have[x.Kind()]++
			c[x.Kind()]++
			if i > 0 && x < p.hand[i-1] {
				return fmt.Errorf("seat %d: hand %s not sorted", s, tile.FormatInOrder(p.hand))
			}
		}
		if c != p.counts {
			return fmt.Errorf("seat %d: counts %s, hand %s", s, p.counts.String(), tile.FormatInOrder(p.hand))
		}
		var held, four tile.KindSet
		for k, n := range c {
			if n > 0 {
				held = held.With(tile.Kind(k))
			}
			if n == 4 {
				four = four.With(tile.Kind(k))
			}
		}
		if held != p.held || four != p.four {
			return fmt.Errorf("seat %d: kinds held %s, four %s, hand %s", s, p.held, p.four, tile.FormatInOrder(p.hand))
		}
		for _, m := range p.melds {
			have[m.Kind] += m.Len()
			if p.voidSet && m.Kind.Suit() == p.void {
				return fmt.Errorf("seat %d: meld %v of its void suit", s, m)
			}
		}
		for _, d := range p.pond {
			if !d.Called {
				have[d.Tile.Kind()]++
			}
		}
		for _, w := range p.won {
			if w.taken {
				have[w.tile.Kind()]++
			}
		}
		if len(p.won) != p.wins || p.left && (t.rules.BloodyRiver || p.wins != 1) {
			return fmt.Errorf("seat %d: %d tiles won, %d wins, left %v", s, len(p.won), p.wins, p.left)
		}
		size := len(p.hand) + 3*len(p.melds)
		want := 13
		if t.phase == Turn && Seat(s) == r.toAct && !p.left {
			want = 14
		}
		if inPlay && size != want {
			return fmt.Errorf("seat %d: %d tiles in hand and %d melds, want %d in all", s, len(p.hand), len(p.melds), want)
		}
		if inPlay && size == 13 && p.voidSet {
			w := p.waits
			var h jsc.Hand
			var ms [4]jsc.Meld
			judgeHand(p, &h, &ms)
			judged := jsc.Waits(&h)
			for k := range judged.All() {
				if int(p.counts[k])+p.meldCount(k) >= 4 {
					judged = judged.Without(k)
				}
			}
			if w != judged {
				return fmt.Errorf("seat %d: cached waits %s, judge says %s", s, w, judged)
			}
			sh := ShantenUnknown
			if p.voidTiles() == 0 {
				sh = jsc.Shanten(&h)
			}
			if sh != p.shanten {
				return fmt.Errorf("seat %d: cached shanten %d, judge says %d", s, p.shanten, sh)
			}
		}
		for o, u := range p.kanIn {
			if u < 0 || o == s && u != 0 {
				return fmt.Errorf("seat %d: kan money %d from seat %d", s, u, o)
			}
		}
	}
	for k, n := range have {
		if n != 4 {
			return fmt.Errorf("%d tiles of %v in play, want 4", n, tile.Kind(k))
		}
	}
	if inPlay && r.seats[r.toAct].left {
		return fmt.Errorf("seat %d to act has left play", r.toAct)
	}
	return nil
}
