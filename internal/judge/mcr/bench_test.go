package mcr

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

var update = flag.Bool("update", false, "rewrite testdata/bench_hands.txt")

const benchFile = "testdata/bench_hands.txt"

// benchHand is one line of the benchmark's hand set.
type benchHand struct {
	hand judge.Hand
	win  tile.Tile
	s    Situation
}

// benchLines generates the benchmark's hands: every worked example and
// exclusion hand of the tests (every fan family and special form), then
// complete hands drawn by a seeded generator. Each line is
// "hand win melds flags", "-" for no melds or flags.
func benchLines(t testing.TB) []string {
	var lines []string
	addCase := func(c scoreCase) {
		lines = append(lines, strings.Join([]string{c.hand, c.win, dash(strings.ReplaceAll(c.melds, " ", ",")), dash(strings.ReplaceAll(c.flags, " ", ","))}, " "))
	}
	families := make([]string, 0, len(scoreCases))
	for f := range scoreCases {
		families = append(families, f)
	}
	slices.Sort(families)
	for _, f := range families {
		for _, c := range scoreCases[f] {
			addCase(c)
		}
	}
	for _, e := range exclusions {
		addCase(exclusionHands[e.By])
	}
	rng := rand.New(rand.NewPCG(12, 1998))
	for n := 0; n < 300; {
		data := make([]byte, 24)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		h, w, s, ok := handFromBytes(data)
		if !ok {
			continue
		}
		if r := Score(&h, w, &s); !r.Win {
			continue
		}
		var melds []string
		for _, m := range h.Melds {
			melds = append(melds, meldString(m))
		}
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{s.Tsumo, "tsumo"}, {s.LastTile, "last"}, {s.Rinshan, "rinshan"}, {s.Chankan, "chankan"}, {s.Haitei, "haitei"}, {s.Houtei, "houtei"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		flags = append(flags, "seat="+s.SeatWind.String(), "round="+s.RoundWind.String(), fmt.Sprintf("flowers=%d", s.Flowers))
		lines = append(lines, strings.Join([]string{tile.Format(h.Concealed), w.String(), dash(strings.Join(melds, ",")), strings.Join(flags, ",")}, " "))
		n++
	}
	return lines
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func meldString(m judge.Meld) string {
	typ := map[judge.MeldType]string{judge.Chi: "chi", judge.Pon: "pon", judge.OpenKan: "kan", judge.AddedKan: "kan", judge.ClosedKan: "ankan"}[m.Type]
	return typ + ":" + tile.Format(m.Tiles[:m.Len()])
}

// TestBenchHands checks that the committed hand set is what benchLines
// generates (go test -update rewrites it) and that every hand is a win.
func TestBenchHands(t *testing.T) {
	want := strings.Join(benchLines(t), "\n") + "\n"
	if *update {
		if err := os.WriteFile(benchFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(benchFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: go test -run TestBenchHands -update", benchFile)
	}
	for _, h := range loadBenchHands(t) {
		if r := Score(&h.hand, h.win, &h.s); !r.Win {
			t.Errorf("%v + %v is not a win", tile.Format(h.hand.Concealed), h.win)
		}
	}
}

func loadBenchHands(t testing.TB) []benchHand {
	f, err := os.Open(benchFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var hs []benchHand
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		melds, flags := strings.ReplaceAll(fs[2], ",", " "), strings.ReplaceAll(fs[3], ",", " ")
		if melds == "-" {
			melds = ""
		}
		if flags == "-" {
			flags = ""
		}
		h, w := handOf(t, fs[0], fs[1], melds)
		hs = append(hs, benchHand{hand: h, win: w, s: situationOf(t, flags)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hs
}

// BenchmarkScoreMCR scores the committed hand set, one hand per op.
func BenchmarkScoreMCR(b *testing.B) {
	hs := loadBenchHands(b)
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for i := 0; b.Loop(); i++ {
		h := &hs[i%len(hs)]
		r := Score(&h.hand, h.win, &h.s)
		total += r.Total
	}
	if total == 0 {
		b.Fatal("nothing scored")
	}
}

// TestScoreAllocs checks that scoring allocates nothing, over the whole
// benchmark set.
func TestScoreAllocs(t *testing.T) {
	hs := loadBenchHands(t)
	i := 0
	if n := testing.AllocsPerRun(2*len(hs), func() {
		h := &hs[i%len(hs)]
		i++
		Score(&h.hand, h.win, &h.s)
	}); n != 0 {
		t.Errorf("Score allocates %v times per hand, want 0", n)
	}
}
