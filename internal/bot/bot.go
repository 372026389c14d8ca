// Package bot holds simple deterministic players for benchmarks, fuzzing
// and empty seats. Random plays a uniformly random legal action; Efficient
// wins whenever it can, declares riichi when tenpai, never calls, and
// otherwise discards the tile that leaves its hand closest to tenpai.
package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A Bot chooses what its seat does from what the seat sees.
type Bot interface {
	// Act returns seat v.Seat's action; ok is false when the seat has
	// nothing to do (v.Legal is empty).
	Act(v *table.View) (a table.Action, ok bool)
}

// Random plays a uniformly random legal action, from its own seeded
// generator: the same seed plays the same game.
type Random struct {
	r *rand.Rand
}

// NewRandom returns a Random bot seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Act picks one of v.Legal at random.
func (b *Random) Act(v *table.View) (table.Action, bool) {
	if len(v.Legal) == 0 {
		return table.Action{}, false
	}
	return v.Legal[b.r.IntN(len(v.Legal))], true
}

// Efficient is a tile-efficiency player: tsumo and ron whenever offered,
// pass on every call, and discard the tile whose removal leaves the lowest
// shanten, declaring riichi with it when that leaves the hand tenpai. Ties
// go to the most isolated tile. The zero value is ready to use.
type Efficient struct{}

// Act chooses Efficient's action.
func (Efficient) Act(v *table.View) (table.Action, bool) {
	if len(v.Legal) == 0 {
		return table.Action{}, false
	}
	for _, a := range v.Legal {
		if a.Type == table.Tsumo || a.Type == table.Ron {
			return a, true
		}
	}
	if v.Phase == table.ClaimWindow {
		return table.Action{Seat: v.Seat, Type: table.Pass}, true
	}
	c := tile.CountsOf(v.Hand)
	if v.HasDrawn {
		c[v.Drawn.Kind()]++
	}
	// A 14-tile hand's shanten is the best its discards reach, so the
	// discards are tried from the most isolated on and the first one that
	// reaches it wins: usually the first or second try.
	target := judge.Shanten(&c)
	var order [14]candidate
	n := 0
	for i, a := range v.Legal {
		if a.Type == table.Discard && n < len(order) {
			order[n] = candidate{index: i, kind: a.Tile.Kind(), iso: neighbours(&c, a.Tile.Kind())}
			n++
		}
	}
	if n == 0 {
		return v.Legal[0], true
	}
	best, bestSh := -1, 99
	for {
		// The most isolated kind not tried yet, the first listed on ties:
		// usually the first or second try is the one.
		next := -1
		for i := range order[:n] {
			if !order[i].tried && (next < 0 || order[i].iso < order[next].iso) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		k := order[next].kind
		for i := range order[:n] {
			if order[i].kind == k {
				order[i].tried = true
			}
		}
		c[k]--
		sh := judge.Shanten(&c)
		c[k]++
		if sh < bestSh {
			best, bestSh = order[next].index, sh
		}
		if sh <= target {
			break
		}
	}
	d := v.Legal[best]
	if bestSh == 0 {
		for _, a := range v.Legal {
			if a.Type == table.Riichi && a.Tile == d.Tile && a.Tsumogiri == d.Tsumogiri {
				return a, true
			}
		}
	}
	return d, true
}

type candidate struct {
	index int       // in Legal
	kind  tile.Kind // of the tile
	iso   int       // neighbours: lower is more isolated
	tried bool
}

// neighbours measures how connected kind k is in c: other copies of it and,
// in a suit, tiles up to two steps away. Lower is more isolated.
func neighbours(c *tile.Counts, k tile.Kind) int {
	n := 2 * (int(c[k]) - 1)
	if k >= 27 {
		return n
	}
	num := int(k % 9)
	for j := int(k) - min(2, num); j <= int(k)+min(2, 8-num); j++ {
		n += int(c[j])
	}
	return n - int(c[k])
}

// ErrTooLong is returned by Play when a game does not end within its step
// budget.
var ErrTooLong = errors.New("bot: game too long")

// Play drives t with the bots until the game is over, dealing each round
// the wall next returns. It returns the number of steps taken. The table's
// events are dropped; a host that needs them drives the table itself.
func Play(t *table.Table, bots *[table.NumSeats]Bot, next func() wall.Wall, maxSteps int) (int, error) {
	steps := 0
	var w wall.Wall
	var views [table.NumSeats]table.View
	for t.Phase() != table.GameOver {
		if steps >= maxSteps {
			return steps, ErrTooLong
		}
		steps++
		if t.Phase() == table.BetweenRounds {
			w = next()
			if _, err := t.Step(table.Action{Type: table.Deal, Wall: &w}); err != nil {
				return steps, fmt.Errorf("bot: deal: %w", err)
			}
			continue
		}
		for s := range table.Seat(table.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			v := &views[s]
			t.ViewInto(s, v)
			a, ok := bots[s].Act(v)
			if !ok {
				return steps, fmt.Errorf("bot: seat %d has nothing to do in %v", s, t.Phase())
			}
			if _, err := t.Step(a); err != nil {
				return steps, fmt.Errorf("bot: seat %d: %w", s, err)
			}
			break
		}
	}
	return steps, nil
}
