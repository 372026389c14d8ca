package sichuan

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// normalize makes views comparable: empty and nil slices alike, no Seq
// (the engine counts its own events, a stream the host's), and, in the
// dealer's first turn of a hand, the tile the engine counts as drawn back
// among its tiles when the tracker's view has none drawn (the exception
// Tracker documents).
func normalize(v sc.View, tracked *sc.View) sc.View {
	v.Seq = 0
	if tracked != nil && v.HasDrawn && !tracked.HasDrawn && v.Seat == v.Dealer && len(v.Seats[v.Seat].Discards) == 0 && len(v.Seats[v.Seat].Melds) == 0 {
		v.Tiles = slices.Clone(v.Tiles)
		v.Tiles = append(v.Tiles, v.Drawn)
		slices.Sort(v.Tiles)
		v.Drawn, v.HasDrawn = 0, false
	}
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
		if len(s.Won) == 0 {
			s.Won = nil
		}
	}
	return v
}

// trackMatch plays a whole match of bots on the engine and feeds every
// seat's tracker, and a spectator's, the events the seat would receive
// from the server (the step's events it may see, then the turn offer the
// host adds). After every step each tracker's view must equal the
// engine's. It counts what happened in seen.
func trackMatch(t testing.TB, rules sc.Rules, seed byte, seen map[string]int) {
	eng, err := sc.New(sc.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var trackers [sc.NumSeats + 1]*Tracker
	for s := range trackers {
		trackers[s] = NewTracker(sc.Seat(s), rules)
	}
	var bot botsc.Efficient
	hands := 0
	for steps := 0; eng.Phase() != sc.MatchOver; steps++ {
		if steps > 50000 {
			t.Fatal("match too long")
		}
		var a sc.Action
		actor := -1
		if eng.Phase() == sc.BetweenHands {
			w := sc.NewWall([32]byte{seed, byte(hands), 1})
			hands++
			a = sc.Action{Type: sc.Deal, Wall: &w}
		} else {
			// The bot acts on the tracker's view, as a remote player does.
			for s := range sc.Seat(sc.NumSeats) {
				if eng.Waiting(s) {
					var ok bool
					if a, ok = bot.Act(trackers[s].View()); !ok {
						t.Fatalf("seat %d waited for, its tracker has nothing to do", s)
					}
					actor = int(s)
					break
				}
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatalf("step %d: %v: %v", steps, a, err)
		}
		for _, e := range evs {
			switch b := e.Body.(type) {
			case sc.Called:
				seen[b.Meld.Type.String()]++
			case sc.HandEnded:
				seen[b.Kind.String()]++
			case sc.Won:
				seen[fmt.Sprintf("won tsumo=%t chankan=%t", b.Tsumo, b.Chankan)]++
			case sc.KanTransferred:
				seen["kan transferred"]++
			}
		}
		if actor >= 0 {
			trackers[actor].Answered()
		}
		if len(evs) > 0 && eng.Phase() == sc.Turn {
			for s := range sc.Seat(sc.NumSeats) {
				if eng.Waiting(s) {
					evs = append(evs, sc.Event{To: sc.Only(s), Body: sc.TurnOffer{Seat: s, Options: eng.Legal(s)}})
				}
			}
		}
		for s, tr := range trackers {
			for _, e := range evs {
				if !e.To.Sees(sc.Seat(s)) {
					continue
				}
				if err := tr.Apply(e.Body); err != nil {
					t.Fatalf("step %d: seat %d: %v", steps, s, err)
				}
			}
			got, want := normalize(*tr.View(), nil), normalize(eng.View(sc.Seat(s)), tr.View())
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d (%v): seat %d tracks\n%+v\nthe engine shows\n%+v", steps, a, s, got, want)
			}
		}
	}
}

// TestTracker: over whole matches under every option, every seat's
// tracked view is the engine's after every step.
func TestTracker(t *testing.T) {
	seen := map[string]int{}
	off := sc.Default
	off.Exchange, off.VoidFirst, off.PassLock = false, false, false
	for i, rules := range []sc.Rules{sc.Default, sc.BloodyRiver, off} {
		for seed := range byte(3) {
			trackMatch(t, rules, byte(i)*10+seed, seen)
		}
	}
	for _, k := range []string{"pon", "open_kan", "closed_kan", "added_kan", "three_won", "wall_empty", "won tsumo=true chankan=false", "won tsumo=false chankan=false"} {
		if seen[k] == 0 {
			t.Errorf("no %s in the matches: %v", k, seen)
		}
	}
}

// TestTrackerRefusesOthersSecrets: a seat's tracker refuses another
// seat's private events, which would mean the stream is not its own.
func TestTrackerRefusesOthersSecrets(t *testing.T) {
	for _, b := range []sc.Body{
		sc.ExchangeChosen{Seat: 2, Tiles: [3]tile.Tile{1, 2, 3}, Known: true},
		sc.VoidChosen{Seat: 2, Suit: tile.Pin, Known: true},
		sc.Drew{Seat: 2, Tile: 5, Known: true},
		sc.ExchangeReceived{Seat: 2},
		sc.ClaimOffer{Seat: 2},
		sc.TurnOffer{Seat: 2},
	} {
		tr := NewTracker(1, sc.Default)
		if err := tr.Apply(b); err == nil {
			t.Errorf("seat 1's tracker took %#v", b)
		}
	}
}

// TestTrackerChoiceAfterSnapshot: a session resets the tracker from a
// snapshot and calls Answered (for the offer the server sends again); a
// pending exchange has no offer event, so its choices stay; once the seat
// answered, the next events do not offer them again.
func TestTrackerChoiceAfterSnapshot(t *testing.T) {
	eng, _ := sc.New(sc.Config{Rules: sc.Default})
	w := sc.NewWall([32]byte{3})
	if _, err := eng.Step(sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(2, sc.Default)
	tr.Reset(eng.View(2))
	tr.Answered()
	if len(tr.View().Legal) == 0 {
		t.Fatal("the pending exchange was dropped after the snapshot")
	}
	tr.Answered() // the seat chose
	if err := tr.Apply(sc.ExchangeChosen{Seat: 2}); err != nil {
		t.Fatal(err)
	}
	if len(tr.View().Legal) != 0 {
		t.Fatalf("the exchange is offered again after the seat answered: %d choices", len(tr.View().Legal))
	}
}

// TestTrackerVoidAfterReceived: the step of the last exchange choice tells
// a seat that the exchange was made (Exchanged), then what it received
// (ExchangeReceived). The tracker lists the void choice only after the
// second: a choice made in between would miss the received tiles, and
// the server would refuse it as stale.
func TestTrackerVoidAfterReceived(t *testing.T) {
	eng, _ := sc.New(sc.Config{Rules: sc.Default})
	w := sc.NewWall([32]byte{7})
	evs, err := eng.Step(sc.Action{Type: sc.Deal, Wall: &w})
	if err != nil {
		t.Fatal(err)
	}
	const me = 1
	tr := NewTracker(me, sc.Default)
	feed := func(evs []sc.Event, each func(b sc.Body)) {
		t.Helper()
		for _, e := range evs {
			if e.To.Sees(me) {
				if err := tr.Apply(e.Body); err != nil {
					t.Fatal(err)
				}
				each(e.Body)
			}
		}
	}
	feed(evs, func(sc.Body) {})
	for s := range sc.Seat(sc.NumSeats) {
		a, _ := eng.Default(s)
		if evs, err = eng.Step(a); err != nil {
			t.Fatal(err)
		}
		if s == me {
			tr.Answered()
		}
		feed(evs, func(b sc.Body) {
			if s < sc.NumSeats-1 {
				return // the exchange goes on
			}
			_, received := b.(sc.ExchangeReceived)
			if got := len(tr.View().Legal); got != 0 && !received {
				t.Errorf("after %T of seat %d's exchange: %d choices listed, want none before the seat's tiles arrive", b, s, got)
			} else if received && got != 3 {
				t.Errorf("after ExchangeReceived: %d choices, want the 3 void suits", got)
			}
		})
	}
	if eng.Phase() != sc.ChoosingVoid {
		t.Fatalf("phase %v after four exchanges", eng.Phase())
	}
}
