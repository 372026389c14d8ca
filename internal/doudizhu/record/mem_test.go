package record

import (
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/bot"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record/recordtest"
)

type step struct {
	a   table.Action
	evs []table.Event
}

var server = [32]byte{5, 5}

// playMatch plays a match of deals deals of bots as a host deals them
// and returns its steps.
func playMatch(tb testing.TB, deals int) []step {
	tb.Helper()
	rules := table.Classic
	rules.Deals = deals
	eng, err := table.New(table.Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	seed := fair.TableSeed(server, [fair.Seats][]byte{{1}, {2}, {3}})
	var bots [table.NumSeats]bot.Bot
	var steps []step
	for n := uint32(0); eng.Phase() != table.MatchOver; {
		if len(steps) > 100_000 {
			tb.Fatal("the match does not end")
		}
		var a table.Action
		if eng.Phase() == table.BetweenDeals {
			rs := fair.RoundSeed(seed, n)
			dk := deck.New(rs)
			a = table.Action{Type: table.Deal, Deck: &dk, Commitment: fair.Commit(rs, "t-1", n)}
			n++
		} else {
			s := eng.ToAct()
			v := eng.View(s)
			if a, err = bots[s].Act(&v); err != nil {
				tb.Fatal(err)
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			tb.Fatalf("%v: %v", a, err)
		}
		steps = append(steps, step{a, slices.Clone(evs)})
	}
	return steps
}

func recordAll(steps []step) *Recorder {
	rec := NewRecorder(table.Classic, server)
	rec.SetTable("t-1", [][]byte{{1}, {2}, {3}})
	for _, s := range steps {
		rec.Step(s.a, s.evs)
	}
	return rec
}

// BenchmarkRecorderRetained reports the heap a recorder keeps after a
// whole match of 16 deals (retained-B/rec) beside its snapshot's size.
func BenchmarkRecorderRetained(b *testing.B) {
	steps := playMatch(b, 16)
	snap, err := recordAll(steps).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	var retained float64
	for range b.N {
		retained = recordtest.Retained(50, func() any { return recordAll(steps) })
	}
	b.ReportMetric(retained, "retained-B/rec")
	b.ReportMetric(float64(len(snap)), "snapshot-B")
}

// BenchmarkRecorderRecord is the cost of an export's record of a whole
// match.
func BenchmarkRecorderRecord(b *testing.B) {
	rec := recordAll(playMatch(b, 16))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if r := rec.Record([3]string{"a", "b", "c"}); len(r.Deals) != 16 {
			b.Fatalf("%d deals", len(r.Deals))
		}
	}
}
