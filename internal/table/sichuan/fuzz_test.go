package sichuan

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// playRandom plays a whole match choosing among the legal actions of the
// seats the table waits for, from seed. After every step it runs the
// invariant check; now and then it tries an action Legal does not list and
// requires Step to refuse it without changing anything. It fails when the
// match does not end.
func playRandom(t testing.TB, seed uint64, rules Rules) {
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	tb, err := New(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	hands := 0
	for steps := 0; tb.Phase() != MatchOver; steps++ {
		if steps > 100_000 {
			t.Fatalf("seed %d: the match did not end in %d steps", seed, steps)
		}
		var a Action
		if tb.Phase() == BetweenHands {
			var ws [32]byte
			binary.LittleEndian.PutUint64(ws[:], seed)
			binary.LittleEndian.PutUint64(ws[8:], uint64(hands))
			w := NewWall(ws)
			a = Action{Type: Deal, Wall: &w}
			hands++
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
			if a.Type == Discard && rng.IntN(3) != 0 {
				a, _ = tb.Default(s)
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
	}
}

// weights make random play reach the rare rules: wins and kans are much
// likelier than one discard among fourteen.
var weights = [...]int{Exchange: 1, Void: 1, Discard: 1, Pon: 3, OpenKan: 6, ClosedKan: 8, AddedKan: 8, Tsumo: 30, Ron: 30, Pass: 3}

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

// tryIllegal makes up an action Legal does not list and checks that Step
// refuses it and leaves the table unchanged.
func tryIllegal(t testing.TB, tb *Table, rng *rand.Rand) {
	s := Seat(rng.IntN(NumSeats + 1))
	x := tile.Tile(rng.IntN(tile.NumKinds))
	a := Action{Seat: s, Type: ActionType(1 + rng.IntN(int(Pass))), Tile: x,
		Tiles: [3]tile.Tile{x, tile.Tile(rng.IntN(27)), tile.Tile(rng.IntN(27))}, Suit: tile.Suit(rng.IntN(4))}
	if a.Type == Deal {
		return
	}
	for _, l := range tb.Legal(s) {
		if l.Type == a.Type {
			return // maybe legal (fields the type ignores): skip
		}
	}
	before := cloneTable(tb)
	if _, err := tb.Step(a); err == nil {
		t.Fatalf("Step accepted %v in %v, which Legal(%d) does not list: %v", a, before.phase, s, tb.Legal(s))
	}
	if !reflect.DeepEqual(before, cloneTable(tb)) {
		t.Fatalf("refused %v changed the table", a)
	}
}

var fuzzRules = []Rules{
	Default,
	BloodyRiver,
	{Name: "plain", FanCap: 5, Hands: 2},
	{Name: "no_lock", Exchange: true, VoidFirst: true, FanCap: 4, Hands: 3},
}

func TestRandomMatches(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 2
	}
	for seed := range uint64(n) {
		playRandom(t, seed, fuzzRules[seed%uint64(len(fuzzRules))])
	}
}

// FuzzTable drives a table with random legal actions: it never panics, its
// invariants hold after every step, refused actions change nothing, and
// every match ends.
func FuzzTable(f *testing.F) {
	for i, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, rules uint8) {
		r := fuzzRules[int(rules)%len(fuzzRules)]
		r.Hands = 2
		playRandom(t, seed, r)
	})
}
