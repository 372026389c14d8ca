package table

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Verify checks the table's invariants from scratch and reports the first
// one broken: scores plus riichi sticks equal to the start, every one of the
// 136 tiles in exactly one place (a hand, a meld, a pond or the wall), legal
// hand sizes, sorted hands and counts that match them, and the cached waits
// equal to what the judge says now. It is for tests: it costs several judge
// calls.
func (t *Table) Verify() error {
	sum := 1000 * t.sticks
	for _, v := range t.scores {
		sum += v
	}
	if sum != t.total {
		return fmt.Errorf("scores %v + %d sticks = %d, want %d", t.scores, t.sticks, sum, t.total)
	}
	if t.sticks < 0 {
		return fmt.Errorf("%d sticks", t.sticks)
	}
	if t.rounds == 0 {
		return nil
	}
	r := &t.r
	var have, want [faces]int
	for _, x := range r.wall.Tiles {
		want[faceOf(x)]++
	}
	for pos := wall.LivePos(r.next); pos < wall.RinshanBase; pos++ {
		have[faceOf(r.wall.Tiles[pos])]++
	}
	for pos := wall.RinshanPos(r.rinshan); pos < wall.Size; pos++ {
		have[faceOf(r.wall.Tiles[pos])]++
	}
	for s := range r.seats {
		p := &r.seats[s]
		var c tile.Counts
		for i, x := range p.hand {
			have[faceOf(x)]++
			c[x.Kind()]++
			if i > 0 && tileLess(x, p.hand[i-1]) {
				return fmt.Errorf("seat %d: hand %s not sorted", s, tile.FormatInOrder(p.hand))
			}
		}
		if c != p.counts {
			return fmt.Errorf("seat %d: counts %s, hand %s", s, p.counts.String(), tile.FormatInOrder(p.hand))
		}
		var held, pairs tile.KindSet
		for k, n := range c {
			if n >= 1 {
				held = held.With(tile.Kind(k))
			}
			if n >= 2 {
				pairs = pairs.With(tile.Kind(k))
			}
		}
		if held != p.held || pairs != p.pairs {
			return fmt.Errorf("seat %d: kinds held %s and paired %s, hand %s", s, p.held, p.pairs, tile.FormatInOrder(p.hand))
		}
		for i, m := range p.melds {
			for _, x := range m.Tiles[:m.Len()] {
				have[faceOf(x)]++
			}
			if p.jmelds[i] != m.Meld {
				return fmt.Errorf("seat %d: meld %d differs from the judge's copy", s, i)
			}
		}
		for _, d := range p.pond {
			if !d.Called {
				have[faceOf(d.Tile)]++
			}
			if !p.discarded.Has(d.Tile.Kind()) {
				return fmt.Errorf("seat %d: discard %v missing from its furiten set", s, d.Tile)
			}
		}
		if p.riichi && !p.closed() {
			return fmt.Errorf("seat %d: riichi with an open hand", s)
		}
		size := len(p.hand) + 3*len(p.melds)
		wantSize := 13
		if t.phase == Turn && Seat(s) == r.toAct {
			wantSize = 14
		}
		if t.phase != BetweenRounds && t.phase != GameOver && size != wantSize {
			return fmt.Errorf("seat %d: %d tiles in hand and %d melds, want %d in all", s, len(p.hand), len(p.melds), wantSize)
		}
		if size == 13 {
			if sh, w := tenpai(p, &p.counts); sh != p.shanten || w != p.waits {
				return fmt.Errorf("seat %d: cached shanten %d waits %s, judge says %d %s", s, p.shanten, p.waits, sh, w)
			}
			if sh := judge.Shanten(&p.counts); sh != p.judgeShanten {
				return fmt.Errorf("seat %d: cached judge shanten %d, judge says %d", s, p.judgeShanten, sh)
			}
		}
	}
	if have != want {
		return fmt.Errorf("tiles in play %v differ from the wall's %v", have, want)
	}
	if r.liveLeft() < 0 || r.rinshan > r.kans || r.dora > 1+r.kans {
		return fmt.Errorf("wall: %d left, %d replacement draws, %d indicators for %d kans", r.liveLeft(), r.rinshan, r.dora, r.kans)
	}
	return nil
}
