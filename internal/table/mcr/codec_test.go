package mcr

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// TestCodecRoundTrip encodes and decodes every event of random games.
func TestCodecRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	// Random play hardly ever reaches an 8-fan win: the bodies of one.
	made := []Body{
		Won{Seat: 1, From: 3, Hand: []tile.Tile{1, 2, 3, 4}, WinTile: 4, Flowers: 2, Total: 31,
			Melds: []Meld{{Type: MeldChi, Kind: 9, Called: 10, From: 0}, {Type: MeldClosedKan, Kind: 31, Called: 31, From: 1}, {Type: MeldClosedKan, From: 1, Hidden: true}},
			Fans:  []Fan{{Name: "pure_straight", Count: 1, Points: 16}, {Name: "flower_tiles", Count: 2, Points: 2}}, Deltas: [NumSeats]int{-8, 55, -8, -39}, Scores: [NumSeats]int{-8, 55, -8, -39}},
		Won{Seat: 2, From: 2, Tsumo: true, Chankan: false, WinTile: 33, Total: 88},
		Won{Seat: 0, From: 1, Chankan: true, WinTile: 7, Total: 9},
		// The engine never emits turn offers; hosts send them.
		TurnOffer{Seat: 2, Options: []Action{{Seat: 2, Type: Tsumo}, {Seat: 2, Type: ClosedKan, Tile: 5}, {Seat: 2, Type: Discard, Tile: 9}}},
	}
	for _, b := range made {
		enc, err := AppendBody(nil, b)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := DecodeBody(enc); err != nil || !reflect.DeepEqual(got, b) {
			t.Fatalf("DecodeBody(AppendBody(%#v)) = %#v, %v", b, got, err)
		}
	}
	seen["Won"], seen["TurnOffer"] = true, true
	for seed := uint64(0); seed < 64 && len(seen) < tagTurnOffer; seed++ {
		_, evs := playRandom(t, OneHand, rand.New(rand.NewPCG(seed, 11)), 100000)
		for _, e := range evs {
			b, err := AppendBody(nil, e.Body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeBody(b)
			if err != nil {
				t.Fatalf("%v: %v", e, err)
			}
			if !reflect.DeepEqual(got, e.Body) {
				t.Fatalf("DecodeBody(AppendBody(%#v)) = %#v", e.Body, got)
			}
			seen[reflect.TypeOf(e.Body).Name()] = true
		}
	}
	if len(seen) != tagTurnOffer {
		t.Errorf("round trip saw %d body types of %d: %v", len(seen), tagTurnOffer, seen)
	}
	if _, err := AppendBody(nil, nil); !errors.Is(err, ErrBody) {
		t.Errorf("AppendBody(nil) = %v, want ErrBody", err)
	}
}

// FuzzDecodeBody: DecodeBody never panics, and what it accepts encodes to
// the same bytes.
func FuzzDecodeBody(f *testing.F) {
	_, evs := playRandom(f, OneHand, rand.New(rand.NewPCG(2, 11)), 100000)
	for _, e := range evs[:min(len(evs), 60)] {
		b, _ := AppendBody(nil, e.Body)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		body, err := DecodeBody(b)
		if err != nil {
			return
		}
		again, err := AppendBody(nil, body)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeBody(again)
		if err != nil || !reflect.DeepEqual(back, body) {
			t.Fatalf("%#v re-decodes as %#v, %v", body, back, err)
		}
	})
}
