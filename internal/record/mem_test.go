package record

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/record/recordtest"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
)

// longestGame is the steps of the longest of the shared real games (by
// rounds), with its rules: a whole hanchan, recorded as a table does.
func longestGame(tb testing.TB) (*replay.Game, table.Rules, []replay.Step) {
	tb.Helper()
	var best *replay.Game
	for _, line := range readLines(tb) {
		c, err := replay.Decode(line)
		if err != nil {
			tb.Fatal(err)
		}
		if best == nil || len(c.Rounds) > len(best.Rounds) {
			best = c
		}
	}
	rules, err := replay.Rules(best.Rules)
	if err != nil {
		tb.Fatal(err)
	}
	var steps []replay.Step
	replay.Watch(best, func(s replay.Step) {
		if s.Err == nil {
			steps = append(steps, s)
		}
	})
	return best, rules, steps
}

func recordAll(c *replay.Game, rules table.Rules, steps []replay.Step) *Recorder {
	rec := NewRecorder(c.ID, rules, c.StartScores)
	for _, s := range steps {
		rec.Step(s.Action, s.Events)
	}
	return rec
}

// BenchmarkRecorderRetained reports the heap a recorder keeps after a
// whole hanchan (retained-B/rec) beside its snapshot's size (snapshot-B).
func BenchmarkRecorderRetained(b *testing.B) {
	c, rules, steps := longestGame(b)
	snap, err := recordAll(c, rules, steps).AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	var retained float64
	for range b.N {
		retained = recordtest.Retained(50, func() any { return recordAll(c, rules, steps) })
	}
	b.ReportMetric(retained, "retained-B/rec")
	b.ReportMetric(float64(len(snap)), "snapshot-B")
	b.ReportMetric(float64(len(c.Rounds)), "rounds")
}

// BenchmarkRecorderGame is the cost of an export's record of a whole
// hanchan.
func BenchmarkRecorderGame(b *testing.B) {
	c, rules, steps := longestGame(b)
	rec := recordAll(c, rules, steps)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if g := rec.Game(); len(g.Rounds) != len(c.Rounds) {
			b.Fatalf("%d rounds, want %d", len(g.Rounds), len(c.Rounds))
		}
	}
}

// BenchmarkRecorderStep is the cost of recording a whole hanchan, step by
// step.
func BenchmarkRecorderStep(b *testing.B) {
	c, rules, steps := longestGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		recordAll(c, rules, steps)
	}
	b.ReportMetric(float64(len(steps)), "steps")
}

// BenchmarkRecorderStepSnapshot records a whole hanchan as a durable host
// does: a snapshot of the recorder at every round's end.
func BenchmarkRecorderStepSnapshot(b *testing.B) {
	c, rules, steps := longestGame(b)
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := NewRecorder(c.ID, rules, c.StartScores)
		for _, s := range steps {
			rec.Step(s.Action, s.Events)
			if rec.cur == nil && len(rec.ans) == 0 {
				var err error
				if buf, err = rec.AppendBinary(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// TestRecorderKeepsRoundsEncoded: between rounds a recorder reaches no
// decoded round or action (each finished round is kept encoded only); two
// Games are equal and leave the recorder as it was; and after the whole
// game the recorder retains about its snapshot's size, not the decoded
// rounds' (five times as much).
func TestRecorderKeepsRoundsEncoded(t *testing.T) {
	c, rules, steps := longestGame(t)
	rec := NewRecorder(c.ID, rules, c.StartScores)
	rounds := 0
	for i, s := range steps {
		rec.Step(s.Action, s.Events)
		if rec.Rounds() == rounds {
			continue
		}
		rounds = rec.Rounds()
		recordtest.BetweenRounds(t, rec, func() any { return rec.Game() }, reflect.TypeFor[Round](), reflect.TypeFor[Action](), reflect.TypeFor[table.Body]())
		if g := rec.Game(); len(g.Rounds) != rounds {
			t.Fatalf("after step %d: %d rounds recorded, the record has %d", i, rounds, len(g.Rounds))
		}
	}
	if rounds != len(c.Rounds) {
		t.Fatalf("%d rounds recorded, want %d", rounds, len(c.Rounds))
	}
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	retained := recordtest.Retained(20, func() any { return recordAll(c, rules, steps) })
	if limit := 2*float64(len(snap)) + 4096; retained > limit {
		t.Errorf("a recorder of %d rounds retains %.0f bytes, want at most %.0f (its snapshot: %d)", rounds, retained, limit, len(snap))
	}
}

// TestRestoredRecorderKeepsRoundsEncoded: a restored recorder keeps its
// rounds encoded through Game too, and its record is the original's.
func TestRestoredRecorderKeepsRoundsEncoded(t *testing.T) {
	c, rules, steps := longestGame(t)
	orig := recordAll(c, rules, steps)
	snap, err := orig.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RestoreRecorder(snap)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Game(), orig.Game(); rec.Err() != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("restored: record differs (Err %v)", rec.Err())
	}
	if recordtest.Reaches(rec, reflect.TypeFor[Round]()) {
		t.Fatal("a restored recorder holds a decoded round after Game")
	}
	again, err := rec.AppendBinary(nil)
	if err != nil || !bytes.Equal(again, snap) {
		t.Fatalf("restored, then Game: snapshot differs (%v)", err)
	}
}
