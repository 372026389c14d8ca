package classical

import (
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Verify checks the table's invariants from scratch and reports the first
// one broken: the scores sum to zero; the 144 tiles are each in exactly
// one place (the undrawn wall, a hand, a meld, a pond, the bonus tiles
// set aside); hands are sorted,
// hold no bonus tile and their counts match; hand sizes fit the melds;
// a fishing seat's announcement was one the judge allowed. It is for
// tests.
func (t *Table) Verify() error {
	sum := 0
	for _, v := range t.scores {
		sum += v
	}
	if sum != 0 {
		return fmt.Errorf("scores %v sum to %d", t.scores, sum)
	}
	if t.phase != Turn && t.phase != ClaimWindow {
		return nil
	}
	r := &t.r
	if r.remaining() < 0 {
		return fmt.Errorf("%d front and %d back draws", r.front, r.back)
	}
	var have [tile.NumAllKinds]int
	for pos := wall.DealSize + r.front; pos < wall.Size144-r.back; pos++ {
		have[r.wall.Tiles[pos].Kind()]++
	}
	for s := range r.seats {
		p := &r.seats[s]
		var c tile.Counts
		if !slices.IsSorted(p.hand) {
			return fmt.Errorf("seat %d: hand %v not sorted", s, p.hand)
		}
		for _, x := range p.hand {
			if !playing(x) {
				return fmt.Errorf("seat %d: %v in hand", s, x)
			}
			c[x.Kind()]++
			have[x.Kind()]++
		}
		if c != p.counts {
			return fmt.Errorf("seat %d: counts %v, hand %v", s, p.counts, p.hand)
		}
		size := 13 - 3*len(p.melds)
		if Seat(s) == r.toAct && t.phase == Turn {
			size++
		}
		if len(p.hand) != size {
			return fmt.Errorf("seat %d: %d tiles with %d melds in %v", s, len(p.hand), len(p.melds), t.phase)
		}
		for _, m := range p.melds {
			switch m.Type {
			case MeldChow:
				have[m.Kind]++
				have[m.Kind+1]++
				have[m.Kind+2]++
			default:
				have[m.Kind] += m.Len()
			}
		}
		for _, d := range p.pond {
			if !d.Claimed {
				have[d.Tile.Kind()]++
			}
		}
		for _, x := range p.bonus {
			if !x.Kind().IsFlower() {
				return fmt.Errorf("seat %d: %v among bonus tiles", s, x)
			}
			have[x.Kind()]++
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
