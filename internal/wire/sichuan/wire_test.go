package sichuan_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

// game plays a whole match of bots under rules and calls each with every
// event body and, after every step, every seat's view.
func game(t testing.TB, rules sc.Rules, seed byte, body func(sc.Body), view func(sc.View)) {
	t.Helper()
	tb, err := sc.New(sc.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var bot botsc.Efficient
	hands := 0
	for steps := 0; tb.Phase() != sc.MatchOver; steps++ {
		if steps > 100_000 {
			t.Fatal("the match does not end")
		}
		var a sc.Action
		if tb.Phase() == sc.BetweenHands {
			w := sc.NewWall([32]byte{seed, byte(hands)})
			w.Commitment = [32]byte{1, seed}
			hands++
			a = sc.Action{Type: sc.Deal, Wall: &w}
		} else {
			for s := range sc.Seat(sc.NumSeats) {
				if v := tb.View(s); len(v.Legal) > 0 {
					a, _ = bot.Act(&v)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		for _, e := range evs {
			body(e.Body)
		}
		for s := range sc.Seat(sc.NumSeats) {
			view(tb.View(s))
		}
	}
}

var at = time.Unix(1700000000, 0)

// TestRoundTrip: every body and view of whole matches, under each preset
// and with the exchange off, comes back the same through the wire.
func TestRoundTrip(t *testing.T) {
	noExchange := sc.Default
	noExchange.Exchange, noExchange.Hands = false, 2
	river := sc.BloodyRiver
	river.Hands = 4
	def := sc.Default
	def.Hands = 4
	seen := map[string]bool{}
	for i, rules := range []sc.Rules{def, river, noExchange} {
		game(t, rules, byte(i), func(b sc.Body) {
			seen[reflect.TypeOf(b).Name()] = true
			e, err := wsc.EventToPB(7, at, b)
			if err != nil {
				t.Fatal(err)
			}
			back, err := wsc.BodyFromPB(e)
			if err != nil || !reflect.DeepEqual(back, normal(b)) {
				t.Fatalf("BodyFromPB(EventToPB(%#v)) = %#v, %v", b, back, err)
			}
		}, func(v sc.View) {
			w := wsc.ViewToPB(v)
			back, err := wsc.ViewFromPB(w, v.Seq)
			if err != nil || !reflect.DeepEqual(back, normalView(v)) {
				t.Fatalf("ViewFromPB(ViewToPB(%+v)) = %+v, %v", v, back, err)
			}
		})
	}
	for _, name := range []string{"HandStarted", "Dealt", "ExchangeChosen", "Exchanged", "ExchangeReceived", "VoidChosen", "VoidsRevealed", "Drew", "Discarded", "ClaimOffer", "Called", "KanPaid", "Won", "HandEnded", "MatchEnded"} {
		if !seen[name] {
			t.Errorf("no %s in the games", name)
		}
	}
}

// normal is b as it comes back from the wire: empty slices as nil.
func normal(b sc.Body) sc.Body {
	switch x := b.(type) {
	case sc.Won:
		x.Hand, x.Melds, x.Fans = nilIfEmpty(x.Hand), nilIfEmpty(x.Melds), nilIfEmpty(x.Fans)
		return x
	case sc.HandEnded:
		for i := range x.Hands {
			x.Hands[i] = nilIfEmpty(x.Hands[i])
		}
		return x
	case sc.ClaimOffer:
		x.Options = nilIfEmpty(x.Options)
		return x
	}
	return b
}

func normalView(v sc.View) sc.View {
	v.Tiles, v.Legal = nilIfEmpty(v.Tiles), nilIfEmpty(v.Legal)
	if !v.Chose || v.Direction == 0 {
		v.Got = [3]tile.Tile{}
	}
	for i := range v.Seats {
		s := &v.Seats[i]
		s.Discards, s.Melds, s.Won = nilIfEmpty(s.Discards), nilIfEmpty(s.Melds), nilIfEmpty(s.Won)
		if !v.Revealed {
			s.Void = 0
		}
	}
	return v
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestPrivateCopies: the public copies of a seat's exchange and void
// choice carry neither tiles nor suit on the wire.
func TestPrivateCopies(t *testing.T) {
	e, _ := wsc.EventToPB(1, at, sc.ExchangeChosen{Seat: 2, Tiles: [3]tile.Tile{1, 2, 3}})
	if e.GetSichuanExchangeChosen().GetTiles() != "" {
		t.Errorf("public exchange choice carries %q", e.GetSichuanExchangeChosen().GetTiles())
	}
	e, _ = wsc.EventToPB(1, at, sc.VoidChosen{Seat: 2, Suit: tile.Sou})
	if e.GetSichuanVoidChosen().GetSuit() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED {
		t.Errorf("public void choice carries %v", e.GetSichuanVoidChosen().GetSuit())
	}
}

func TestActionFromPB(t *testing.T) {
	for _, tc := range []struct {
		in   *pb.Action
		want sc.Action
		err  error
	}{
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_EXCHANGE, Tiles: "1m9m1m"}, sc.Action{Seat: 1, Type: sc.Exchange, Tiles: [3]tile.Tile{tile.Plain(tile.M1), tile.Plain(tile.M9), tile.Plain(tile.M1)}}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_VOID, Suit: pb.SichuanSuit_SICHUAN_SUIT_PIN}, sc.Action{Seat: 1, Type: sc.Void, Suit: tile.Pin}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "7s"}, sc.Action{Seat: 1, Type: sc.Discard, Tile: tile.Plain(tile.S7)}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PON}, sc.Action{Seat: 1, Type: sc.Pon}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_EXCHANGE, Tiles: "12m"}, sc.Action{}, wsc.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_VOID}, sc.Action{}, wsc.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1z"}, sc.Action{}, wsc.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "0m"}, sc.Action{}, wsc.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "23m"}, sc.Action{}, wsc.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "2m"}, sc.Action{}, wsc.ErrMalformed},
	} {
		got, err := wsc.ActionFromPB(tc.in, 1)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("ActionFromPB(%v) = %+v, %v; want %+v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func refusal(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, wsc.ErrBadTile) && !errors.Is(err, wsc.ErrMalformed) {
		t.Fatalf("refusal %v is neither ErrBadTile nor ErrMalformed", err)
	}
}

