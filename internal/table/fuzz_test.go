package table

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// playRandom plays a whole game choosing uniformly among the legal actions
// of the seats the table waits for, from seed. After every step it runs the
// invariant check; now and then it tries an action Legal does not list and
// requires Step to refuse it without changing anything. It fails when the
// game does not end.
func playRandom(t testing.TB, seed uint64, tonpuu bool) (rounds int) {
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	rules := TenhouHanchan
	if tonpuu {
		rules = TenhouTonpuu
	}
	tb, err := New(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	for steps := 0; tb.Phase() != GameOver; steps++ {
		if steps > 200_000 {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, steps)
		}
		var a Action
		if tb.Phase() == BetweenRounds {
			var ws [32]byte
			binary.LittleEndian.PutUint64(ws[:], seed)
			binary.LittleEndian.PutUint64(ws[8:], uint64(rounds))
			w := wall.New(ws, true)
			a = Action{Type: Deal, Wall: &w}
			rounds++
		} else {
			var waiting []Seat
			for s := range Seat(NumSeats) {
				if tb.Waiting(s) {
					waiting = append(waiting, s)
				}
			}
			if len(waiting) == 0 {
				t.Fatalf("seed %d: phase %v waits for nobody", seed, tb.Phase())
			}
			s := waiting[rng.IntN(len(waiting))]
			legal := tb.Legal(s)
			if len(legal) == 0 {
				t.Fatalf("seed %d: seat %d waited for with no legal action", seed, s)
			}
			a = pick(rng, legal)
			if a.Type == Discard && rng.IntN(4) != 0 {
				a = efficientDiscard(tb, s, legal)
			}
			if rng.IntN(8) == 0 {
				tryIllegal(t, tb, rng)
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("seed %d: legal %v refused: %v", seed, a, err)
		}
		checkStep(t, tb, evs, &last)
		if observe != nil {
			for _, e := range evs {
				observe(e)
			}
		}
	}
	return rounds
}

// observe, when set, sees every event of playRandom (coverage tallies).
var observe func(Event)

// weights make random play reach the rare rules: wins, kans and riichi
// are much likelier than one discard among fourteen.
var weights = [...]int{Discard: 1, Riichi: 6, Chi: 2, Pon: 3, OpenKan: 6, ClosedKan: 8, AddedKan: 8, Tsumo: 30, Ron: 30, Pass: 4, NineTerminals: 2}

func pick(rng *rand.Rand, legal []Action) Action {
	total := 0
	for _, a := range legal {
		total += weights[a.Type]
	}
	n := rng.IntN(total)
	for _, a := range legal {
		if n -= weights[a.Type]; n < 0 {
			return a
		}
	}
	return legal[len(legal)-1]
}

// efficientDiscard returns the listed discard that leaves the lowest
// shanten, so that random games reach tenpai, riichi and wins.
func efficientDiscard(tb *Table, s Seat, legal []Action) Action {
	c := tb.r.seats[s].counts
	best, bestSh := Action{}, 99
	for _, a := range legal {
		if a.Type != Discard {
			continue
		}
		c[a.Tile.Kind()]--
		if sh := judge.Shanten(&c); sh < bestSh {
			best, bestSh = a, sh
		}
		c[a.Tile.Kind()]++
	}
	return best
}

// tryIllegal makes up an action Legal does not list and checks that Step
// refuses it and leaves the table unchanged.
func tryIllegal(t testing.TB, tb *Table, rng *rand.Rand) {
	s := Seat(rng.IntN(NumSeats))
	a := Action{Seat: s, Type: ActionType(1 + rng.IntN(int(NineTerminals))),
		Tile:  tile.Tile(rng.IntN(tile.NumKinds)),
		Tiles: [2]tile.Tile{tile.Tile(rng.IntN(tile.NumKinds)), tile.Tile(rng.IntN(tile.NumKinds))}}
	if a.Type == Deal {
		return
	}
	for _, l := range tb.Legal(s) {
		if l.Type == a.Type {
			return // maybe legal (another copy of a tile, a pass): skip
		}
	}
	before := cloneTable(tb)
	if _, err := tb.Step(a); err == nil {
		t.Fatalf("Step accepted %v, which Legal(%d) does not list: %v", a, s, tb.Legal(s))
	}
	if !reflect.DeepEqual(before, cloneTable(tb)) {
		t.Fatalf("refused %v changed the table", a)
	}
}

func TestRandomGames(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 2
	}
	for seed := range uint64(n) {
		playRandom(t, seed, seed%3 == 2)
	}
}

// FuzzTable drives a table with random legal actions from Legal: it never
// panics, its invariants hold after every step, refused actions change
// nothing, and every game ends.
func FuzzTable(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, false)
	}
	f.Add(uint64(7), true)
	f.Fuzz(func(t *testing.T, seed uint64, tonpuu bool) {
		playRandom(t, seed, tonpuu)
	})
}
