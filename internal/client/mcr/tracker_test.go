package mcr

import (
	"reflect"
	"slices"
	"testing"

	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// normalize makes views comparable: no Seq, empty slices as nil.
func normalize(v tbl.View) tbl.View {
	v.Seq = 0
	if len(v.Tiles) == 0 {
		v.Tiles = nil
	}
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
	v.Legal = slices.Clone(v.Legal)
	for i := range v.Seats {
		s := &v.Seats[i]
		if len(s.Discards) == 0 {
			s.Discards = nil
		}
		if len(s.Melds) == 0 {
			s.Melds = nil
		}
		if len(s.Flowers) == 0 {
			s.Flowers = nil
		}
	}
	return v
}

// trackGame plays a game of bots on the engine and feeds every seat's
// tracker, and a spectator's, what a server would send it (the step's
// events it may see, then the turn offer of the seat to act); after every
// step each tracker's view must be the engine's.
func trackGame(t *testing.T, rules tbl.Rules, seed byte, seen map[string]int) {
	eng, err := tbl.New(tbl.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var trackers [tbl.NumSeats + 1]*Tracker
	for s := range trackers {
		trackers[s] = NewTracker(tbl.Seat(s))
	}
	var bots [tbl.NumSeats]bmcr.Player
	for steps := 0; eng.Phase() != tbl.GameOver; steps++ {
		if steps > 20000 {
			t.Fatal("game too long")
		}
		var a tbl.Action
		actor := -1
		if eng.Phase() == tbl.BetweenHands {
			w := wall.New144([32]byte{seed, byte(eng.Hands()), 0x77})
			a = tbl.Action{Type: tbl.Deal, Wall: &w}
		} else {
			for s := range tbl.Seat(tbl.NumSeats) {
				var ok bool
				if a, ok = bots[s].Decide(eng, s); ok {
					actor = int(s)
					break
				}
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatalf("step %d %v: %v", steps, a, err)
		}
		for _, e := range evs {
			switch b := e.Body.(type) {
			case tbl.Called:
				seen[b.Meld.Type.String()]++
			case tbl.Won:
				if b.Tsumo {
					seen["tsumo"]++
				} else if b.Chankan {
					seen["robbed"]++
				} else {
					seen["ron"]++
				}
			case tbl.FlowerSetAside:
				seen["flower"]++
			case tbl.HandEnded:
				seen[b.Kind.String()]++
			}
		}
		if actor >= 0 {
			trackers[actor].Answered()
		}
		if s, ok := eng.ToAct(); ok && len(evs) > 0 {
			if l := eng.Legal(s); len(l) > 0 {
				evs = append(evs, tbl.Event{To: tbl.Only(s), Body: tbl.TurnOffer{Seat: s, Options: l}})
			}
		}
		for s, tr := range trackers {
			for _, e := range evs {
				if !e.To.Sees(tbl.Seat(s)) {
					continue
				}
				if err := tr.Apply(e.Body); err != nil {
					t.Fatalf("seed %d step %d seat %d: %v: %v", seed, steps, s, e, err)
				}
			}
			want := normalize(eng.View(tbl.Seat(s)))
			if got := normalize(*tr.View()); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%v) seat %d:\n got %+v\nwant %+v", seed, steps, a, s, got, want)
			}
		}
	}
}

// TestTrackerFollowsEngine: over whole bot games every seat's tracker and
// a spectator's keep the engine's view.
func TestTrackerFollowsEngine(t *testing.T) {
	seen := map[string]int{}
	for seed := range byte(16) {
		trackGame(t, tbl.Rules{Name: "mcr", Hands: 4}, seed, seen)
	}
	for _, k := range []string{"flower", "chi", "pon", "won", "wall_empty", "tsumo", "ron"} {
		if seen[k] == 0 {
			t.Errorf("the games had no %s: %v", k, seen)
		}
	}
	t.Logf("%v", seen)
}

// TestTrackerReset: a tracker reset from a snapshot view mid-game follows
// the rest of the game.
func TestTrackerReset(t *testing.T) {
	eng, err := tbl.New(tbl.Config{Rules: tbl.OneHand})
	if err != nil {
		t.Fatal(err)
	}
	w := wall.New144([32]byte{9})
	if _, err := eng.Step(tbl.Action{Type: tbl.Deal, Wall: &w}); err != nil {
		t.Fatal(err)
	}
	var bots [tbl.NumSeats]bmcr.Player
	tr := NewTracker(2)
	for step := 0; eng.Phase() != tbl.GameOver; step++ {
		if step == 20 {
			tr.Reset(eng.View(2))
		}
		var a tbl.Action
		for s := range tbl.Seat(tbl.NumSeats) {
			var ok bool
			if a, ok = bots[s].Decide(eng, s); ok {
				break
			}
		}
		if a.Seat == 2 {
			tr.Answered()
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if step < 20 {
			continue
		}
		if s, ok := eng.ToAct(); ok {
			evs = append(evs, tbl.Event{To: tbl.Only(s), Body: tbl.TurnOffer{Seat: s, Options: eng.Legal(s)}})
		}
		for _, e := range evs {
			if e.To.Sees(2) {
				if err := tr.Apply(e.Body); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got, want := normalize(*tr.View()), normalize(eng.View(2)); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d:\n got %+v\nwant %+v", step, got, want)
		}
	}
}
