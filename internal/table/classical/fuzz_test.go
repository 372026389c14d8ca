package classical

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// seedWall is the wall of hand n of a game played from seed.
func seedWall(seed uint64, n int) *wall.Wall144 {
	var ws [32]byte
	binary.LittleEndian.PutUint64(ws[:], seed)
	binary.LittleEndian.PutUint64(ws[8:], uint64(n))
	w := wall.New144(ws)
	return &w
}

// playRandom plays a whole game choosing among the legal actions of the
// seats the table waits for, from seed. After every step it runs the
// invariant check and checks each event's audience and sequence; now and
// then it tries an action Legal does not list and requires Step to refuse
// it without changing anything. It fails when the game does not end.
func playRandom(t testing.TB, seed uint64, rules Rules, fuzz []byte) *Table {
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	tb, err := New(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	hands := 0
	for steps := 0; tb.Phase() != GameOver; steps++ {
		if steps > 200_000 {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, steps)
		}
		var a Action
		if tb.Phase() == BetweenHands {
			a = Action{Type: Deal, Wall: seedWall(seed, hands)}
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
			a = legal[rng.IntN(len(legal))]
			if len(fuzz) > 0 {
				a = legal[int(fuzz[0])%len(legal)]
				fuzz = fuzz[1:]
			} else if a.Type == Discard && rng.IntN(3) != 0 {
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
		for _, e := range evs {
			if e.Seq != last+1 {
				t.Fatalf("seed %d: event seq %d after %d", seed, e.Seq, last)
			}
			last = e.Seq
			checkCodec(t, e.Body)
		}
		if err := tb.Verify(); err != nil {
			t.Fatalf("seed %d after %v: %v", seed, a, err)
		}
	}
	return tb
}

// tryIllegal steps a random action that Legal does not list for its seat
// and requires a refusal that changes nothing.
func tryIllegal(t testing.TB, tb *Table, rng *rand.Rand) {
	s := Seat(rng.IntN(NumSeats))
	a := Action{Seat: s, Type: ActionType(1 + rng.IntN(int(Pass))), Tile: tileOf(rng.IntN(34))}
	for _, l := range tb.Legal(s) {
		if l.Type == a.Type && (l.Tile == a.Tile || a.Type == MahJong || a.Type == Pung || a.Type == Kong || a.Type == Pass || a.Type == Fish) {
			return
		}
	}
	before := tb.View(s)
	if _, err := tb.Step(a); err == nil {
		t.Fatalf("%v not in Legal %v but accepted", a, tb.Legal(s))
	} else if !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrPhase) && !errors.Is(err, ErrNotToAct) && !errors.Is(err, ErrBadAction) {
		t.Fatalf("%v: %v matches no sentinel", a, err)
	}
	if after := tb.View(s); !reflect.DeepEqual(before, after) {
		t.Fatalf("refused %v changed the view", a)
	}
}

func checkCodec(t testing.TB, b Body) {
	enc, err := AppendBody(nil, b)
	if err != nil {
		t.Fatalf("encode %T: %v", b, err)
	}
	got, err := DecodeBody(enc)
	if err != nil {
		t.Fatalf("decode %T: %v", b, err)
	}
	if !reflect.DeepEqual(normal(got), normal(b)) {
		t.Fatalf("codec round trip:\n got %#v\nwant %#v", got, b)
	}
}

func TestRandomGames(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	for seed := range uint64(seeds) {
		rules := Default
		if seed%3 == 1 {
			rules.FishingFirst = false
			rules.Limit = 500
		}
		rules.Rounds = 1 + int(seed%4)
		playRandom(t, seed, rules, nil)
	}
}

// FuzzTable plays a one-round game choosing the actions from the input
// bytes, checking the invariants after every step.
func FuzzTable(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3})
	f.Add(uint64(7), []byte{5, 5, 5, 5, 5, 5, 5, 5, 9, 0, 0, 1})
	f.Add(uint64(42), []byte{})
	f.Fuzz(func(t *testing.T, seed uint64, choices []byte) {
		rules := Default
		rules.Rounds = 1
		rules.FishingFirst = seed&1 == 0
		playRandom(t, seed, rules, choices)
	})
}

// FuzzDecodeBody decodes arbitrary bytes: it never panics, and what it
// accepts encodes back to the same bytes.
func FuzzDecodeBody(f *testing.F) {
	tb, _ := New(Config{Rules: Default})
	evs, _ := tb.Step(Action{Type: Deal, Wall: seedWall(3, 0)})
	for _, e := range evs {
		b, _ := AppendBody(nil, e.Body)
		f.Add(b)
	}
	for _, b := range []Body{
		Won{Seat: 1, From: 2, Hand: []tile.Tile{1, 2, 3}, Melds: []Meld{{Type: MeldPung, Kind: 5, From: 2}}, WinTile: 3},
		HandEnded{Kind: EndMahJong, Winner: 1, Lines: [NumSeats]SeatScore{{Score: 40, Base: 20, Doubles: 1}, {Score: 800, Special: 2, Fishing: true}}},
		ClaimOffer{Seat: 2, Options: []Action{{Seat: 2, Type: Chow, Tile: 4}, {Seat: 2, Type: Pass}}},
		Fishing{Seat: 3, Original: true},
		GameEnded{Scores: [NumSeats]int{1, -1}, Ranks: [NumSeats]int{1, 4, 2, 3}},
	} {
		enc, _ := AppendBody(nil, b)
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := DecodeBody(data)
		if err != nil {
			return
		}
		enc, err := AppendBody(nil, b)
		if err != nil {
			t.Fatalf("decoded %#v does not encode: %v", b, err)
		}
		again, err := DecodeBody(enc)
		if err != nil || !reflect.DeepEqual(normal(again), normal(b)) {
			t.Fatalf("round trip of %#v: %#v, %v", b, again, err)
		}
	})
}
