// Package bot holds simple deterministic players for benchmarks, fuzzing
// and empty seats. Random plays a uniformly random legal action; Efficient
// wins whenever it can, declares riichi when tenpai, never calls, and
// otherwise discards the tile that leaves its hand closest to tenpai.
package bot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
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

// A Decider is a Bot that can also decide without a View, from what the
// table tells seat s cheaply (Table.Brief, Table.DiscardAction), making
// the choice Act would make. Play uses Decide when a bot has it. A Decider
// must read nothing seat s may not see.
type Decider interface {
	Bot
	Decide(t *table.Table, s table.Seat) (a table.Action, ok bool)
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
// go to the most isolated tile, then to the lowest kind (of a kind, the
// first listed tile: a red five before plain ones). The zero value is ready
// to use.
type Efficient struct{}

// Act chooses Efficient's action from a View.
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
	var kinds tile.KindSet
	for _, a := range v.Legal {
		if a.Type == table.Discard {
			kinds = kinds.With(a.Tile.Kind())
		}
	}
	if kinds == 0 {
		return v.Legal[0], true
	}
	c := tile.CountsOf(v.Hand)
	if v.HasDrawn {
		c[v.Drawn.Kind()]++
	}
	k, sh := discardFor(&c, kinds, drawn{})
	d := -1
	for i, a := range v.Legal {
		if a.Type == table.Discard && a.Tile.Kind() == k {
			d = i
			break
		}
	}
	if sh == 0 {
		for _, a := range v.Legal {
			if a.Type == table.Riichi && a.Tile == v.Legal[d].Tile && a.Tsumogiri == v.Legal[d].Tsumogiri {
				return a, true
			}
		}
	}
	return v.Legal[d], true
}

// Decide is Act without a View: it reads seat s's Brief and makes the same
// choice Act makes from View(s), for a fraction of the cost.
func (Efficient) Decide(t *table.Table, s table.Seat) (table.Action, bool) {
	b := t.Brief(s)
	switch {
	case !b.Waiting:
		return table.Action{}, false
	case b.Phase == table.ClaimWindow && b.Ron:
		return table.Action{Seat: s, Type: table.Ron, Tile: b.ClaimTile}, true
	case b.Phase == table.ClaimWindow:
		return table.Action{Seat: s, Type: table.Pass}, true
	case b.Tsumo:
		return table.Action{Seat: s, Type: table.Tsumo}, true
	case b.Discards == 0:
		// Nothing to discard (Legal always lists a discard in a turn):
		// Act's fallback, the first action listed.
		if legal := t.Legal(s); len(legal) > 0 {
			return legal[0], true
		}
		return table.Action{}, false
	}
	if b.Riichi {
		// Only the drawn tile may go, and no second riichi: no choice.
		return t.DiscardAction(s, b.Drawn.Kind(), false)
	}
	k, sh := discardFor(&b.Counts, b.Discards, drawn{kind: b.Drawn.Kind(), before: b.Shanten, known: b.HasDrawn})
	if sh == 0 {
		if a, ok := t.DiscardAction(s, k, true); ok {
			return a, true
		}
	}
	return t.DiscardAction(s, k, false)
}

// drawn is what discardFor may know of the tile just drawn: its kind, and
// judge.Shanten of the hand before the draw, which is also the shanten
// after discarding a tile of that kind.
type drawn struct {
	kind   tile.Kind
	before int
	known  bool
}

