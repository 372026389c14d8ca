package sichuan_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/record/recordtest"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
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

// TestRecorderKeepsHandsEncoded: between hands, mid-match and after it, a
// recorder reaches no decoded hand or action, and two Games are equal and
// leave it as it was; a recorder restored from a snapshot keeps its hands
// encoded too, and so does one restored from a snapshot as the recorder
// wrote it when it kept its hands decoded (the JSON of a Game).
func TestRecorderKeepsHandsEncoded(t *testing.T) {
	decoded := []reflect.Type{reflect.TypeFor[rsc.Round](), reflect.TypeFor[rsc.Action]()}
	mid, _ := play(t, sc.Default, 2)
	recordtest.BetweenRounds(t, mid, func() any { return mid.Game() }, decoded...)
	rec, _ := play(t, sc.Default, 0)
	recordtest.BetweenRounds(t, rec, func() any { return rec.Game() }, decoded...)
	want := rec.Game()
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	old, err := json.Marshal(struct {
		Game *rsc.Game `json:"game"`
		Over bool      `json:"over"`
	}{want, true})
	if err != nil {
		t.Fatal(err)
	}
	recordtest.Restores(t, map[string][]byte{"snapshot": snap, "a Game's JSON": old}, rsc.RestoreRecorder,
		func(r *rsc.Recorder) (any, error) { return r.Game(), r.Err() }, want, decoded...)
}
