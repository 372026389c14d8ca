package mcr

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/record/recordtest"
)

// BenchmarkRecorderRetained reports the heap a recorder keeps after a
// whole game of 16 hands (retained-B/rec) beside its snapshot's size.
func BenchmarkRecorderRetained(b *testing.B) {
	rec, _ := playRecorder(b, 16, 3)
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	var retained float64
	for range b.N {
		retained = recordtest.Retained(5, func() any { r, _ := playRecorder(b, 16, 3); return r })
	}
	b.ReportMetric(retained, "retained-B/rec")
	b.ReportMetric(float64(len(snap)), "snapshot-B")
}

// BenchmarkRecorderGame is the cost of an export's record of a whole
// game.
func BenchmarkRecorderGame(b *testing.B) {
	rec, _ := playRecorder(b, 16, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if g := rec.Game(); len(g.Hands) != 16 {
			b.Fatalf("%d hands", len(g.Hands))
		}
	}
}
