package classical

import (
	"reflect"
	"testing"

	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/table/classical/classicaltest"
)

// normalize makes views comparable: empty and nil slices alike, no Seq
// (the engine counts its own events, a stream the host's).
func normalize(v ct.View) ct.View {
	v.Seq = 0
	if len(v.Tiles) == 0 {
		v.Tiles = nil
	}
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
	for i := range v.Seats {
		s := &v.Seats[i]
		if len(s.Discards) == 0 {
			s.Discards = nil
		}
		if len(s.Melds) == 0 {
			s.Melds = nil
		}
		if len(s.Bonus) == 0 {
			s.Bonus = nil
		}
	}
	return v
}

// public is a seat's view without what only that seat sees: what a
// spectator's tracker must show.
func public(v ct.View) ct.View {
	v.Seat, v.Tiles, v.Drawn, v.HasDrawn, v.Legal = ct.NumSeats, nil, 0, false, nil
	return normalize(v)
}

// TestTrackerFollowsEngine plays whole games of bots on the engine and
// feeds every seat's tracker, and a spectator's, the events the seat
// would receive from the server (the step's events it may see, then the
// turn offer the host adds). After every step each tracker's view must
// equal the engine's.
func TestTrackerFollowsEngine(t *testing.T) {
	for seed := range uint64(3) {
		rules := ct.Default
		rules.Rounds = 1
		rules.FishingFirst = seed != 1
		eng, _ := ct.New(ct.Config{Rules: rules})
		var trackers [ct.NumSeats + 1]*Tracker
		for s := range trackers {
			trackers[s] = NewTracker(ct.Seat(s))
		}
		hands := 0
		var v ct.View
		for steps := 0; eng.Phase() != ct.GameOver; steps++ {
			if steps > 100_000 {
				t.Fatal("the game did not end")
			}
			claim := eng.Phase() == ct.ClaimWindow
			a, _ := classicaltest.Next(eng, seed, &hands, &v, botc.Efficient{}.Act)
			if claim {
				trackers[a.Seat].Answered()
			}
			evs, err := eng.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			bodies := make([]ct.Event, 0, len(evs)+1)
			bodies = append(bodies, evs...)
			if len(evs) > 0 {
				if s, ok := eng.ToAct(); ok {
					bodies = append(bodies, ct.Event{To: ct.Only(s), Body: ct.TurnOffer{Seat: s, Options: eng.Legal(s)}})
				}
			}
			for s, tr := range trackers {
				for _, e := range bodies {
					if s == ct.NumSeats && e.To.Private {
						continue
					}
					if s < ct.NumSeats && !e.To.Sees(ct.Seat(s)) {
						continue
					}
					if err := tr.Apply(e.Body); err != nil {
						t.Fatalf("seed %d step %d: seat %d: %v: %v", seed, steps, s, e, err)
					}
				}
			}
			for s := range ct.Seat(ct.NumSeats) {
				want := normalize(eng.View(s))
				if got := normalize(*trackers[s].View()); !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d step %d after %v: seat %d tracks\n%+v\nthe engine shows\n%+v", seed, steps, a, s, got, want)
				}
			}
			if got, want := normalize(*trackers[ct.NumSeats].View()), public(eng.View(0)); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: the spectator tracks\n%+v\nthe public view is\n%+v", seed, steps, got, want)
			}
		}
	}
}
