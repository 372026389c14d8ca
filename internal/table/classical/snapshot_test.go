package classical

import (
	"errors"
	"reflect"
	"testing"
)

// TestSnapshotRestore plays games and, between every two hands, goes on
// with a table restored from the snapshot's binary form: the events and
// views must be those of the table that was never restored.
func TestSnapshotRestore(t *testing.T) {
	for seed := range uint64(3) {
		rules := Default
		rules.Rounds = 1
		a, _ := New(Config{Rules: rules})
		b, _ := New(Config{Rules: rules})
		hands := 0
		for steps := 0; a.Phase() != GameOver; steps++ {
			var act Action
			if a.Phase() == BetweenHands {
				snap, err := b.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				bin, _ := snap.MarshalBinary()
				var back Snapshot
				if err := back.UnmarshalBinary(bin); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, snap) {
					t.Fatalf("snapshot round trip: %+v, want %+v", back, snap)
				}
				if b, err = Restore(Config{Rules: rules}, back); err != nil {
					t.Fatal(err)
				}
				act = Action{Type: Deal, Wall: seedWall(seed, hands)}
				hands++
			} else {
				for s := range Seat(NumSeats) {
					if a.Waiting(s) {
						act, _ = a.Default(s)
						if l := a.Legal(s); l[0].Type == MahJong || l[0].Type == Fish {
							act = l[0]
						}
						break
					}
				}
			}
			ea, err := a.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := b.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ea, eb) {
				t.Fatalf("seed %d step %d: restored table's events %v, want %v", seed, steps, eb, ea)
			}
			for s := range Seat(NumSeats) {
				if va, vb := a.View(s), b.View(s); !reflect.DeepEqual(va, vb) {
					t.Fatalf("seed %d step %d: views differ for seat %d", seed, steps, s)
				}
			}
		}
	}
}

func TestRestoreRefuses(t *testing.T) {
	good := Snapshot{Rules: Default, Phase: BetweenHands, Seq: 9, Scores: [NumSeats]int{10, -10, 0, 0}}
	if _, err := Restore(Config{Rules: Default}, good); err != nil {
		t.Fatalf("Restore(good) = %v", err)
	}
	for name, s := range map[string]Snapshot{
		"in play":     {Rules: Default, Phase: Turn},
		"sum":         {Rules: Default, Phase: BetweenHands, Scores: [NumSeats]int{1}},
		"dealer":      {Rules: Default, Phase: BetweenHands, Dealer: 4},
		"round":       {Rules: Default, Phase: BetweenHands, Round: 4},
		"other rules": {Rules: Rules{Name: "x", Limit: 500, Rounds: 1}, Phase: BetweenHands},
	} {
		if _, err := Restore(Config{Rules: Default}, s); !errors.Is(err, ErrSnapshot) {
			t.Errorf("Restore(%s) = %v, want ErrSnapshot", name, err)
		}
	}
	var s Snapshot
	if err := s.UnmarshalBinary([]byte{1, 2, 3}); !errors.Is(err, ErrSnapshot) {
		t.Errorf("UnmarshalBinary(junk) = %v, want ErrSnapshot", err)
	}
}