// FuzzActionFromPB decodes arbitrary actions: no panic, a refusal means a
// bad tile or a malformed message, and what is accepted comes back the
// same through the wire.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(100), "", "123m", int32(0))
	f.Add(int32(101), "", "", int32(2))
	f.Add(int32(1), "5p", "", int32(0))
	f.Add(int32(9), "", "", int32(0))
	f.Add(int32(4), "9s", "", int32(0))
	f.Add(int32(3), "1z", "0m", int32(7))
	f.Fuzz(func(t *testing.T, typ int32, tl, tls string, suit int32) {
		in := &pb.Action{Type: pb.ActionType(typ), Tile: tl, Tiles: tls, Suit: pb.SichuanSuit(suit)}
		a, err := wsc.ActionFromPB(in, 3)
		if err != nil {
			refusal(t, err)
			if a != (sc.Action{}) {
				t.Fatalf("ActionFromPB(%v) = %+v with error %v", in, a, err)
			}
			return
		}
		if back, err := wsc.ActionFromPB(wsc.ActionToPB(a), 3); err != nil || back != a {
			t.Fatalf("round trip of %+v via %v = %+v, %v", a, wsc.ActionToPB(a), back, err)
		}
	})
}

// FuzzBodyFromPB decodes arbitrary events (protobuf bytes), seeded with
// the events of a whole match: no panic, a refusal means a bad tile or a
// malformed message, and what is accepted has a wire form that the next
// trip keeps as it is.
func FuzzBodyFromPB(f *testing.F) {
	r := sc.Default
	r.Hands = 1
	game(f, r, 9, func(b sc.Body) {
		e, err := wsc.EventToPB(1, at, b)
		if err != nil {
			f.Fatal(err)
		}
		data, err := proto.Marshal(e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}, func(sc.View) {})
	f.Fuzz(func(t *testing.T, data []byte) {
		var in pb.Event
		if proto.Unmarshal(data, &in) != nil {
			return
		}
		b, err := wsc.BodyFromPB(&in)
		if err != nil {
			refusal(t, err)
			return
		}
		e1, err := wsc.EventToPB(1, at, b)
		if err != nil {
			t.Fatalf("EventToPB(%#v) = %v", b, err)
		}
		b2, err := wsc.BodyFromPB(e1)
		if err != nil {
			t.Fatalf("BodyFromPB(%v) = %v, from the wire form of %#v", e1, err, b)
		}
		if e2, err := wsc.EventToPB(1, at, b2); err != nil || !proto.Equal(e1, e2) {
			t.Fatalf("wire form %v changed to %v, %v", e1, e2, err)
		}
	})
}

// FuzzViewFromPB decodes arbitrary views: no panic, refusals as above,
// and what is accepted keeps its wire form.
func FuzzViewFromPB(f *testing.F) {
	r := sc.Default
	r.Hands = 1
	n := 0
	game(f, r, 3, func(sc.Body) {}, func(v sc.View) {
		if n++; n%37 == 0 {
			data, _ := proto.Marshal(wsc.ViewToPB(v))
			f.Add(data)
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		var in pb.View
		if proto.Unmarshal(data, &in) != nil {
			return
		}
		v, err := wsc.ViewFromPB(&in, 5)
		if err != nil {
			refusal(t, err)
			return
		}
		w1 := wsc.ViewToPB(v)
		v2, err := wsc.ViewFromPB(w1, 5)
		if err != nil {
			t.Fatalf("ViewFromPB(%v) = %v", w1, err)
		}
		if w2 := wsc.ViewToPB(v2); !proto.Equal(w1, w2) {
			t.Fatalf("wire form %v changed to %v", w1, w2)
		}
	})
}

// TestCoversTheAPI: every action type and event of the API numbered in
// Sichuan's range (100-149) has a Sichuan form, and the Sichuan wire reads
// every Sichuan action type.
func TestCoversTheAPI(t *testing.T) {
	for n := range pb.ActionType_name {
		if n >= 100 && n < 150 {
			if _, ok := wsc.ActionType(pb.ActionType(n)); !ok {
				t.Errorf("%v has no Sichuan action type", pb.ActionType(n))
			}
		}
	}
	seen := map[string]bool{}
	r := sc.Default
	r.Hands = 2
	game(t, r, 4, func(b sc.Body) {
		e, err := wsc.EventToPB(1, at, b)
		if err != nil {
			t.Fatal(err)
		}
		seen[string(e.ProtoReflect().WhichOneof(e.ProtoReflect().Descriptor().Oneofs().ByName("body")).Name())] = true
	}, func(sc.View) {})
	// The kans of a short match are few: their bodies, round trip included.
	for _, b := range []sc.Body{
		sc.KanPaid{Seat: 1, Type: sc.MeldAddedKan, Deltas: [4]int{-1, 3, -1, -1}, Scores: [4]int{-1, 3, -1, -1}},
		sc.KanTransferred{Seat: 1, To: 2, Units: 3, Scores: [4]int{-5, 0, 6, -1}},
	} {
		e, err := wsc.EventToPB(1, at, b)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := wsc.BodyFromPB(e); err != nil || !reflect.DeepEqual(back, b) {
			t.Errorf("BodyFromPB(EventToPB(%#v)) = %#v, %v", b, back, err)
		}
		seen[string(e.ProtoReflect().WhichOneof(e.ProtoReflect().Descriptor().Oneofs().ByName("body")).Name())] = true
	}
	fields := (&pb.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("body").Fields()
	for i := range fields.Len() {
		f := fields.Get(i)
		if f.Number() >= 100 && f.Number() < 150 && !seen[string(f.Name())] {
			t.Errorf("no Sichuan event has the wire form %s", f.Name())
		}
	}
}
