package judge

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func readingsString(rs []Reading) string {
	ss := make([]string, len(rs))
	for i, r := range rs {
		ss[i] = r.String()
	}
	slices.Sort(ss)
	return strings.Join(ss, " | ")
}

func TestReadings(t *testing.T) {
	tests := []struct {
		hand string
		want string // readings, sorted, separated by " | "
	}{
		{"11m", "11m"},
		{"12m", ""},
		{"11z", "11z"}, // four melds called: the pair alone
		{"1111m", ""},  // 3n+1 tiles have no reading
		{"11222z", "11z 222z"},
		{"1122z", ""},
		{"11123m", "11m 123m"},
		// Triplets or identical runs.
		{"111222333m55z", "55z 111m 222m 333m | 55z 123m 123m 123m"},
		{"112233m55z", "55z 123m 123m"},
		{"22334455m", "22m 345m 345m | 55m 234m 234m"},
		// Nine gates plus 1m: four 1m leave no room for the pair 11m.
		{"11112345678999m", "99m 111m 123m 456m 789m"},
		// Plus 5m only with the pair 55m.
		{"11123455678999m", "55m 111m 234m 678m 999m"},
		// 1234 x3 + 55: the pair takes 2m with 111 234 345 345, or 5m with
		// three readings of 111222333444.
		{"11122233344455m", "22m 111m 234m 345m 345m | 55m 111m 222m 333m 444m | " +
			"55m 111m 234m 234m 234m | 55m 123m 123m 123m 444m"},
		{"11112222333344m", "11m 123m 123m 234m 234m | 44m 111m 123m 222m 333m | 44m 123m 123m 123m 123m"},
		// The most readings 14 tiles can have (see TestReadingsBound).
		{"66677778888999m", "66m 678m 777m 888m 999m | 66m 678m 789m 789m 789m | " +
			"99m 666m 777m 789m 888m | 99m 678m 678m 678m 789m"},
		{"123m456p789s11122z", "22z 123m 456p 789s 111z"},
		{"123456789m1234z", ""},
		{"11223344556677z", ""}, // seven pairs is not a standard reading
		{"19m19p19s12345677z", ""},
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		got := readingsString(Readings(&c, nil))
		if got != tt.want {
			t.Errorf("Readings(%s) = %q, want %q", tt.hand, got, tt.want)
		}
	}
}

// bruteReadings is the oracle of Readings: it tries every pair and every
// multiset of sets (taken in nondecreasing order of an index of all 55
// possible sets) that uses exactly the tiles of c.
func bruteReadings(c *tile.Counts) []Reading {
	type set struct {
		g     Group
		kinds [3]tile.Kind
	}
	var sets []set
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		sets = append(sets, set{Group{Triplet, k}, [3]tile.Kind{k, k, k}})
		if k < 27 && k%9 <= 6 {
			sets = append(sets, set{Group{Run, k}, [3]tile.Kind{k, k + 1, k + 2}})
		}
	}
	n := c.Total()
	if n%3 != 2 || n > 14 {
		return nil
	}
	var out []Reading
	h := *c
	var cur Reading
	var rec func(from, left int)
	rec = func(from, left int) {
		if left == 0 {
			out = append(out, cur)
			return
		}
		for i := from; i < len(sets); i++ {
			ok := true
			for _, k := range sets[i].kinds {
				if h[k] == 0 {
					ok = false
				}
				h[k]--
			}
			if ok {
				cur.Groups[cur.N] = sets[i].g
				cur.N++
				rec(i, left-1)
				cur.N--
			}
			for _, k := range sets[i].kinds {
				h[k]++
			}
		}
	}
	for p := tile.Kind(0); p < tile.NumKinds; p++ {
		if h[p] < 2 {
			continue
		}
		h[p] -= 2
		cur = Reading{Pair: p}
		rec(0, (n-2)/3)
		h[p] += 2
	}
	return out
}

// randomCompleteCounts builds a random complete hand of n sets and a pair
// (at most four of a kind), or false when the draw went over.
func randomCompleteCounts(r *rand.Rand, sets int, oneSuit bool) (tile.Counts, bool) {
	var c tile.Counts
	kind := func() tile.Kind {
		if oneSuit {
			return tile.Kind(r.IntN(9))
		}
		return tile.Kind(r.IntN(tile.NumKinds))
	}
	p := kind()
	c[p] += 2
	for range sets {
		k := kind()
		if r.IntN(2) == 0 && k < 27 && k%9 <= 6 {
			c[k]++
			c[k+1]++
			c[k+2]++
		} else {
			c[k] += 3
		}
	}
	for _, v := range c {
		if v > 4 {
			return c, false
		}
	}
	return c, true
}

func TestReadingsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for checked < 5000 {
		c, ok := randomCompleteCounts(r, r.IntN(5), r.IntN(2) == 0)
		if !ok {
			continue
		}
		checked++
		got := readingsString(Readings(&c, nil))
		want := readingsString(bruteReadings(&c))
		if got != want {
			t.Fatalf("Readings(%s) = %q, want %q", c.String(), got, want)
		}
	}
}

func FuzzReadings(f *testing.F) {
	for _, s := range []string{"111222333m55z", "66677778888999m", "123m456p789s11122z", "11223344556677z", "1112345678999m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := tile.Parse(s)
		if err != nil {
			return
		}
		c := tile.CountsOf(ts)
		for _, v := range c {
			if v > 4 {
				return
			}
		}
		rs := Readings(&c, nil)
		if got, want := readingsString(rs), readingsString(bruteReadings(&c)); got != want {
			t.Fatalf("Readings(%s) = %q, want %q", c.String(), got, want)
		}
		if len(rs) > maxReadings {
			t.Fatalf("Readings(%s) has %d readings, more than maxReadings %d", c.String(), len(rs), maxReadings)
		}
		if n := c.Total(); n%3 == 2 && n <= 14 {
			special := n == 14 && (isSevenPairs(&c) || isThirteenOrphans(&c))
			if complete := Complete(&c); complete != (len(rs) > 0 || special) {
				t.Fatalf("Readings(%s) has %d readings, but Complete = %v", c.String(), len(rs), complete)
			}
		}
	})
}

// TestReadingsBound proves maxReadings: a reading is a reading of each suit
// apart (honours read one way only), so the most readings a hand can have
// is the most, over every split of 14 tiles among the suits, of the product
// of each suit's most readings for its share. Every single-suit shape of
// up to 14 tiles is tried.
func TestReadingsBound(t *testing.T) {
	var most [15]int // most readings of a single-suit shape of n tiles
	var c tile.Counts
	var rec func(k, total int)
	rec = func(k, total int) {
		if k == 9 {
			if total == 0 || total%3 == 1 || (total%3 == 0 && total > 12) {
				return
			}
			cc := c
			if total%3 == 0 {
				cc[tile.East] = 2 // an honour pair makes the shape a hand
			}
			most[total] = max(most[total], len(Readings(&cc, nil)))
			return
		}
		for v := 0; v <= 4 && total+v <= 14; v++ {
			c[k] = uint8(v)
			rec(k+1, total+v)
		}
		c[k] = 0
	}
	rec(0, 0)
	most[0] = 1
	bound := 0
	for a := 0; a <= 14; a++ {
		for b := 0; a+b <= 14; b++ {
			for d := 0; a+b+d <= 14; d++ {
				bound = max(bound, most[a]*most[b]*most[d])
			}
		}
	}
	if bound != maxReadings {
		t.Errorf("the most readings of 14 tiles is %d, maxReadings is %d", bound, maxReadings)
	}
}
