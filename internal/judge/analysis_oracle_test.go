package judge

import (
	"bufio"
	"os"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// analysisHands reads a file of hands in MPSZ notation, one a line.
func analysisHands(tb testing.TB, name string) []tile.Counts {
	tb.Helper()
	f, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var hands []tile.Counts
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ts, err := tile.Parse(sc.Text())
		if err != nil {
			tb.Fatalf("%s:%d: %v", name, len(hands)+1, err)
		}
		hands = append(hands, tile.CountsOf(ts))
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(hands) == 0 {
		tb.Fatalf("%s: no hands", name)
	}
	return hands
}

// withoutRun returns c without n of its tiles, taken in sorted order from
// the from-th: whole sets of a complete hand often go together, so many
// smaller hands stay complete or tenpai.
func withoutRun(c *tile.Counts, from, n int) tile.Counts {
	var kinds []tile.Kind
	for k, v := range c {
		for range v {
			kinds = append(kinds, tile.Kind(k))
		}
	}
	out := *c
	for i := range n {
		out[kinds[(from+i)%len(kinds)]]--
	}
	return out
}

// checkAgainstOracle compares every analysis of c with the slow search.
func checkAgainstOracle(t *testing.T, c *tile.Counts) {
	t.Helper()
	if got, want := Complete(c), slowComplete(c); got != want {
		t.Errorf("Complete(%s) = %v, want %v", c, got, want)
	}
	if got, want := Shanten(c), slowShanten(c); got != want {
		t.Errorf("Shanten(%s) = %d, want %d", c, got, want)
	}
	if got, want := ShantenStandard(c), slowShantenStandard(c); got != want {
		t.Errorf("ShantenStandard(%s) = %d, want %d", c, got, want)
	}
	if got, want := Waits(c), slowWaits(c); got != want {
		t.Errorf("Waits(%s) = %s, want %s", c, got, want)
	}
	if c.Total() >= 13 {
		if got, want := ShantenSevenPairs(c), shantenSevenPairs(c); got != want {
			t.Errorf("ShantenSevenPairs(%s) = %d, want %d", c, got, want)
		}
		if got, want := ShantenThirteenOrphans(c), shantenThirteenOrphans(c); got != want {
			t.Errorf("ShantenThirteenOrphans(%s) = %d, want %d", c, got, want)
		}
	}
}

// TestAgainstOracle runs the fast analysis against the slow search on the
// benchmark hands, on the 13-tile hands one tile short of each 14-tile
// hand, and on smaller hands (as beside melds) cut from all of them.
func TestAgainstOracle(t *testing.T) {
	for _, name := range []string{"hands14.txt", "hands13.txt"} {
		hands := analysisHands(t, "../../testdata/bench/"+name)
		for i := range hands {
			c := &hands[i]
			checkAgainstOracle(t, c)
			for cut := 3; cut < c.Total(); cut += 3 {
				small := withoutRun(c, i, cut)
				checkAgainstOracle(t, &small)
			}
			if c.Total() == 14 {
				for k, v := range c {
					if v > 0 {
						c[k]--
						if got, want := Waits(c), slowWaits(c); got != want {
							t.Errorf("Waits(%s) = %s, want %s", c, got, want)
						}
						c[k]++
					}
				}
			}
			if t.Failed() {
				t.FailNow()
			}
		}
	}
}
