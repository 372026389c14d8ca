package classical

import (
	"bufio"
	"flag"
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
//   - score_hands.txt: 2000 winning hands in parseLine's form, four sets
//     and a pair with melds of every type, every flag, bonus tiles, winds
//     and limits, and one in twenty a special hand;
//
//   - deal_hands.txt: 2000 hands of 13 tiles: three in four dealt from a
//     shuffled set of 136, most far from fishing; one in four a special
//     hand less a tile, some with a tile changed.
//
//     go test -run='^$' -bench=. -benchmem ./internal/judge/classical
var update = flag.Bool("update", false, "rewrite testdata/score_hands.txt and testdata/deal_hands.txt")

const benchHands = 2000

// genScoreHands builds n winning hands from a fixed seed.
func genScoreHands(n int) []string {
	rng := rand.New(rand.NewPCG(2026, 15))
	var out []string
	for len(out) < n {
		var h Hand
		var s Situation
		r := Rules{Limit: Limits[rng.IntN(len(Limits))]}
		s.SeatWind, s.RoundWind = tile.Wind(rng.IntN(4)), tile.Wind(rng.IntN(4))
		h.Bonus = BonusSet(rng.IntN(256) & rng.IntN(256))
		var win tile.Kind
		if rng.IntN(20) == 0 {
			c := slowSpecials[rng.IntN(len(slowSpecials))]
			kinds := []tile.Kind{}
			for k := tile.Kind(0); k < tile.NumKinds; k++ {
				if c[k] > 0 {
					kinds = append(kinds, k)
				}
			}
			win = kinds[rng.IntN(len(kinds))]
			c[win]--
			h.Concealed = c
			s.Tsumo = rng.IntN(2) == 0
		} else {
			// Kinds from one suit and honours now and then, for the
			// colour doubles.
			pick := func() tile.Kind { return tile.Kind(rng.IntN(tile.NumKinds)) }
			if rng.IntN(4) == 0 {
				suit := rng.IntN(3)
				pick = func() tile.Kind {
					if rng.IntN(3) == 0 {
						return tile.East + tile.Kind(rng.IntN(7))
					}
					return tile.Kind(9*suit + rng.IntN(9))
				}
			}
			var all, c tile.Counts
			nm := rng.IntN(5)
			var melds []Meld
			for len(melds) < 4 {
				k := pick()
				typ := MeldType(rng.IntN(4)) + 1
				if rng.IntN(2) == 0 {
					typ = 0 // a concealed set
				}
				if (typ == Chow || (typ == 0 && rng.IntN(2) == 0)) && k < 27 && k%9 <= 6 {
					if all[k] >= 4 || all[k+1] >= 4 || all[k+2] >= 4 {
						continue
					}
					all[k]++
					all[k+1]++
					all[k+2]++
					if len(melds) < nm {
						melds = append(melds, Meld{Type: Chow, Kind: k})
					} else {
						c[k]++
						c[k+1]++
						c[k+2]++
						melds = append(melds, Meld{})
					}
					continue
				}
				if typ == Chow || typ == 0 {
					typ = Pung
				}
				m := Meld{Type: typ, Kind: k}
				if int(all[k])+m.Len() > 4 {
					continue
				}
				all[k] += uint8(m.Len())
				if len(melds) < nm {
					melds = append(melds, m)
				} else {
					c[k] += 3
					all[k] -= uint8(m.Len() - 3)
					melds = append(melds, Meld{})
				}
			}
			for {
				k := pick()
				if all[k] <= 2 {
					all[k] += 2
					c[k] += 2
					break
				}
			}
			h.Melds = melds[:nm]
			// The winning tile: any tile of the concealed part.
			kinds := []tile.Kind{}
			for k := tile.Kind(0); k < tile.NumKinds; k++ {
				if c[k] > 0 {
					kinds = append(kinds, k)
				}
			}
			win = kinds[rng.IntN(len(kinds))]
			c[win]--
			h.Concealed = c
			s.Tsumo = rng.IntN(2) == 0
			kong := false
			for _, m := range h.Melds {
				kong = kong || m.Len() == 4
			}
			s.Rinshan = s.Tsumo && kong && rng.IntN(4) == 0
			s.Chankan = !s.Tsumo && rng.IntN(10) == 0
			s.Haitei = s.Tsumo && rng.IntN(10) == 0
			s.Houtei = !s.Tsumo && !s.Chankan && rng.IntN(10) == 0
		}
		s.OriginalCall = rng.IntN(20) == 0
		if res := Score(&h, win, &s, &r); !res.Win {
			panic("generated a hand that does not win: " + formatLine(&h, win, &s, &r))
		}
		out = append(out, formatLine(&h, win, &s, &r))
	}
	return out
}

// genDealHands builds n 13-tile hands from a fixed seed.
func genDealHands(n int) []string {
	rng := rand.New(rand.NewPCG(2026, 16))
	var out []string
	for len(out) < n {
		var h Hand
		if rng.IntN(4) == 0 {
			c := slowSpecials[rng.IntN(len(slowSpecials))]
			for {
				k := tile.Kind(rng.IntN(tile.NumKinds))
				if c[k] > 0 {
					c[k]--
					break
				}
			}
			if rng.IntN(3) == 0 {
				from, to := tile.Kind(rng.IntN(tile.NumKinds)), tile.Kind(rng.IntN(tile.NumKinds))
				if c[from] > 0 && c[to] < 4 {
					c[from]--
					c[to]++
				}
			}
			h.Concealed = c
		} else {
			var set []tile.Kind
			for k := tile.Kind(0); k < tile.NumKinds; k++ {
				set = append(set, k, k, k, k)
			}
			rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
			for _, k := range set[:13] {
				h.Concealed[k]++
			}
		}
		out = append(out, formatLine(&h, tile.NumKinds, &Situation{}, &Default))
	}
	return out
}

// TestBenchHands checks that the committed hand sets are what the
// generators write, and that every line reads back.
func TestBenchHands(t *testing.T) {
	for name, gen := range map[string]func(int) []string{"score_hands.txt": genScoreHands, "deal_hands.txt": genDealHands} {
		path := filepath.Join("testdata", name)
		want := strings.Join(gen(benchHands), "\n") + "\n"
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
			t.Errorf("%s differs from its generator (go test -run TestBenchHands -update)", path)
		}
	}
}

