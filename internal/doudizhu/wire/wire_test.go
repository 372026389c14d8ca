package wire

import (
	"errors"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

func TestActionFromPB(t *testing.T) {
	for _, c := range []struct {
		in   *pb.Action
		want table.Action
		ok   bool
	}{
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_BID, Bid: 2}, table.Action{Seat: 1, Type: table.Bid, Bid: 2}, true},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "34567"}, table.Action{Seat: 1, Type: table.Play, Cards: card.MustParse("34567")}, true},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}, table.Action{Seat: 1, Type: table.Pass}, true},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CALL}, table.Action{Seat: 1, Type: table.Call}, true},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_ROB}, table.Action{Seat: 1, Type: table.Rob}, true},
		{nil, table.Action{}, false},
		{&pb.Action{}, table.Action{}, false},
		{&pb.Action{Type: 9}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_BID, Bid: 0}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_BID, Bid: 4}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS, Bid: 1}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS, Cards: "3"}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "33333"}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "3z"}, table.Action{}, false},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "3456789TJQKA2XD3456789"}, table.Action{}, false},
	} {
		got, err := ActionFromPB(c.in, 1)
		if (err == nil) != c.ok || c.ok && got != c.want || !c.ok && !errors.Is(err, ErrMalformed) {
			t.Errorf("ActionFromPB(%v) = %v, %v", c.in, got, err)
		}
		if c.ok {
			if back, err := ActionFromPB(ActionToPB(got), 1); err != nil || back != got {
				t.Errorf("%v does not go round: %v, %v", got, back, err)
			}
		}
	}
}

// TestPlayTypesMatch: the judge's types are numbered as the API's.
func TestPlayTypesMatch(t *testing.T) {
	for ty := judge.Single; ty <= judge.FourTwoPairs; ty++ {
		name := pb.PlayType(ty).String()
		if want := "PLAY_TYPE_" + upper(ty.String()); name != want {
			t.Errorf("judge type %v is %s in the API, want %s", ty, name, want)
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// FuzzActionFromPB: any action either converts to an action that goes
// round, or is refused as malformed.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(1), uint32(2), "")
	f.Add(int32(5), uint32(0), "33344")
	f.Fuzz(func(t *testing.T, ty int32, bid uint32, cards string) {
		a, err := ActionFromPB(&pb.Action{Type: pb.ActionType(ty), Bid: bid, Cards: cards}, 2)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("refused without ErrMalformed: %v", err)
			}
			return
		}
		if back, err := ActionFromPB(ActionToPB(a), 2); err != nil || back != a {
			t.Fatalf("%v does not go round: %v, %v", a, back, err)
		}
	})
}
