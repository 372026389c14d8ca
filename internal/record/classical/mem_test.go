package classical

import (
	"encoding/json"
	"reflect"
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

// TestRecorderKeepsHandsEncoded: between hands, mid-game and after it, a
// recorder reaches no decoded hand, action or score line, and two Games
// are equal and leave it as it was; a recorder restored from a snapshot
// keeps its hands encoded too, and so does one restored from a snapshot
// as the recorder wrote it when it kept its hands decoded (the JSON of a
// Game).
func TestRecorderKeepsHandsEncoded(t *testing.T) {
	decoded := []reflect.Type{reflect.TypeFor[Round](), reflect.TypeFor[Action](), reflect.TypeFor[Line]()}
	rules := ct.Default
	rules.Rounds = 1
	rec, _ := botGame(t, [32]byte{9, 9}, rules)
	recordtest.BetweenRounds(t, rec, func() any { return rec.Game() }, decoded...)
	want := rec.Game()
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	old, err := json.Marshal(struct {
		Game *Game `json:"game"`
		Over bool  `json:"over"`
	}{want, true})
	if err != nil {
		t.Fatal(err)
	}
	recordtest.Restores(t, map[string][]byte{"snapshot": snap, "a Game's JSON": old}, RestoreRecorder,
		func(r *Recorder) (any, error) { return r.Game(), r.Err() }, want, decoded...)
	// Mid-game: the partial record of a recorder restored between hands.
	mid := *want
	mid.Rounds = mid.Rounds[:2]
	mid.FinalScores, mid.Entropy = nil, nil
	b, err := json.Marshal(struct {
		Game *Game `json:"game"`
		Over bool  `json:"over"`
	}{&mid, false})
	if err != nil {
		t.Fatal(err)
	}
	back, err := RestoreRecorder(b)
	if err != nil {
		t.Fatal(err)
	}
	recordtest.BetweenRounds(t, back, func() any { return back.Game() }, decoded...)
	if g := back.Game(); !g.Partial || !reflect.DeepEqual(g.Rounds, mid.Rounds) {
		t.Fatalf("mid-game: partial %t, %d hands", g.Partial, len(g.Rounds))
	}
}
