package classical

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/record/recordtest"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// BenchmarkRecorderRetained reports the heap a recorder keeps after a
// whole game of four wind rounds (retained-B/rec) beside its snapshot's
// size.
func BenchmarkRecorderRetained(b *testing.B) {
	rec, _ := botGame(b, [32]byte{9, 9}, ct.Default)
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	var retained float64
	for range b.N {
		retained = recordtest.Retained(5, func() any { r, _ := botGame(b, [32]byte{9, 9}, ct.Default); return r })
	}
	b.ReportMetric(retained, "retained-B/rec")
	b.ReportMetric(float64(len(snap)), "snapshot-B")
	b.ReportMetric(float64(rec.Rounds()), "hands")
}

// BenchmarkRecorderGame is the cost of an export's record of a whole
// game.
func BenchmarkRecorderGame(b *testing.B) {
	rec, _ := botGame(b, [32]byte{9, 9}, ct.Default)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if g := rec.Game(); len(g.Rounds) != rec.Rounds() {
			b.Fatalf("%d hands", len(g.Rounds))
		}
	}
}
