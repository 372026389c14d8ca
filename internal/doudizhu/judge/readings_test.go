package judge

import (
	"math/rand/v2"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
)

// readings is a second, naive reading of the rules: every way cards read
// as a play, each type tried by its definition alone. Classify and Answer
// are held against it.
func readings(m *card.Counts) []Play {
	n := m.Len()
	var out []Play
	add := func(t Type, r card.Rank, l int) {
		out = append(out, Play{Type: t, Rank: r, Len: uint8(l), Cards: *m})
	}
	only := func(r card.Rank, k uint8) bool { // m is k cards of rank r
		var c card.Counts
		c[r] = k
		return c == *m
	}
	for r := range card.Rank(card.NumRanks) {
		switch {
		case n == 1 && only(r, 1):
			add(Single, r, 1)
		case n == 2 && !r.Joker() && only(r, 2):
			add(Pair, r, 1)
		case n == 3 && only(r, 3):
			add(Trio, r, 1)
		case n == 4 && only(r, 4):
			add(Bomb, r, 1)
		}
		if m[r] >= 3 {
			rest := *m
			rest[r] -= 3
			if n == 4 && rest[r] == 0 {
				add(TrioSingle, r, 1)
			}
			if n == 5 && rest[r] == 0 {
				for x := range card.Rank(card.NumRanks) {
					if !x.Joker() && x != r && rest[x] == 2 {
						add(TrioPair, r, 1)
					}
				}
			}
		}
		if m[r] == 4 {
			rest := *m
			rest[r] = 0
			if n == 6 {
				add(FourTwoSingles, r, 1)
			}
			if n == 8 {
				pairs := 0
				for x := range rest {
					if rest[x] == 2 {
						pairs++
					}
				}
				if pairs == 2 {
					add(FourTwoPairs, r, 1)
				}
			}
		}
	}
	if n == 2 && m[card.BlackJoker] == 1 && m[card.RedJoker] == 1 {
		add(Rocket, 0, 1)
	}
	// Chains: every start and every length that fits.
	for s := card.Three; s <= card.Ace; s++ {
		for l := 1; int(s)+l-1 <= int(card.Ace); l++ {
			var chain [4]card.Counts // chain[k]: k cards of each rank s..s+l-1
			for k := 1; k <= 3; k++ {
				for r := s; r < s+card.Rank(l); r++ {
					chain[k][r] = uint8(k)
				}
			}
			if l >= 5 && chain[1] == *m {
				add(Straight, s, l)
			}
			if l >= 3 && chain[2] == *m {
				add(PairChain, s, l)
			}
			if l >= 2 && chain[3] == *m {
				add(Airplane, s, l)
			}
			if l < 2 || !m.Contains(&chain[3]) {
				continue
			}
			rest := *m
			rest.Sub(&chain[3])
			own := false
			for r := s; r < s+card.Rank(l); r++ {
				own = own || rest[r] > 0
			}
			if own {
				continue
			}
			if rest.Len() == l {
				add(AirplaneSingleWings, s, l)
			}
			pairs, other := 0, false
			for r := range rest {
				switch {
				case rest[r] == 2 && !card.Rank(r).Joker():
					pairs++
				case rest[r] != 0:
					other = true
				}
			}
			if pairs == l && !other {
				add(AirplanePairWings, s, l)
			}
		}
	}
	return out
}

// TestReadings holds Classify and Answer against the naive readings on
// random sets of cards, random and shaped like airplanes.
func TestReadings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() {
		n = 3000
	}
	var prevs []Play
	for i := range n {
		var m card.Counts
		if i%2 == 0 {
			m = randomHand(r, 1+r.IntN(20))
		} else {
			m = shaped(r)
		}
		rs := readings(&m)
		got := Classify(&m)
		want := Play{Cards: m, Len: 1}
		for _, p := range rs {
			if p.Len > want.Len || want.Type == Invalid || (p.Len == want.Len && p.Rank > want.Rank) {
				want = p
			}
		}
		if got != want {
			t.Fatalf("Classify(%s) = %v %v/%d, the readings %v", m.String(), got.Type, got.Rank, got.Len, rs)
		}
		for _, p := range rs {
			if p.Type != rs[0].Type && !(p.Type == Airplane || p.Type == AirplaneSingleWings) {
				t.Fatalf("%s reads as %v and %v", m.String(), rs[0].Type, p.Type)
			}
		}
		if got.Type != Invalid && len(prevs) < 4000 {
			prevs = append(prevs, got)
		}
		// Answer: some reading beats prev, and the answer is the highest.
		for range 3 {
			if len(prevs) == 0 {
				break
			}
			prev := &prevs[r.IntN(len(prevs))]
			var best *Play
			for j := range rs {
				if Beats(&rs[j], prev) && (best == nil || rs[j].Rank > best.Rank) {
					best = &rs[j]
				}
			}
			a, ok := Answer(&m, prev)
			if ok != (best != nil) || (ok && a != *best) {
				t.Fatalf("Answer(%s, %s %v) = %v %v, the readings %v", m.String(), prev.String(), prev.Type, a, ok, rs)
			}
		}
	}
}

// shaped draws cards shaped like a play with a chain of trios: n
// consecutive trios and n to 2n more cards.
func shaped(r *rand.Rand) card.Counts {
	var m card.Counts
	l := 2 + r.IntN(4)
	s := r.IntN(int(card.Ace) - l + 2)
	for k := s; k < s+l; k++ {
		m[k] = 3
	}
	for extra := l + r.IntN(l+1); extra > 0; extra-- {
		x := card.Rank(r.IntN(card.NumRanks))
		if int(m[x]) < x.Copies() {
			m[x]++
		}
	}
	return m
}
