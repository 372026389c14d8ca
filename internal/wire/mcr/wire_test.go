package mcr

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// botGame plays a game of bots and calls see after every step with its
// events and the table.
func botGame(tb testing.TB, rules tbl.Rules, seed byte, see func(t *tbl.Table, evs []tbl.Event)) {
	tb.Helper()
	t, err := tbl.New(tbl.Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	var bots [tbl.NumSeats]bmcr.Player
	for n := 0; t.Phase() != tbl.GameOver; n++ {
		if n > 10000 {
			tb.Fatal("the game does not end")
		}
		var a tbl.Action
		if t.Phase() == tbl.BetweenHands {
			w := wall.New144([32]byte{seed, byte(t.Hands())})
			a = tbl.Action{Type: tbl.Deal, Wall: &w}
		} else {
			found := false
			for s := range tbl.Seat(tbl.NumSeats) {
				if a, found = bots[s].Decide(t, s); found {
					break
				}
			}
			if !found {
				tb.Fatalf("phase %v: nobody acts", t.Phase())
			}
		}
		evs, err := t.Step(a)
		if err != nil {
			tb.Fatalf("%v: %v", a, err)
		}
		see(t, evs)
	}
}

// TestRoundTrip converts every event body and every seat's view of bot
// games to the wire and back, and every legal action.
func TestRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	at := time.Unix(1700000000, 0)
	for seed := range byte(12) {
		botGame(t, tbl.Rules{Name: "mcr", Hands: 4}, seed, func(tt *tbl.Table, evs []tbl.Event) {
			bodies := make([]tbl.Body, 0, len(evs)+1)
			for _, e := range evs {
				bodies = append(bodies, e.Body)
			}
			if s, ok := tt.ToAct(); ok {
				bodies = append(bodies, tbl.TurnOffer{Seat: s, Options: tt.Legal(s)})
			}
			for _, b := range bodies {
				e, err := EventToPB(7, at, b)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := proto.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				var back pb.Event
				if err := proto.Unmarshal(raw, &back); err != nil {
					t.Fatal(err)
				}
				got, err := BodyFromPB(&back)
				if err != nil {
					t.Fatalf("%#v: %v", b, err)
				}
				if !reflect.DeepEqual(got, b) {
					t.Fatalf("round trip of %#v gives %#v", b, got)
				}
				seen[reflect.TypeOf(b).Name()] = true
			}
			for s := range tbl.Seat(tbl.NumSeats + 1) {
				v := tt.View(s)
				if s == tbl.NumSeats {
					v.Seat = 0 // a spectator's view as the client reads it: no tiles, no offers
				}
				got, err := ViewFromPB(ViewToPB(v), v.Seq)
				if err != nil {
					t.Fatalf("view of %d: %v", s, err)
				}
				if !reflect.DeepEqual(got, v) {
					t.Fatalf("view of %d:\n got %#v\nwant %#v", s, got, v)
				}
				for _, a := range v.Legal {
					back, err := ActionFromPB(ActionToPB(a), a.Seat)
					if err != nil || back != a {
						t.Fatalf("action %v round trip: %v, %v", a, back, err)
					}
				}
			}
		})
	}
	for _, name := range []string{"HandStarted", "Dealt", "FlowerSetAside", "Drew", "Discarded", "ClaimOffer", "TurnOffer", "Called", "Won", "HandEnded", "GameEnded"} {
		if !seen[name] {
			t.Errorf("bot games made no %s", name)
		}
	}
}

// TestBadInput: malformed messages are errors naming their field, never
// panics, and bad tiles are ErrBadTile.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		a    *pb.Action
		want error
	}{
		{"no type", &pb.Action{}, ErrMalformed},
		{"riichi", &pb.Action{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "1m"}, ErrMalformed},
		{"flower discard", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1f"}, ErrBadTile},
		{"red five", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "0m"}, ErrBadTile},
		{"two tiles", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "12m"}, ErrBadTile},
		{"chi of honours", &pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Run: "1z"}, ErrMalformed},
		{"chi from 8", &pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Run: "8p"}, ErrMalformed},
		{"chi without run", &pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI}, ErrBadTile},
	}
	for _, tc := range tests {
		if _, err := ActionFromPB(tc.a, 0); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	events := []*pb.Event{
		{},
		{Body: &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{}}},
		{Body: &pb.Event_McrFlowerSetAside{McrFlowerSetAside: &pb.McrFlowerSetAside{Flower: "1m"}}},
		{Body: &pb.Event_McrHandStarted{McrHandStarted: &pb.McrHandStarted{Index: 16}}},
		{Body: &pb.Event_Called{Called: &pb.Called{Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_CHI, Tiles: "789p1s", CalledTile: "7p"}}}},
		{Body: &pb.Event_Called{Called: &pb.Called{Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_CHI, Tiles: "123z", CalledTile: "1z"}}}},
		{Body: &pb.Event_Called{Called: &pb.Called{Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_PON, Tiles: "555m", CalledTile: "4m"}}}},
		{Body: &pb.Event_McrGameEnded{McrGameEnded: &pb.McrGameEnded{Scores: []int32{0, 0, 0, 0}}}},
	}
	for _, e := range events {
		if b, err := BodyFromPB(e); err == nil {
			t.Errorf("%v reads as %#v", e, b)
		}
	}
}

// FuzzBodyFromPB: whatever bytes a client gets, reading them never panics,
// and a body that reads goes back to the wire and reads the same.
func FuzzBodyFromPB(f *testing.F) {
	botGame(f, tbl.OneHand, 3, func(_ *tbl.Table, evs []tbl.Event) {
		for _, e := range evs {
			pe, _ := EventToPB(1, time.Unix(0, 0), e.Body)
			raw, _ := proto.Marshal(pe)
			f.Add(raw)
		}
	})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var e pb.Event
		if proto.Unmarshal(raw, &e) != nil {
			return
		}
		b, err := BodyFromPB(&e)
		if err != nil {
			return
		}
		again, err := EventToPB(1, time.Unix(0, 0), b)
		if err != nil {
			t.Fatal(err)
		}
		back, err := BodyFromPB(again)
		if err != nil || !reflect.DeepEqual(back, b) {
			t.Fatalf("%#v reads back as %#v, %v", b, back, err)
		}
	})
}

// FuzzActionFromPB: an action that reads goes to the wire and back
// unchanged.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(1), "5m", "")
	f.Add(int32(3), "", "3s")
	f.Fuzz(func(t *testing.T, typ int32, tl, run string) {
		a, err := ActionFromPB(&pb.Action{Type: pb.ActionType(typ), Tile: tl, Run: run}, 2)
		if err != nil {
			return
		}
		back, err := ActionFromPB(ActionToPB(a), 2)
		if err != nil || back != a {
			t.Fatalf("%v reads back as %v, %v", a, back, err)
		}
	})
}
