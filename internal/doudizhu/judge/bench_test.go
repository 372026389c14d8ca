package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
)

// The fixed hands of the benchmarks: 20 cards, a landlord's hand after the
// kitty, from ordinary to rich in combinations.
var benchHands = []struct{ name, hand string }{
	{"plain", "3345567899TJQQKA22XD"},
	{"chains", "33445566778899TJQKA2"},
	{"trios", "33344455566678TTJJQD"},
	{"bombs", "3333444455556666789T"},
}

// BenchmarkLegalLead lists every legal lead of a 20-card hand into a
// reused buffer.
func BenchmarkLegalLead(b *testing.B) {
	for _, bh := range benchHands {
		h := card.MustParse(bh.hand)
		buf := AppendLegal(nil, &h, nil)
		b.Run(bh.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(len(buf)), "plays")
			for b.Loop() {
				buf = AppendLegal(buf[:0], &h, nil)
			}
		})
	}
}

// BenchmarkLegalAnswer lists the answers of a 20-card hand to plays of
// several types.
func BenchmarkLegalAnswer(b *testing.B) {
	prevs := []string{"3", "44", "5556", "34567", "334455", "33344456", "2222", "9TJQK"}
	for _, bh := range benchHands {
		h := card.MustParse(bh.hand)
		var buf []Play
		ps := make([]Play, len(prevs))
		for i, s := range prevs {
			c := card.MustParse(s)
			ps[i] = Classify(&c)
			buf = AppendLegal(buf, &h, &ps[i])
		}
		b.Run(bh.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				buf = AppendLegal(buf[:0], &h, &ps[i])
				if i++; i == len(ps) {
					i = 0
				}
			}
		})
	}
}

func BenchmarkClassify(b *testing.B) {
	c := card.MustParse("33344455566678TJ")
	for b.Loop() {
		Classify(&c)
	}
}
