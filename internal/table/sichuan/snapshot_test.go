package sichuan

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// record plays a match from seed with random legal actions and returns
// every action, the events each caused, and the snapshot (encoded) taken
// before each deal and at the end.
type recorded struct {
	actions []Action
	events  [][]Event
	snaps   map[int][]byte // by the index of the next action
}

func recordMatch(t testing.TB, seed uint64, rules Rules) recorded {
	rng := rand.New(rand.NewPCG(seed, 3))
	tb, err := New(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	rec := recorded{snaps: map[int][]byte{}}
	snap := func() {
		s, err := tb.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		rec.snaps[len(rec.actions)] = b
	}
	for hands := 0; tb.Phase() != MatchOver; {
		var a Action
		if tb.Phase() == BetweenHands {
			snap()
			var ws [32]byte
			binary.LittleEndian.PutUint64(ws[:], seed)
			binary.LittleEndian.PutUint64(ws[8:], uint64(hands))
			w := NewWall(ws)
			a = Action{Type: Deal, Wall: &w}
			hands++
		} else {
			for s := range Seat(NumSeats) {
				if tb.Waiting(s) {
					legal := tb.Legal(s)
					a = pick(rng, legal)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		rec.actions = append(rec.actions, a)
		rec.events = append(rec.events, evs)
	}
	snap()
	return rec
}

// TestSnapshotResume restores every snapshot of recorded matches and plays
// the rest of the match on the restored table: the events, their Seq
// included, and the views are those of the original.
func TestSnapshotResume(t *testing.T) {
	for seed := range uint64(4) {
		rules := fuzzRules[seed%uint64(len(fuzzRules))]
		rules.Hands = 3
		rec := recordMatch(t, seed, rules)
		for at, b := range rec.snaps {
			var s Snapshot
			if err := s.UnmarshalBinary(b); err != nil {
				t.Fatalf("seed %d at %d: %v", seed, at, err)
			}
			again, _ := s.MarshalBinary()
			if !reflect.DeepEqual(again, b) {
				t.Fatalf("seed %d at %d: snapshot does not encode back to itself", seed, at)
			}
			tb, err := Restore(Config{Rules: rules}, s)
			if err != nil {
				t.Fatalf("seed %d at %d: %v", seed, at, err)
			}
			for i := at; i < len(rec.actions); i++ {
				evs, err := tb.Step(rec.actions[i])
				if err != nil {
					t.Fatalf("seed %d at %d: step %d %v: %v", seed, at, i, rec.actions[i], err)
				}
				if !reflect.DeepEqual(evs, rec.events[i]) {
					t.Fatalf("seed %d at %d: step %d: events %v, want %v", seed, at, i, evs, rec.events[i])
				}
			}
		}
	}
}

// TestSnapshotViews: a restored table shows every seat what the original
// does.
func TestSnapshotViews(t *testing.T) {
	rules := Default
	rules.Hands = 2
	tb, _ := New(Config{Rules: rules})
	rng := rand.New(rand.NewPCG(9, 9))
	for hands := 0; tb.Phase() != MatchOver; {
		if tb.Phase() == BetweenHands {
			s, err := tb.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			rt, err := Restore(Config{Rules: rules}, s)
			if err != nil {
				t.Fatal(err)
			}
			for seat := range Seat(NumSeats + 1) {
				if got, want := rt.View(seat), tb.View(seat); !reflect.DeepEqual(got, want) {
					t.Fatalf("seat %d: restored view %+v, want %+v", seat, got, want)
				}
			}
			w := NewWall([32]byte{byte(hands), 1})
			if _, err := tb.Step(Action{Type: Deal, Wall: &w}); err != nil {
				t.Fatal(err)
			}
			hands++
			continue
		}
		for s := range Seat(NumSeats) {
			if tb.Waiting(s) {
				if _, err := tb.Step(pick(rng, tb.Legal(s))); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

func TestSnapshotRefused(t *testing.T) {
	rec := recordMatch(t, 5, Default)
	var good Snapshot
	for at, b := range rec.snaps {
		if at > 0 {
			if err := good.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	tests := []struct {
		name string
		edit func(s *Snapshot)
	}{
		{"scores", func(s *Snapshot) { s.Scores[0]++ }},
		{"tile twice", func(s *Snapshot) { s.Last.Seats[0].Hand[0] = s.Last.Seats[1].Hand[0] }},
		{"phase", func(s *Snapshot) { s.Phase = Turn }},
		{"rules", func(s *Snapshot) { s.Rules.FanCap = 4 }},
		{"draws", func(s *Snapshot) { s.Last.Draws = LiveSize + 1 }},
		{"void", func(s *Snapshot) { s.Last.Seats[2].Void = 3 }},
		{"dealer", func(s *Snapshot) { s.Dealer = 4 }},
	}
	for _, tt := range tests {
		var s Snapshot
		b, _ := good.MarshalBinary()
		if err := s.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		tt.edit(&s)
		if _, err := Restore(Config{Rules: Default}, s); !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: Restore = %v, want ErrSnapshot", tt.name, err)
		}
	}
}

// FuzzSnapshot: UnmarshalBinary and Restore never panic, and whatever
// Restore accepts encodes back to the same bytes.
func FuzzSnapshot(f *testing.F) {
	rec := recordMatch(f, 1, Default)
	for _, b := range rec.snaps {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Snapshot
		if s.UnmarshalBinary(b) != nil {
			return
		}
		tb, err := Restore(Config{Rules: s.Rules}, s)
		if err != nil {
			return
		}
		s2, err := tb.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := s2.MarshalBinary()
		b1, _ := s.MarshalBinary()
		if !reflect.DeepEqual(b1, b2) {
			t.Fatalf("restored snapshot encodes differently")
		}
	})
}
