package client

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// normalize makes views comparable: empty and nil slices alike, no Seq
// (the engine counts its own events, a stream the host's), no tile in ron
// and open kan offers.
func normalize(v table.View) table.View {
	v.Seq = 0
	if len(v.Dora) == 0 {
		v.Dora = nil
	}
	if len(v.Hand) == 0 {
		v.Hand = nil
	}
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
	v.Legal = slices.Clone(v.Legal)
	for i := range v.Legal {
		if a := &v.Legal[i]; a.Type == table.Ron || a.Type == table.OpenKan {
			a.Tile = 0 // the window's tile, left out on the wire
		}
	}
	for i := range v.Seats {
		if len(v.Seats[i].Discards) == 0 {
			v.Seats[i].Discards = nil
		}
		if len(v.Seats[i].Melds) == 0 {
			v.Seats[i].Melds = nil
		}
	}
	return v
}

// trackGame plays a whole game on the engine with the given bots and feeds
// every seat's tracker, and a spectator's, the events the seat would
// receive from a server (the step's events it may see, then its turn
// offer). After every step each tracker's view must equal the engine's.
// It returns the number of steps.
func trackGame(t testing.TB, seed uint64, rules table.Rules, bots [table.NumSeats]bot.Bot, seen map[string]int) int {
	eng, err := table.New(table.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var trackers [table.NumSeats + 1]*Tracker
	for s := range trackers {
		trackers[s] = NewTracker(table.Seat(s))
	}
	var ws [32]byte
	binary.LittleEndian.PutUint64(ws[:], seed)
	steps := 0
	for eng.Phase() != table.GameOver {
		if steps > 5000 {
			t.Fatalf("seed %d: game too long", seed)
		}
		var a table.Action
		actor := -1
		if eng.Phase() == table.BetweenRounds {
			ws[31]++
			w := wall.New(ws, rules.Aka)
			a = table.Action{Type: table.Deal, Wall: &w}
		} else {
			for s := range table.Seat(table.NumSeats) {
				if eng.Waiting(s) {
					v := eng.View(s)
					var ok bool
					if a, ok = bots[s].Act(&v); !ok {
						t.Fatalf("seed %d: seat %d waited for but has nothing to do", seed, s)
					}
					actor = int(s)
					break
				}
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatalf("seed %d step %d: %v: %v", seed, steps, a, err)
		}
		steps++
		for _, e := range evs {
			switch b := e.Body.(type) {
			case table.Called:
				seen[b.Meld.Type.String()]++
			case table.RoundEnded:
				seen[b.Kind.String()]++
			case table.Won:
				seen[fmt.Sprintf("won tsumo=%v", b.Tsumo)]++
			case table.RiichiAccepted:
				seen["riichi"]++
			case table.ClaimOffer:
				for _, o := range b.Options {
					seen["offer "+o.Type.String()]++
				}
			}
		}
		if actor >= 0 {
			trackers[actor].Answered()
		}
		if len(evs) > 0 && eng.Phase() == table.Turn {
			for s := range table.Seat(table.NumSeats) {
				if l := eng.Legal(s); len(l) > 0 {
					evs = append(evs, table.Event{To: table.Only(s), Body: table.TurnOffer{Seat: s, Options: l}})
				}
			}
		}
		for s, tr := range trackers {
			for _, e := range evs {
				if s < table.NumSeats && e.To.Sees(table.Seat(s)) || s == table.NumSeats && !e.To.Private {
					if err := tr.Apply(e.Body); err != nil {
						t.Fatalf("seed %d step %d seat %d: Apply(%#v) = %v", seed, steps, s, e.Body, err)
					}
				}
			}
			got, want := normalize(*tr.View()), normalize(eng.View(table.Seat(s)))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%v) seat %d:\ntracked %+v\nengine  %+v", seed, steps, a.Type, s, got, want)
			}
		}
	}
	return steps
}

// TestTrackerFollowsEngine checks the tracker against the engine over whole
// games: efficient bots (riichi, wins) and random ones (calls, kans, aborts).
func TestTrackerFollowsEngine(t *testing.T) {
	seen := map[string]int{}
	for seed := range uint64(24) {
		var bots [table.NumSeats]bot.Bot
		for s := range bots {
			if seed%3 == 0 {
				bots[s] = bot.Efficient{}
			} else {
				bots[s] = bot.NewRandom(seed*4 + uint64(s))
			}
		}
		rules := table.TenhouTonpuu
		if seed%4 == 1 {
			rules = table.TenhouHanchan
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) { trackGame(t, seed, rules, bots, seen) })
	}
	t.Logf("seen: %v", seen)
	for _, k := range []string{"chi", "pon", "open_kan", "closed_kan", "added_kan", "riichi", "won tsumo=true", "won tsumo=false", "exhaustive"} {
		if seen[k] == 0 {
			t.Errorf("the games had no %s: the tracker was not checked on it", k)
		}
	}
}

// FuzzTracker plays a game of random bots from the fuzzed seed, with the
// tracker checked after every step.
func FuzzTracker(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(77))
	f.Fuzz(func(t *testing.T, seed uint64) {
		var bots [table.NumSeats]bot.Bot
		for s := range bots {
			bots[s] = bot.NewRandom(seed ^ uint64(s)<<32)
		}
		trackGame(t, seed, table.TenhouTonpuu, bots, map[string]int{})
	})
}

// TestTrackerRefusesImpossibleCall applies a call whose called tile is not
// among the meld's tiles, as a broken server could send: an error, not a
// panic.
func TestTrackerRefusesImpossibleCall(t *testing.T) {
	tr := NewTracker(1)
	for _, b := range []table.Body{
		table.RoundStarted{Dealer: 0, Dora: tile.MustParse("1z")[0]},
		table.Discarded{Seat: 0, Tile: tile.MustParse("1m")[0]},
	} {
		if err := tr.Apply(b); err != nil {
			t.Fatal(err)
		}
	}
	m := table.Meld{Meld: judge.Meld{Type: judge.Pon}, From: 0, Called: tile.MustParse("2m")[0]}
	copy(m.Tiles[:], tile.MustParse("111m"))
	if err := tr.Apply(table.Called{Seat: 1, Meld: m}); !errors.Is(err, ErrInconsistent) {
		t.Fatalf("a pon of 111m calling 2m = %v, want ErrInconsistent", err)
	}
}
