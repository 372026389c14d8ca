package judge

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
)

func classify(s string) Play {
	c := card.MustParse(s)
	return Classify(&c)
}

func TestClassify(t *testing.T) {
	tests := []struct {
		cards string
		typ   Type
		rank  string // "" for none
		len   int
	}{
		{"", Invalid, "", 1},
		{"3", Single, "3", 1},
		{"D", Single, "D", 1},
		{"X", Single, "X", 1},
		{"22", Pair, "2", 1},
		{"XD", Rocket, "", 1},
		{"DX", Rocket, "", 1},
		{"34", Invalid, "", 1},
		{"2X", Invalid, "", 1},
		{"777", Trio, "7", 1},
		{"2222", Bomb, "2", 1},
		{"3333", Bomb, "3", 1},
		{"3334", TrioSingle, "3", 1},
		{"A222", TrioSingle, "2", 1},
		{"333X", TrioSingle, "3", 1}, // a joker kicker
		{"333D", TrioSingle, "3", 1},
		{"3344", Invalid, "", 1},
		{"33344", TrioPair, "3", 1},
		{"22233", TrioPair, "2", 1},
		{"333XD", Invalid, "", 1}, // jokers never pair
		{"34567", Straight, "3", 5},
		{"T9JQK", Straight, "9", 5},
		{"TJQKA", Straight, "T", 5},
		{"JQKA2", Invalid, "", 1}, // no 2 in a chain
		{"QKA2X", Invalid, "", 1},
		{"3456789TJQKA", Straight, "3", 12},
		{"3456", Invalid, "", 1},
		{"34568", Invalid, "", 1},
		{"334455", PairChain, "3", 3},
		{"QQKKAA", PairChain, "Q", 3},
		{"KKAA22", Invalid, "", 1},
		{"3344", Invalid, "", 1},
		{"33445566778899TTJJ", PairChain, "3", 9},
		{"333444", Airplane, "3", 2},
		{"KKKAAA", Airplane, "K", 2},
		{"AAA222", Invalid, "", 1},
		{"333555", Invalid, "", 1},
		{"333444555666", Airplane, "3", 4}, // longest chain, not three trios with wings
		{"33344455", AirplaneSingleWings, "3", 2},
		{"33344456", AirplaneSingleWings, "3", 2},
		{"333444XD", AirplaneSingleWings, "3", 2}, // both jokers as wings
		{"3334443X", Invalid, "", 1},              // the airplane's own rank as a wing
		{"33344434", Invalid, "", 1},
		{"3334445555", Invalid, "", 1}, // pair wings must be distinct ranks
		{"333444555777", AirplaneSingleWings, "3", 3},
		{"3334445556667778", AirplaneSingleWings, "4", 4}, // two readings of length 4: the higher
		{"3334445556667777", AirplaneSingleWings, "3", 4}, // a quad as four wings
		{"3334445566", AirplanePairWings, "3", 2},
		{"33344455XD", Invalid, "", 1}, // jokers are no pair wing
		{"3334442266", AirplanePairWings, "3", 2},
		{"333444555667788", AirplanePairWings, "3", 3},
		{"3334446677", AirplanePairWings, "3", 2},
		{"AAA222", Invalid, "", 1},
		{"333345", FourTwoSingles, "3", 1},
		{"333344", FourTwoSingles, "3", 1}, // two singles that pair up: not a bomb
		{"2222XD", FourTwoSingles, "2", 1},
		{"33334455", FourTwoPairs, "3", 1},
		{"33334444", Invalid, "", 1}, // a quad never counts as two pairs
		{"33335555", Invalid, "", 1},
		{"3333445", Invalid, "", 1},
		{"33334456", Invalid, "", 1},
		{"3333XD44", Invalid, "", 1},
	}
	for _, tt := range tests {
		p := classify(tt.cards)
		rank := ""
		if p.Type != Invalid && p.Type != Rocket {
			rank = p.Rank.String()
		}
		if p.Type != tt.typ || rank != tt.rank || int(p.Len) != tt.len {
			t.Errorf("Classify(%q) = %v %q %d, want %v %q %d", tt.cards, p.Type, rank, p.Len, tt.typ, tt.rank, tt.len)
		}
	}
}

func TestAnswer(t *testing.T) {
	tests := []struct {
		play, prev string
		want       bool
	}{
		{"4", "3", true},
		{"3", "3", false},
		{"D", "X", true},
		{"X", "2", true},
		{"22", "AA", true},
		{"44", "3", false},
		{"4445", "3336", true},
		{"4445", "33366", false},
		{"44455", "33366", true},
		{"45678", "34567", true},
		{"456789", "34567", false}, // a straight must match the length
		{"TJQKA", "9TJQK", true},
		{"445566", "334455", true},
		{"3333", "TJQKA", true}, // a bomb beats any non-bomb
		{"3333", "22", true},
		{"4444", "3333", true},
		{"3333", "4444", false},
		{"XD", "2222", true},
		{"2222", "XD", false},
		{"XD", "XD", false},
		{"444555", "333444", true},
		{"44455566", "33344455", true},
		{"4445556677", "3334445566", true},
		{"4445556677", "33344455", false},
		{"444467", "333345", true},
		{"44446677", "33334455", true},
		{"44446677", "333345", false},
		{"444466", "33334455", false},
		{"33334444", "22", false}, // an invalid set of cards beats nothing
		// 333444555666 reads as a four-trio airplane and, as 444555666+333,
		// as three trios with single wings from 4.
		{"333444555666", "333444555789", true},
		{"333444555666", "444555666789", false},
		{"333444555666", "333444555666", false},
		{"444555666777", "333444555666", true},
		{"444555666777", "333444555789", true},
		{"333444555666", "34567", false},
	}
	for _, tt := range tests {
		c := card.MustParse(tt.play)
		prev := classify(tt.prev)
		if prev.Type == Invalid {
			t.Fatalf("prev %q is invalid", tt.prev)
		}
		if _, got := Answer(&c, &prev); got != tt.want {
			t.Errorf("Answer(%q, %q) = %v, want %v", tt.play, tt.prev, got, tt.want)
		}
	}
}

