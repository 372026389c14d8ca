package record

import (
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
