package classical

import (
	"errors"
	"reflect"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/table/classical/classicaltest"
)

// normal makes empty slices nil, recursively enough for bodies and views.
func normal(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() == 0 {
			if v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			normal(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			normal(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			normal(v.Field(i))
		}
	}
}

func norm[T any](x T) T {
	p := reflect.New(reflect.TypeOf(x)).Elem()
	p.Set(reflect.ValueOf(x))
	normal(p)
	return p.Interface().(T)
}

// TestRoundTrip plays bot games and sends every event, every seat's view
// and every legal action through the wire and back.
func TestRoundTrip(t *testing.T) {
	rules := ct.Default
	rules.Rounds = 1
	for seed := range uint64(3) {
		tb, _ := ct.New(ct.Config{Rules: rules})
		hands := 0
		var v ct.View
		for steps := 0; tb.Phase() != ct.GameOver && steps < 50_000; steps++ {
			a, _ := classicaltest.Next(tb, seed, &hands, &v, botc.Efficient{}.Act)
			evs, err := tb.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				m, err := EventToPB(e.Seq, time.Unix(0, 0), e.Body)
				if err != nil {
					t.Fatal(err)
				}
				got, err := BodyFromPB(m)
				if err != nil {
					t.Fatalf("%v: %v", e, err)
				}
				if want := e.Body; !reflect.DeepEqual(norm(got), norm(want)) {
					t.Fatalf("round trip:\n got %#v\nwant %#v", got, want)
				}
			}
			for s := range ct.Seat(ct.NumSeats) {
				v := tb.View(s)
				v.Seq = 0 // a Snapshot's, not the view's
				got, err := ViewFromPB(ViewToPB(v))
				if err != nil {
					t.Fatalf("view: %v", err)
				}
				if !reflect.DeepEqual(norm(got), norm(v)) {
					t.Fatalf("view round trip:\n got %+v\nwant %+v", got, v)
				}
			}
		}
	}
}

func TestActionFromPBRefuses(t *testing.T) {
	for _, a := range []*pb.Action{
		{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "1m"},
		{Type: pb.ActionType_ACTION_TYPE_DISCARD},
		{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1f"},
		{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "0m"},
		{Type: pb.ActionType_ACTION_TYPE_CHI, Tile: "xx"},
	} {
		if _, err := ActionFromPB(a, 0); !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrBadTile) {
			t.Errorf("ActionFromPB(%v) = %v, want a malformed or bad-tile error", a, err)
		}
	}
}

// FuzzActionFromPB: any action decodes or is refused, never panics, and
// what decodes encodes back to an action that decodes the same.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(1), "5m")
	f.Add(int32(400), "")
	f.Add(int32(3), "3p")
	f.Fuzz(func(t *testing.T, typ int32, tl string) {
		a, err := ActionFromPB(&pb.Action{Type: pb.ActionType(typ), Tile: tl}, 1)
		if err != nil {
			return
		}
		b, err := ActionFromPB(ActionToPB(a, typ == int32(pb.ActionType_ACTION_TYPE_RON)), 1)
		if err != nil || b != a {
			t.Fatalf("%v: round trip %v, %v", a, b, err)
		}
	})
}