func legal(hand string, prev string) []string {
	h := card.MustParse(hand)
	var pp *Play
	if prev != "" {
		p := classify(prev)
		pp = &p
	}
	plays := AppendLegal(nil, &h, pp)
	Sort(plays)
	out := make([]string, len(plays))
	for i := range plays {
		out[i] = plays[i].String()
	}
	return out
}

func TestLegalExample(t *testing.T) {
	got := legal("3345577889TTJQKAX", "34567")
	want := []string{"789TJ", "89TJQ", "9TJQK", "TJQKA"}
	if !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", got, want)
	}
	got = legal("333444555666", "333444555789")
	want = []string{"333444555666"}
	if !slices.Equal(got, want) {
		t.Errorf("legal against wings = %v, want %v", got, want)
	}
	got = legal("3333XD", "22")
	want = []string{"XD", "3333"}
	if !slices.Equal(got, want) {
		t.Errorf("legal bombs = %v, want %v", got, want)
	}
	if got := legal("2222XD", "XD"); len(got) != 0 {
		t.Errorf("legal against the rocket = %v, want none", got)
	}
}

// bruteLegal is the oracle: every sub-multiset of the hand, judged by
// Lead or Answer.
func bruteLegal(h *card.Counts, prev *Play) []Play {
	var out []Play
	var sub card.Counts
	var walk func(r int)
	walk = func(r int) {
		if r == card.NumRanks {
			var p Play
			var ok bool
			if prev == nil {
				p, ok = Lead(&sub)
			} else {
				p, ok = Answer(&sub, prev)
			}
			if ok {
				out = append(out, p)
			}
			return
		}
		for k := uint8(0); k <= h[r]; k++ {
			sub[r] = k
			walk(r + 1)
		}
		sub[r] = 0
	}
	walk(0)
	Sort(out)
	return out
}

func randomHand(r *rand.Rand, n int) card.Counts {
	perm := r.Perm(card.NumCards)
	var s card.Set
	for _, c := range perm[:n] {
		s = s.With(card.Card(c))
	}
	return s.Counts()
}

// TestLegalBrute compares AppendLegal with the oracle on random hands,
// leading and answering a play of the other cards of the deck.
func TestLegalBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200
	if testing.Short() {
		n = 60
	}
	for range n {
		h := randomHand(r, 8+r.IntN(10))
		checkLegal(t, &h, nil)
		// Answer every play of the rest of the deck drawn from the leads
		// of a random other hand.
		var rest card.Counts
		for rk := range card.Rank(card.NumRanks) {
			rest[rk] = uint8(rk.Copies()) - h[rk]
		}
		other := randomSub(r, &rest, 6+r.IntN(12))
		leads := AppendLegal(nil, &other, nil)
		for j := 0; j < 8 && len(leads) > 0; j++ {
			prev := leads[r.IntN(len(leads))]
			checkLegal(t, &h, &prev)
		}
	}
}

func randomSub(r *rand.Rand, from *card.Counts, n int) card.Counts {
	var pool []card.Rank
	for rk := range card.Rank(card.NumRanks) {
		for range from[rk] {
			pool = append(pool, rk)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	var c card.Counts
	for _, rk := range pool[:min(n, len(pool))] {
		c[rk]++
	}
	return c
}

func checkLegal(t *testing.T, h *card.Counts, prev *Play) {
	t.Helper()
	got := AppendLegal(nil, h, prev)
	Sort(got)
	want := bruteLegal(h, prev)
	prevS := "lead"
	if prev != nil {
		prevS = prev.String() + " (" + prev.Type.String() + ")"
	}
	if len(got) != len(want) {
		t.Fatalf("AppendLegal(%s, %s): %d plays, oracle %d\n got %v\nwant %v", h.String(), prevS, len(got), len(want), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("AppendLegal(%s, %s)[%d] = %+v, oracle %+v", h.String(), prevS, i, got[i], want[i])
		}
	}
}

// TestLegalBruteWings exercises the two-reading airplanes, which random
// hands rarely hold.
func TestLegalBruteWings(t *testing.T) {
	hands := []string{"333444555666777XD2", "3334445556667778889", "33334444555566667", "333444555666777888",
		"3333444455556666XD22", "TTTJJJQQQKKKAAA22XD", "333444555666789TJ"}
	for _, hs := range hands {
		h := card.MustParse(hs)
		checkLegal(t, &h, nil)
		leads := AppendLegal(nil, &h, nil)
		for _, p := range leads {
			if p.Type == AirplaneSingleWings || p.Type == Airplane || p.Type == AirplanePairWings || p.Type == FourTwoSingles {
				checkLegal(t, &h, &p)
			}
		}
	}
}

// TestLeadMatchesClassify: a lead is listed under the reading Classify
// gives its cards.
func TestLeadMatchesClassify(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		h := randomHand(r, 20)
		for _, p := range AppendLegal(nil, &h, nil) {
			if c := Classify(&p.Cards); c != p {
				t.Fatalf("hand %s: listed %+v, Classify %+v", h.String(), p, c)
			}
		}
	}
}
