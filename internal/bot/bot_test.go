package bot_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

func walls(seed uint64) func() wall.Wall {
	n := uint64(0)
	return func() wall.Wall {
		var s [32]byte
		binary.LittleEndian.PutUint64(s[:], seed)
		binary.LittleEndian.PutUint64(s[8:], n)
		n++
		return wall.New(s, true)
	}
}

// Four efficient bots play a whole east-south game.
func ExamplePlay() {
	t, err := table.New(table.Config{Rules: table.TenhouHanchan})
	if err != nil {
		panic(err)
	}
	bots := [4]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
	if _, err := bot.Play(t, &bots, walls(1), 100_000); err != nil {
		panic(err)
	}
	fmt.Println(t.Phase(), t.Scores())
	// Output: game_over [1400 41400 10100 47100]
}

// Games between bots are reproducible: the same walls and the same seeds
// give the same scores.
func TestPlayDeterministic(t *testing.T) {
	play := func() [4]int {
		tb, _ := table.New(table.Config{Rules: table.TenhouTonpuu})
		bots := [4]bot.Bot{bot.NewRandom(1), bot.Efficient{}, bot.NewRandom(2), bot.Efficient{}}
		if _, err := bot.Play(tb, &bots, walls(7), 100_000); err != nil {
			t.Fatal(err)
		}
		return tb.Scores()
	}
	if a, b := play(), play(); a != b {
		t.Errorf("two plays of the same game: %v and %v", a, b)
	}
}

func TestPlayTooLong(t *testing.T) {
	tb, _ := table.New(table.Config{Rules: table.TenhouHanchan})
	bots := [4]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
	if _, err := bot.Play(tb, &bots, walls(1), 10); !errors.Is(err, bot.ErrTooLong) {
		t.Errorf("Play with 10 steps: error %v, want ErrTooLong", err)
	}
}

// Efficient bots take their wins and keep their hands moving towards
// tenpai: most rounds between them end in a win, and they declare riichi.
func TestEfficientWins(t *testing.T) {
	wins, riichis, rounds := 0, 0, 0
	var views [4]table.View
	for g := range uint64(4) {
		tb, _ := table.New(table.Config{Rules: table.TenhouHanchan})
		next := walls(g)
		for tb.Phase() != table.GameOver {
			var evs []table.Event
			var err error
			if tb.Phase() == table.BetweenRounds {
				w := next()
				evs, err = tb.Step(table.Action{Type: table.Deal, Wall: &w})
				rounds++
			} else {
				for s := range table.Seat(4) {
					if tb.Waiting(s) {
						tb.ViewInto(s, &views[s])
						a, _ := bot.Efficient{}.Act(&views[s])
						evs, err = tb.Step(a)
						break
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				switch e.Body.(type) {
				case table.Won:
					wins++
				case table.RiichiAccepted:
					riichis++
				}
			}
		}
	}
	if wins*2 < rounds || riichis == 0 {
		t.Errorf("efficient bots: %d wins and %d riichi in %d rounds, want a win in most rounds", wins, riichis, rounds)
	}
}

// Efficient's Decide makes the choice Act makes from the View, at every
// decision of whole games (some of them against random players, who call,
// so that kuikae and open hands are met too).
func TestDecideIsAct(t *testing.T) {
	var views [4]table.View
	for g := range uint64(6) {
		tb, _ := table.New(table.Config{Rules: table.TenhouHanchan})
		bots := [4]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
		if g%2 == 1 {
			bots[1], bots[3] = bot.NewRandom(g), bot.NewRandom(g+100)
		}
		next := walls(g)
		decisions := 0
		for tb.Phase() != table.GameOver {
			if tb.Phase() == table.BetweenRounds {
				w := next()
				if _, err := tb.Step(table.Action{Type: table.Deal, Wall: &w}); err != nil {
					t.Fatal(err)
				}
				continue
			}
			for s := range table.Seat(4) {
				if _, ok := bots[s].(bot.Efficient); !ok {
					continue
				}
				tb.ViewInto(s, &views[s])
				want, wantOK := bot.Efficient{}.Act(&views[s])
				got, gotOK := bot.Efficient{}.Decide(tb, s)
				if got != want || gotOK != wantOK {
					t.Fatalf("game %d seat %d: Decide = %v, %v; Act = %v, %v", g, s, got, gotOK, want, wantOK)
				}
				decisions++
			}
			for s := range table.Seat(4) {
				if tb.Waiting(s) {
					tb.ViewInto(s, &views[s])
					a, _ := bots[s].Act(&views[s])
					if _, err := tb.Step(a); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
		}
		if decisions < 1000 {
			t.Errorf("game %d: %d decisions compared, want many", g, decisions)
		}
	}
}
