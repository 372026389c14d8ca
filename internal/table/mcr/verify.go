package mcr

import (
	"fmt"

	jmcr "github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Verify checks the table's invariants from scratch and reports the first
// one broken: the scores sum to zero; each of the 34 kinds has its four
// tiles and each flower its one in the undrawn wall, hands, melds, ponds,
// flowers set aside and the tile won on (144 in all, none in two places);
// no hand holds a flower; hands are sorted and their counts match; hand
// sizes are legal; cached shanten and waits are what the judge says now.
// It is for tests: it costs judge calls.
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
	if r.front < liveStart+1 || r.back < 0 || r.wallLeft() < 0 {
		return fmt.Errorf("wall: front %d, back %d", r.front, r.back)
	}
	var have [tile.NumAllKinds]int
	for pos := r.front; pos < WallSize-r.back; pos++ {
		have[r.wall.Tiles[pos].Kind()]++
	}
	if r.won {
		have[r.winTile.Kind()]++
	}
	inPlay := t.phase == Turn || t.phase == ClaimWindow
	for s := range r.seats {
		p := &r.seats[s]
		var c tile.Counts
		for i, x := range p.hand {
			if !playing(x) {
				return fmt.Errorf("seat %d: tile %v in hand", s, x)
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
		for _, m := range p.melds {
			for k := range tile.Kind(tile.NumKinds) {
				have[k] += m.count(k)
			}
		}
		for _, d := range p.pond {
			if !d.Called {
				have[d.Tile.Kind()]++
			}
		}
		for _, f := range p.flowers {
			if !isFlower(f) {
				return fmt.Errorf("seat %d: %v set aside as a flower", s, f)
			}
			have[f.Kind()]++
		}
		size := len(p.hand) + 3*len(p.melds)
		want := 13
		if t.phase == Turn && Seat(s) == r.toAct {
			want = 14
		}
		if inPlay && size != want {
			return fmt.Errorf("seat %d: %d tiles in hand and %d melds, want %d in all", s, len(p.hand), len(p.melds), want)
		}
		if inPlay && size == 13 {
			sh := jmcr.Shanten(&p.counts)
			var w tile.KindSet
			if sh == 0 {
				for k := range jmcr.Waits(&p.counts).All() {
					if int(p.counts[k])+p.meldCount(k) < 4 {
						w = w.With(k)
					}
				}
			}
			if sh != p.shanten || w != p.waits {
				return fmt.Errorf("seat %d: cached shanten %d waits %s, judge says %d %s", s, p.shanten, p.waits, sh, w)
			}
		}
	}
	for k, n := range have {
		want := 4
		if tile.Kind(k).IsFlower() {
			want = 1
		}
		if n != want {
			return fmt.Errorf("%d tiles of %v in play, want %d", n, tile.Kind(k), want)
		}
	}
	return nil
}
