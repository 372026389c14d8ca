package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// discardSlow is discardFor's contract, the plain way: judge.Shanten for
// every kind, the lowest wins, then the most isolated, then the lowest kind.
func discardSlow(c *tile.Counts, kinds tile.KindSet) (tile.Kind, int) {
	iso := func(k tile.Kind) int {
		n := 2 * (int(c[k]) - 1)
		if k >= 27 {
			return n
		}
		num := int(k % 9)
		for j := int(k) - min(2, num); j <= int(k)+min(2, 8-num); j++ {
			if j != int(k) {
				n += int(c[j])
			}
		}
		return n
	}
	best, bestSh, bestIso := tile.Kind(0), 99, 99
	for k := range kinds.All() {
		c[k]--
		sh := judge.Shanten(c)
		c[k]++
		if sh < bestSh || sh == bestSh && iso(k) < bestIso {
			best, bestSh, bestIso = k, sh, iso(k)
		}
	}
	return best, bestSh
}

// randomHand deals n tiles from a set of 136, drawing from few kinds when
// narrow is set (pairs for seven pairs), and only terminals and honours
// when orphans is set.
func randomHand(rng *rand.Rand, n int, narrow, orphans bool) tile.Counts {
	var c tile.Counts
	var pool []tile.Kind
	switch {
	case orphans:
		for k := range tile.Yaochu.All() {
			pool = append(pool, k)
		}
		pool = append(pool, tile.Kind(rng.IntN(tile.NumKinds)), tile.Kind(rng.IntN(tile.NumKinds)))
	case narrow:
		for range 9 {
			pool = append(pool, tile.Kind(rng.IntN(tile.NumKinds)))
		}
	default:
		for k := range tile.Kind(tile.NumKinds) {
			pool = append(pool, k)
		}
	}
	for c.Total() < n {
		if k := pool[rng.IntN(len(pool))]; c[k] < 4 {
			c[k]++
		}
	}
	return c
}

// discardFor makes the choice of its plain contract on random hands:
// closed ones (where seven pairs and thirteen orphans are counted apart),
// hands with melds, hands where some kinds may not go, and with the lower
// bounds a table gives.
func TestDiscardFor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 30000 {
		size := []int{14, 14, 14, 11, 8, 5, 2}[i%7]
		c := randomHand(rng, size, i%3 == 1, i%5 == 2)
		kinds := c.Kinds()
		if i%11 == 0 && kinds.Len() > 1 {
			// A kind that may not go (kuikae).
			for k := range kinds.All() {
				kinds = kinds.Without(k)
				break
			}
		}
		wantK, wantSh := discardSlow(&c, kinds)
		d := drawn{}
		if i%4 != 0 {
			d = drawnOf(rng, &c)
		}
		before := c
		gotK, gotSh := discardFor(&c, kinds, d)
		if c != before {
			t.Fatalf("discardFor changed the counts")
		}
		if gotK != wantK || gotSh != wantSh {
			t.Fatalf("discardFor(%v, %v, %+v) = %v, %d; want %v, %d", &c, kinds, d, gotK, gotSh, wantK, wantSh)
		}
	}
}

// drawnOf makes one of c's kinds the drawn one, as a table would know it.
func drawnOf(rng *rand.Rand, c *tile.Counts) drawn {
	var held []tile.Kind
	for k := range c.Kinds().All() {
		held = append(held, k)
	}
	d := drawn{kind: held[rng.IntN(len(held))], known: true}
	c[d.kind]--
	d.before = judge.Shanten(c)
	c[d.kind]++
	return d
}

// BenchmarkDiscardFor chooses discards for random 14-tile hands, the draw
// known half the time.
func BenchmarkDiscardFor(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	hands := make([]tile.Counts, 1024)
	draws := make([]drawn, len(hands))
	for i := range hands {
		hands[i] = randomHand(rng, 14, false, false)
		if i%2 == 0 {
			draws[i] = drawnOf(rng, &hands[i])
		}
	}
	sum := 0
	for i := 0; b.Loop(); i++ {
		c := &hands[i%len(hands)]
		k, sh := discardFor(c, c.Kinds(), draws[i%len(hands)])
		sum += int(k) + sh
	}
	_ = sum
}

// specialShanten is the judge's seven pairs and thirteen orphans.
func TestSpecialShanten(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 20000 {
		c := randomHand(rng, []int{14, 11, 8}[i%3], i%4 == 1, i%4 == 2)
		want := min(judge.ShantenSevenPairs(&c), judge.ShantenThirteenOrphans(&c))
		if got := specialShanten(&c); got != want {
			t.Fatalf("specialShanten(%v) = %d, want %d", &c, got, want)
		}
	}
}
