package sichuan

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The benchmarks run over two fixed hand sets in testdata, written by the
// generators below (go test -run TestBenchHands -update rewrites them):
//
//   - score_hands.txt: 2000 winning hands, "void concealed melds | win
//     flags cap=N", four sets and a pair or seven pairs of the two live
//     suits, melds of every type, every fan and every flag;
//
//   - deal_hands.txt: 2000 dealt hands of 13 tiles from a shuffled set of
//     108, void the suit with the fewest tiles: what a table asks about
//     after a discard, most of them far from tenpai.
//
//     go test -run='^$' -bench=. -benchmem ./internal/judge/sichuan
var update = flag.Bool("update", false, "rewrite testdata/score_hands.txt and testdata/deal_hands.txt")

const benchHands = 2000

// scoreHand is one line of score_hands.txt.
type scoreHand struct {
	h   Hand
	win tile.Kind
	s   Situation
	r   Rules
}

// genScoreHands builds n winning hands from a fixed seed.
func genScoreHands(n int) []string {
	rng := rand.New(rand.NewPCG(2026, 10))
	var out []string
	for len(out) < n {
		void := tile.Suit(rng.IntN(3))
		var kinds []tile.Kind
		for k := tile.Kind(0); k < 27; k++ {
			if tile.Suit(k/9) != void {
				kinds = append(kinds, k)
			}
		}
		if rng.IntN(5) == 0 { // one suit only, for qing_yi_se
			s := rng.IntN(2)
			kinds = kinds[9*s : 9*s+9]
		}
		pick := func() tile.Kind { return kinds[rng.IntN(len(kinds))] }
		var all, concealed tile.Counts
		var melds []string
		var ms []Meld
		fits := func(k tile.Kind, n uint8) bool { return all[k]+n <= 4 }
		if rng.IntN(6) == 0 {
			for pairs := 0; pairs < 7; {
				if k := pick(); fits(k, 2) {
					all[k] += 2
					concealed[k] += 2
					pairs++
				}
			}
		} else {
			nm := rng.IntN(5)
			for len(ms) < nm {
				m := Meld{Type: MeldType(rng.IntN(4)) + 1, Kind: pick()}
				if !fits(m.Kind, uint8(m.Len())) {
					continue
				}
				all[m.Kind] += uint8(m.Len())
				ms = append(ms, m)
				name := map[MeldType]string{Pon: "pon", OpenKan: "kan", AddedKan: "addkan", ClosedKan: "ankan"}[m.Type]
				melds = append(melds, name+":"+strings.Repeat(m.Kind.String()[:1], m.Len())+m.Kind.String()[1:])
			}
			for sets := nm; sets < 4; {
				k := pick()
				if rng.IntN(2) == 0 && k%9 <= 6 && fits(k, 1) && fits(k+1, 1) && fits(k+2, 1) && tile.Suit((k+2)/9) == tile.Suit(k/9) {
					for i := range tile.Kind(3) {
						all[k+i]++
						concealed[k+i]++
					}
					sets++
				} else if fits(k, 3) {
					all[k] += 3
					concealed[k] += 3
					sets++
				}
			}
			for {
				if k := pick(); fits(k, 2) {
					all[k] += 2
					concealed[k] += 2
					break
				}
			}
		}
		// The winning tile: any concealed tile.
		var ts []tile.Kind
		for k, v := range concealed {
			for range v {
				ts = append(ts, tile.Kind(k))
			}
		}
		win := ts[rng.IntN(len(ts))]
		concealed[win]--
		var flags []string
		kan := false
		for _, m := range ms {
			kan = kan || m.IsKan()
		}
		if rng.IntN(2) == 0 {
			flags = append(flags, "tsumo")
			if kan && rng.IntN(3) == 0 {
				flags = append(flags, "rinshan")
			}
			if rng.IntN(8) == 0 {
				flags = append(flags, "haitei")
			}
		} else {
			switch rng.IntN(8) {
			case 0:
				flags = append(flags, "after_kan")
			case 1:
				flags = append(flags, "chankan")
			}
			if rng.IntN(8) == 0 {
				flags = append(flags, "houtei")
			}
		}
		fanCap := 3 + max(0, rng.IntN(6)-3) // 3 mostly, some 4 and 5
		line := fmt.Sprintf("%s %s", void, concealed.String())
		if concealed.Total() == 0 {
			line = fmt.Sprintf("%s -", void)
		}
		for _, m := range melds {
			line += " " + m
		}
		line += " | " + win.String()
		for _, f := range flags {
			line += " " + f
		}
		out = append(out, fmt.Sprintf("%s cap=%d", line, fanCap))
	}
	return out
}

// genDealHands deals n hands of 13 tiles from a shuffled set of 108.
func genDealHands(n int) []string {
	rng := rand.New(rand.NewPCG(108, 13))
	var wall []tile.Kind
	for k := tile.Kind(0); k < 27; k++ {
		for range 4 {
			wall = append(wall, k)
		}
	}
	var out []string
	for range n {
		rng.Shuffle(len(wall), func(i, j int) { wall[i], wall[j] = wall[j], wall[i] })
		var c tile.Counts
		var per [3]int
		for _, k := range wall[:13] {
			c[k]++
			per[k/9]++
		}
		void := tile.Man
		for s := tile.Pin; s <= tile.Sou; s++ {
			if per[s] < per[void] {
				void = s
			}
		}
		out = append(out, fmt.Sprintf("%s %s", void, c.String()))
	}
	return out
}

