package mcr

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/pack"
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

// TestRecorderKeepsHandsEncoded: between hands a recorder reaches no
// decoded hand or fan, and two Games are equal and leave it as it was; a
// recorder restored from a snapshot keeps its hands encoded too, and so
// does one restored from a snapshot as the recorder wrote it when it kept
// its hands decoded (the JSON of a Game).
func TestRecorderKeepsHandsEncoded(t *testing.T) {
	decoded := []reflect.Type{reflect.TypeFor[Hand](), reflect.TypeFor[Fan]()}
	rec, partial := playRecorder(t, 3, 3)
	if len(partial.Hands) != 1 {
		t.Fatalf("the record after the first hand has %d", len(partial.Hands))
	}
	recordtest.BetweenRounds(t, rec, func() any { return rec.Game() }, decoded...)
	want := rec.Game()
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	g := *want
	g.Entropy = nil // the recorder kept it apart
	raw, err := json.Marshal(struct {
		Game    *Game    `json:"game"`
		Entropy []string `json:"entropy,omitempty"`
		Over    bool     `json:"over"`
	}{&g, want.Entropy, true})
	if err != nil {
		t.Fatal(err)
	}
	recordtest.Restores(t, map[string][]byte{"snapshot": snap, "a Game's JSON": pack.AppendBytes(nil, raw)}, RestoreRecorder,
		func(r *Recorder) (any, error) { return r.Game(), r.Err() }, want, decoded...)
}
