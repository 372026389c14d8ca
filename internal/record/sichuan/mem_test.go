package sichuan_test

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/record/recordtest"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// BenchmarkRecorderRetained reports the heap a recorder keeps after a
// whole match of 8 hands (retained-B/rec) beside its snapshot's size.
func BenchmarkRecorderRetained(b *testing.B) {
	rec, _ := play(b, sc.Default, 0)
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	var retained float64
	for range b.N {
		retained = recordtest.Retained(10, func() any { r, _ := play(b, sc.Default, 0); return r })
	}
	b.ReportMetric(retained, "retained-B/rec")
	b.ReportMetric(float64(len(snap)), "snapshot-B")
}

// BenchmarkRecorderGame is the cost of an export's record of a whole
// match.
func BenchmarkRecorderGame(b *testing.B) {
	rec, _ := play(b, sc.Default, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if g := rec.Game(); len(g.Rounds) != sc.Default.Hands {
			b.Fatalf("%d hands", len(g.Rounds))
		}
	}
}