func readHandLines(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func parseScoreHand(t testing.TB, line string) scoreHand {
	t.Helper()
	left, right, ok := strings.Cut(line, " | ")
	if !ok {
		t.Fatalf("bad line %q", line)
	}
	var sh scoreHand
	sh.h = hand(t, left)
	f := strings.Fields(right)
	sh.win = kind(t, f[0])
	sh.r = Default
	var flags []string
	for _, x := range f[1:] {
		if _, err := fmt.Sscanf(x, "cap=%d", &sh.r.FanCap); err != nil {
			flags = append(flags, x)
		}
	}
	sh.s = parseSit(t, strings.Join(flags, " "))
	return sh
}

func loadScoreHands(t testing.TB) []scoreHand {
	var out []scoreHand
	for _, l := range readHandLines(t, "score_hands.txt") {
		out = append(out, parseScoreHand(t, l))
	}
	return out
}

func loadDealHands(t testing.TB) []Hand {
	var out []Hand
	for _, l := range readHandLines(t, "deal_hands.txt") {
		out = append(out, hand(t, l))
	}
	return out
}

// TestBenchHands checks the benchmarks' hand sets: they are what the
// generators write, every hand of score_hands.txt wins (as the slow
// scorer agrees) and together they show every fan and every cap.
func TestBenchHands(t *testing.T) {
	for _, set := range []struct {
		name  string
		lines []string
	}{{"score_hands.txt", genScoreHands(benchHands)}, {"deal_hands.txt", genDealHands(benchHands)}} {
		want := strings.Join(set.lines, "\n") + "\n"
		path := filepath.Join("testdata", set.name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not what its generator writes: go test -run TestBenchHands -update", set.name)
		}
	}
	seen := map[Fan]int{}
	caps := map[int]bool{}
	for _, sh := range loadScoreHands(t) {
		r := Score(&sh.h, sh.win, &sh.s, &sh.r)
		if !r.Win || r != slowScore(&sh.h, sh.win, &sh.s, &sh.r) {
			t.Fatalf("Score(%s %v void %v, %v) = %+v", &sh.h.Concealed, sh.h.Melds, sh.h.Void, sh.win, r)
		}
		for _, l := range r.Lines() {
			seen[l.Fan]++
		}
		if r.RawFan > r.Fan {
			caps[sh.r.FanCap] = true
		}
	}
	for f := Gen; f < numFans; f++ {
		if seen[f] == 0 {
			t.Errorf("no hand scores %v", f)
		}
	}
	for _, c := range []int{3, 4, 5} {
		if !caps[c] {
			t.Errorf("no hand reaches the cap %d", c)
		}
	}
	t.Logf("fans over %d hands: %v", benchHands, seen)
}

func BenchmarkScoreSichuan(b *testing.B) {
	hands := loadScoreHands(b)
	Score(&hands[0].h, hands[0].win, &hands[0].s, &hands[0].r) // builds the judge's tables
	fan := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sh := &hands[i%len(hands)]
		r := Score(&sh.h, sh.win, &sh.s, &sh.r)
		fan += r.Fan
	}
}

// The analysis benchmarks run over the dealt hands: a table asks about
// every seat after every discard, mostly about hands far from tenpai.
func BenchmarkShanten(b *testing.B) {
	hands := loadDealHands(b)
	Shanten(&hands[0])
	sum := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sum += Shanten(&hands[i%len(hands)])
	}
}

func BenchmarkWaits(b *testing.B) {
	hands := loadDealHands(b)
	Waits(&hands[0])
	var all tile.KindSet
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		all |= Waits(&hands[i%len(hands)])
	}
}

func BenchmarkReady(b *testing.B) {
	hands := loadDealHands(b)
	Ready(&hands[0])
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if Ready(&hands[i%len(hands)]) {
			n++
		}
	}
}

// BenchmarkReadyTenpai and BenchmarkBestValue run over the winning hands
// without their winning tile: every one is tenpai.
func BenchmarkReadyTenpai(b *testing.B) {
	hands := loadScoreHands(b)
	Ready(&hands[0].h)
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if Ready(&hands[i%len(hands)].h) {
			n++
		}
	}
}

func BenchmarkCanWin(b *testing.B) {
	hands := loadScoreHands(b)
	CanWin(&hands[0].h, hands[0].win)
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sh := &hands[i%len(hands)]
		if CanWin(&sh.h, sh.win) {
			n++
		}
	}
}

func BenchmarkBestValue(b *testing.B) {
	hands := loadScoreHands(b)
	BestValue(&hands[0].h, &Default)
	sum := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sum += BestValue(&hands[i%len(hands)].h, &Default)
	}
}