type benchHand struct {
	h   Hand
	win tile.Kind
	s   Situation
	r   Rules
}

func readBenchHands(b *testing.B, name string) []benchHand {
	b.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var hs []benchHand
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h, win, s, r, err := parseLine(sc.Text())
		if err != nil {
			b.Fatal(err)
		}
		hs = append(hs, benchHand{h, win, s, r})
	}
	return hs
}

// BenchmarkScoreClassical: a winning hand of score_hands.txt to the full
// result.
func BenchmarkScoreClassical(b *testing.B) {
	hs := readBenchHands(b, "score_hands.txt")
	b.ReportAllocs()
	b.ResetTimer()
	sink := 0
	for i := 0; b.Loop(); i++ {
		x := &hs[i%len(hs)]
		res := Score(&x.h, x.win, &x.s, &x.r)
		sink += res.Score
	}
	_ = sink
}

// BenchmarkFishing: the special hands a hand of deal_hands.txt fishes for.
func BenchmarkFishing(b *testing.B) {
	hs := readBenchHands(b, "deal_hands.txt")
	b.ReportAllocs()
	b.ResetTimer()
	var sink tile.KindSet
	for i := 0; b.Loop(); i++ {
		f := FishingFor(&hs[i%len(hs)].h)
		sink |= f.Waits[0] | f.Waits[1] | f.Waits[2]
	}
	_ = sink
}

// BenchmarkShanten and BenchmarkWaits: a hand of deal_hands.txt.
func BenchmarkShanten(b *testing.B) {
	hs := readBenchHands(b, "deal_hands.txt")
	b.ReportAllocs()
	b.ResetTimer()
	sink := 0
	for i := 0; b.Loop(); i++ {
		sink += Shanten(&hs[i%len(hs)].h)
	}
	_ = sink
}

func BenchmarkWaits(b *testing.B) {
	hs := readBenchHands(b, "deal_hands.txt")
	b.ReportAllocs()
	b.ResetTimer()
	var sink tile.KindSet
	for i := 0; b.Loop(); i++ {
		sink |= Waits(&hs[i%len(hs)].h)
	}
	_ = sink
}
