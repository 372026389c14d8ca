package mcr

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/wall"
)

// TestSnapshotResume snapshots a game between every two hands, restores it
// (through the binary encoding) and checks that the restored table plays
// on exactly as the original: the same events and the same views.
func TestSnapshotResume(t *testing.T) {
	rules := Rules{Name: "mcr_short", Hands: 6}
	cfg := Config{Rules: rules}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for hand := 0; a.Phase() != GameOver; hand++ {
		snap, err := a.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		enc, err := snap.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var dec Snapshot
		if err := dec.UnmarshalBinary(enc); err != nil {
			t.Fatalf("hand %d: %v", hand, err)
		}
		if !reflect.DeepEqual(dec, snap) {
			t.Fatalf("hand %d: snapshot decodes as %+v, want %+v", hand, dec, snap)
		}
		b, err := Restore(cfg, dec)
		if err != nil {
			t.Fatalf("hand %d: %v", hand, err)
		}
		for s := range Seat(NumSeats + 1) {
			if va, vb := a.View(s), b.View(s); !reflect.DeepEqual(va, vb) {
				t.Fatalf("hand %d: seat %d sees\n%+v\nafter restore, want\n%+v", hand, s, vb, va)
			}
		}
		w := wall.New144(seedOf(uint64(hand) + 100))
		act := Action{Type: Deal, Wall: &w}
		for {
			ea, err := a.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := b.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ea, eb) {
				t.Fatalf("after %v: restored table emits %v, want %v", act, eb, ea)
			}
			if a.Phase() == BetweenHands || a.Phase() == GameOver {
				break
			}
			var legal []Action
			for s := range Seat(NumSeats) {
				legal = a.AppendLegal(legal, s)
			}
			act = legal[rng.IntN(len(legal))]
		}
	}
}

func TestSnapshotRefused(t *testing.T) {
	cfg := Config{Rules: OneHand}
	tb, _ := New(cfg)
	w := wall.New144(seedOf(1))
	if _, err := tb.Step(Action{Type: Deal, Wall: &w}); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Snapshot(); !errors.Is(err, ErrPhase) {
		t.Errorf("Snapshot in play = %v, want ErrPhase", err)
	}
	good, _ := playRandom(t, OneHand, rand.New(rand.NewPCG(3, 3)), 100000)
	snap, err := good.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(s *Snapshot){
		"scores":     func(s *Snapshot) { s.Scores[0]++ },
		"phase":      func(s *Snapshot) { s.Phase = Turn },
		"hands":      func(s *Snapshot) { s.Hands = 0 },
		"rules":      func(s *Snapshot) { s.Rules.Hands = 16 },
		"tile twice": func(s *Snapshot) { s.Last.Seats[0].Hand[0] = s.Last.Seats[1].Hand[0] },
		"front":      func(s *Snapshot) { s.Last.Front = 3 },
		"flower":     func(s *Snapshot) { s.Last.Seats[2].Flowers = append(s.Last.Seats[2].Flowers, 1) },
		"hidden meld": func(s *Snapshot) {
			s.Last.Seats[0].Melds = append(s.Last.Seats[0].Melds, Meld{Type: MeldPon, Hidden: true})
		},
	} {
		s := snap
		l := *snap.Last
		for i := range l.Seats {
			l.Seats[i].Hand = clone(l.Seats[i].Hand)
			l.Seats[i].Melds = clone(l.Seats[i].Melds)
			l.Seats[i].Flowers = clone(l.Seats[i].Flowers)
		}
		s.Last = &l
		spoil(&s)
		if _, err := Restore(cfg, s); !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: Restore = %v, want ErrSnapshot", name, err)
		}
	}
	if _, err := Restore(cfg, snap); err != nil {
		t.Errorf("Restore(good) = %v", err)
	}
}

// FuzzSnapshot: decoding a snapshot and restoring it never panics, and a
// snapshot Restore accepts encodes to what was decoded.
func FuzzSnapshot(f *testing.F) {
	tb, _ := playRandom(f, Rules{Name: "mcr_two", Hands: 2}, rand.New(rand.NewPCG(9, 9)), 100000)
	snap, err := tb.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	enc, _ := snap.MarshalBinary()
	f.Add(enc)
	empty, _ := (&Snapshot{Rules: OneHand, Phase: BetweenHands}).MarshalBinary()
	f.Add(empty)
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Snapshot
		if err := s.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, ErrSnapshot) {
				t.Fatalf("UnmarshalBinary error %v is not ErrSnapshot", err)
			}
			return
		}
		restored, err := Restore(Config{Rules: s.Rules}, s)
		if err != nil {
			return
		}
		again, err := restored.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("restored %+v snapshots as %+v", s, again)
		}
	})
}