// discardFor returns the kind among kinds whose discard leaves the 3n+2
// tiles c with the lowest shanten, and that shanten. A 14-tile hand's
// shanten (the target) is the best its discards reach, so the kinds are
// tried from the most isolated on (the lowest kind first on ties) and the
// first one that reaches it wins: usually the first or second try.
//
// What is known of the draw d saves judge calls: the drawn kind's try
// needs none; a draw lowers shanten by one at most, so a try that reaches
// d.before-1 needs no target; and a drawn tile with no copy and nothing
// within two steps lowers no standard shanten, so the target is known.
func discardFor(c *tile.Counts, kinds tile.KindSet, d drawn) (tile.Kind, int) {
	// The most isolated kinds have no copy and nothing within two steps:
	// they come first, in kind order, found on the kinds' bit sets.
	held, pairs := kindSets(c)
	isolated := held &^ pairs &^ near(held)

	target := 99 // the hand's own shanten, asked only when needed
	lower := -1  // a bound no discard can go below
	if d.known && d.kind < tile.NumKinds {
		lower = d.before - 1
		if isolated.Has(d.kind) {
			// An isolated draw: the standard shanten is the one before it,
			// so only seven pairs or thirteen orphans (unreachable but for
			// a closed hand) can be lower.
			target = min(d.before, specialShanten(c))
		}
	}
	best, bestSh := tile.Kind(0), 99
	// try discards a tile of kind k and reports whether the search is over.
	try := func(k tile.Kind) bool {
		var sh int
		if d.known && k == d.kind {
			sh = d.before
		} else {
			c[k]--
			sh = judge.Shanten(c)
			c[k]++
		}
		if sh < bestSh {
			best, bestSh = k, sh
		}
		if sh <= lower {
			return true
		}
		if target == 99 {
			target = judge.Shanten(c)
		}
		return sh <= target
	}
	for v := uint64(kinds & isolated); v != 0; v &= v - 1 {
		if try(tile.Kind(bits.TrailingZeros64(v))) {
			return best, bestSh
		}
	}

	// The rest, from the most isolated on. A copy of c with empty kinds
	// around each suit and each honour makes the kinds up to two steps
	// from any kind the four entries beside it (see padIndex).
	var pad [padSize]uint8
	for s := range 3 {
		copy(pad[13*s+2:13*s+11], c[9*s:9*s+9])
	}
	for j := range 7 {
		pad[padIndex[27+j]] = c[27+j]
	}
	// Keys iso<<6 | kind: the smallest key is the most isolated kind, the
	// lowest on ties. iso counts the other copies of the kind twice and,
	// in a suit, the tiles up to two steps away once.
	var keys [tile.NumKinds]uint16
	n := 0
	for v := uint64(kinds &^ isolated); v != 0; v &= v - 1 {
		k := bits.TrailingZeros64(v) % tile.NumKinds
		i := int(padIndex[k])
		iso := 2*int(c[k]) - 2 + int(pad[i-2]) + int(pad[i-1]) + int(pad[i+1]) + int(pad[i+2])
		keys[n] = uint16(max(iso, 0))<<6 | uint16(k)
		n++
	}
	for range n {
		// The smallest key not tried yet: usually one or two are tried,
		// so a selection beats a sort.
		m := 0
		for i := 1; i < n; i++ {
			if keys[i] < keys[m] {
				m = i
			}
		}
		k := tile.Kind(keys[m] & 63)
		keys[m] = 0xffff
		if try(k) {
			break
		}
	}
	return best, bestSh
}

// kindSets returns the kinds c holds once or more, and twice or more. It
// reads the counts eight kinds at a time, one byte a kind.
func kindSets(c *tile.Counts) (held, pairs tile.KindSet) {
	for i := range 5 {
		x := countWord(c, i)
		// Bit 0 of each byte: the kind is held (counts are 0..4), and held
		// twice or more; then the eight bits packed into one byte.
		one := (x | x>>1 | x>>2) & laneOnes
		two := (x>>1 | x>>2) & laneOnes
		held |= tile.KindSet(one*gatherLanes>>56) << (8 * i)
		pairs |= tile.KindSet(two*gatherLanes>>56) << (8 * i)
	}
	return held, pairs
}

// gatherLanes packs bit 0 of each byte of a word into the top byte: the
// multiplication moves bit 8i to bit 56+i, and nothing else there.
const gatherLanes = 0x0102040810204080

// countWord is kinds 8i to 8i+7 of c, one byte each (the last word holds
// two).
func countWord(c *tile.Counts, i int) uint64 {
	if i < 4 {
		return binary.LittleEndian.Uint64(c[8*i:])
	}
	return uint64(c[32]) | uint64(c[33])<<8
}

// near returns the numbered kinds with a kind of held up to two steps
// away in their suit.
func near(held tile.KindSet) tile.KindSet {
	h := held & suits
	return h<<1&^(ones|^suits) | // k-1
		h<<2&^(ones|twos|^suits) | // k-2
		h>>1&^nines | // k+1
		h>>2&^(eights|nines) // k+2
}

