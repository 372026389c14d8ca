package hosting

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/record"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
)

var entropy = [][]byte{[]byte("alice"), nil, []byte("carol")}

func newGame(t *testing.T, rules table.Rules) *Game {
	t.Helper()
	g, err := NewGame(rules, [32]byte{42})
	if err != nil {
		t.Fatal(err)
	}
	g.Seed("table-1", entropy)
	return g
}

// step plays the next step as the host would: the system's deal, or the
// bot of the seat to act. It returns the events.
func step(t *testing.T, g *Game, b *Bot) []host.Out[table.Body] {
	t.Helper()
	p := g.Pending()
	var a table.Action
	switch p.Kind {
	case host.WaitSystem:
		a = g.Default(host.System)
	case host.WaitTurn:
		var err error
		if a, err = b.Act(p.Seats[0], g.View(p.Seats[0])); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("pending %+v", p)
	}
	outs, err := g.Apply(a)
	if err != nil {
		t.Fatalf("%v: %v", a, err)
	}
	return outs
}

// TestMatchRecordVerifies plays a match with the bot: every deal's deck is
// fair.RoundSeed of the table seed and committed with fair.Commit; a
// partial record carries neither the server seed nor the entropy and
// verifies as far as it goes; the whole record verifies, chain included;
// and tampering with any part of it fails.
func TestMatchRecordVerifies(t *testing.T) {
	for _, rules := range []table.Rules{{Name: "p", Deals: 4}, {Name: "r", Rob: true, Deals: 4, BombCap: 2}} {
		g := newGame(t, rules)
		b := NewBot().(*Bot)
		var e [fair.Seats][]byte
		copy(e[:], entropy)
		ts := fair.TableSeed([32]byte{42}, e)
		checkedPartial := false
		for !g.Over() {
			for _, o := range step(t, g, b) {
				if ds, ok := o.Body.(table.DealStarted); ok {
					seed := fair.RoundSeed(ts, uint32(ds.Index))
					if ds.Commitment != fair.Commit(seed, "table-1", uint32(ds.Index)) {
						t.Fatalf("deal %d: the commitment is not fair.Commit of its round seed", ds.Index)
					}
				}
				if o.Body == (table.Offer{}) || (o.To.Private && o.To.Seat < 0) {
					t.Fatalf("a bad out: %+v", o)
				}
			}
			if rec := recordOf(t, g); len(rec.Deals) == 2 && !checkedPartial {
				checkedPartial = true
				if rec.ServerSeed != "" || rec.Entropy != nil || rec.Over {
					t.Fatalf("a partial record reveals the server seed %q or the entropy %v", rec.ServerSeed, rec.Entropy)
				}
				if n, err := record.Verify(&rec); err != nil || n != 2 {
					t.Fatalf("partial record: %d deals, %v", n, err)
				}
			}
		}
		rec := recordOf(t, g)
		if n, err := record.Verify(&rec); err != nil || n < 4 || rec.ServerSeed == "" {
			t.Fatalf("record: %d deals, %v", n, err)
		}
		raw, _ := json.Marshal(rec)
		for _, tamper := range []struct {
			name string
			f    func(r *record.Record)
		}{
			{"server seed", func(r *record.Record) { r.ServerSeed = hex.EncodeToString(make([]byte, 32)) }},
			{"entropy", func(r *record.Record) { r.Entropy[1] = "00" }},
			{"a deal's seed", func(r *record.Record) { r.Deals[1].Seed = r.Deals[0].Seed }},
			{"a commitment", func(r *record.Record) { r.Deals[0].Commitment = r.Deals[1].Commitment }},
			{"a hand", func(r *record.Record) {
				r.Deals[0].Hands[0], r.Deals[0].Hands[1] = r.Deals[0].Hands[1], r.Deals[0].Hands[0]
			}},
			{"a move", func(r *record.Record) { r.Deals[0].Moves = r.Deals[0].Moves[1:] }},
			{"the scores", func(r *record.Record) { r.Scores[0]++ }},
			{"the table id", func(r *record.Record) { r.Table = "table-2" }},
			{"over without seeds", func(r *record.Record) { r.ServerSeed = "" }},
		} {
			var r record.Record
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			tamper.f(&r)
			if _, err := record.Verify(&r); !errors.Is(err, record.ErrVerify) {
				t.Errorf("%s: tampered %s verifies: %v", rules.Name, tamper.name, err)
			}
		}
	}
}

// TestSnapshotRestores takes a snapshot at every deal boundary, restores
// it into a new game and plays both on: the same events to the end.
func TestSnapshotRestores(t *testing.T) {
	g := newGame(t, table.Rules{Name: "p", Deals: 5})
	b, b2 := NewBot().(*Bot), NewBot().(*Bot)
	var copyG *Game
	for !g.Over() {
		if g.Boundary() && copyG == nil {
			snap, err := g.AppendSnapshot(nil)
			if err != nil {
				t.Fatal(err)
			}
			copyG = newGame(t, table.Rules{Name: "p", Deals: 5})
			if err := copyG.Restore(snap); err != nil {
				t.Fatal(err)
			}
		} else if !g.Boundary() {
			if _, err := g.AppendSnapshot(nil); err == nil {
				t.Fatal("a snapshot in the middle of a deal")
			}
		}
		outs := step(t, g, b)
		if copyG != nil {
			outs2 := step(t, copyG, b2)
			if !reflect.DeepEqual(outs, outs2) {
				t.Fatalf("the restored game parts: %v, %v", outs, outs2)
			}
		}
	}
	if copyG == nil || !copyG.Over() || !reflect.DeepEqual(recordOf(t, g), recordOf(t, copyG)) {
		t.Fatal("the restored game did not end with the same record")
	}
	other := newGame(t, table.Rules{Name: "q", Deals: 2})
	snap, _ := g.AppendSnapshot(nil)
	if err := other.Restore(snap); err == nil {
		t.Fatal("a snapshot restored into a game of other rules")
	}
}

// TestDefaultIsLegal: a silent seat's Default is accepted. (Silent seats
// all pass in the bidding and the deal is thrown in, so the bot bids.)
func TestDefaultIsLegal(t *testing.T) {
	g := newGame(t, table.Rules{Name: "r", Rob: true, Deals: 3})
	b := NewBot().(*Bot)
	for !g.Over() {
		p := g.Pending()
		seat := host.System
		if p.Kind == host.WaitTurn {
			seat = p.Seats[0]
		}
		if seat != host.System && g.View(seat).Phase == table.Bidding && !g.View(seat).HasBid {
			step(t, g, b)
			continue
		}
		if _, err := g.Apply(g.Default(seat)); err != nil {
			t.Fatalf("Default(%d): %v", seat, err)
		}
	}
}

// recordOf is g's record with seats a, b and c; a recorder error fails t.
func recordOf(t testing.TB, g *Game) record.Record {
	t.Helper()
	rec, err := g.Record([3]string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