// Kind sets of the three suits: all their kinds, and their ones, twos,
// eights and nines.
const (
	suits  tile.KindSet = 1<<27 - 1
	ones   tile.KindSet = 1 | 1<<9 | 1<<18
	twos                = ones << 1
	eights              = ones << 7
	nines               = ones << 8
)

// specialShanten is the lower of judge.ShantenSevenPairs and
// judge.ShantenThirteenOrphans of the 3n+2 tiles c: for 14 tiles, 6 - pairs
// (plus one for each kind short of seven) and 13 - terminal and honour
// kinds (less one with a pair of them); unreachable for fewer. It reads
// the counts eight kinds at a time, one byte a kind, as the judge does.
func specialShanten(c *tile.Counts) int {
	var kinds, pairs, yaochu, yaochuPairs, total int
	for i := range 5 {
		x := countWord(c, i)
		// Bit 0 of each byte: the kind is held (counts are 0..4), and
		// held twice or more.
		one := (x | x>>1 | x>>2) & laneOnes
		two := (x>>1 | x>>2) & laneOnes
		kinds += bits.OnesCount64(one)
		pairs += bits.OnesCount64(two)
		yaochu += bits.OnesCount64(one & yaochuLanes[i])
		yaochuPairs += bits.OnesCount64(two & yaochuLanes[i])
		total += int(x * laneOnes >> 56)
	}
	if total != 14 {
		return judge.ShantenUnreachable
	}
	orphans := 13 - yaochu
	if yaochuPairs > 0 {
		orphans--
	}
	return min(6-pairs+max(0, 7-kinds), orphans)
}

const laneOnes = 0x0101010101010101

// yaochuLanes has bit 0 of the byte of each terminal and honour kind, in
// the words specialShanten reads.
var yaochuLanes = func() (l [5]uint64) {
	for k := range tile.Yaochu.All() {
		l[k/8] |= 1 << (8 * (k % 8))
	}
	return l
}()

// padSize and padIndex lay out discardFor's padded counts: the suits at
// 2..10, 15..23 and 28..36, the honours at 41, 44, ... 59, with empty
// kinds between.
const padSize = 62

var padIndex = func() (ix [tile.NumKinds]uint8) {
	for k := range ix {
		if k < 27 {
			ix[k] = uint8(k + 2 + 4*(k/9))
		} else {
			ix[k] = uint8(41 + 3*(k-27))
		}
	}
	return ix
}()

// ErrTooLong is returned by Play when a game does not end within its step
// budget.
var ErrTooLong = errors.New("bot: game too long")

// Play drives t with the bots until the game is over, dealing each round
// the wall next returns. It returns the number of steps taken. The table's
// events are dropped (every step's go into one buffer, see
// Table.StepInto); a host that needs them drives the table itself.
func Play(t *table.Table, bots *[table.NumSeats]Bot, next func() wall.Wall, maxSteps int) (int, error) {
	steps := 0
	var w wall.Wall
	var views [table.NumSeats]table.View
	var evs []table.Event // dropped: one buffer serves every step
	var err error
	var deciders [table.NumSeats]Decider
	for s, b := range bots {
		deciders[s], _ = b.(Decider)
	}
	for t.Phase() != table.GameOver {
		if steps >= maxSteps {
			return steps, ErrTooLong
		}
		steps++
		if t.Phase() == table.BetweenRounds {
			w = next()
			if evs, err = t.StepInto(evs[:0], table.Action{Type: table.Deal, Wall: &w}); err != nil {
				return steps, fmt.Errorf("bot: deal: %w", err)
			}
			continue
		}
		for s := range table.Seat(table.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			var a table.Action
			var ok bool
			if d := deciders[s]; d != nil {
				a, ok = d.Decide(t, s)
			} else {
				v := &views[s]
				t.ViewInto(s, v)
				a, ok = bots[s].Act(v)
			}
			if !ok {
				return steps, fmt.Errorf("bot: seat %d has nothing to do in %v", s, t.Phase())
			}
			if evs, err = t.StepInto(evs[:0], a); err != nil {
				return steps, fmt.Errorf("bot: seat %d: %w", s, err)
			}
			break
		}
	}
	return steps, nil
}
