package wire_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wire"
)

// refusal checks that a decoding error means a bad tile or a malformed
// message.
func refusal(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, wire.ErrBadTile) && !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("refusal %v is neither ErrBadTile nor ErrMalformed", err)
	}
}

// FuzzActionFromPB decodes arbitrary actions: no panic, a refusal means a
// bad tile or a malformed message, and what is accepted comes back the
// same through the wire.
func FuzzActionFromPB(f *testing.F) {
	for _, a := range testActions {
		w := wire.ActionToPB(a)
		f.Add(int32(w.GetType()), w.GetTile(), w.GetTiles(), w.GetTsumogiri())
	}
	f.Add(int32(99), "9x", "1f", true)
	f.Fuzz(func(t *testing.T, typ int32, tl, tls string, tsumogiri bool) {
		in := &pb.Action{Type: pb.ActionType(typ), Tile: tl, Tiles: tls, Tsumogiri: tsumogiri}
		a, err := wire.ActionFromPB(in, 3)
		if err != nil {
			refusal(t, err)
			if a != (table.Action{}) {
				t.Fatalf("ActionFromPB(%v) = %+v with error %v", in, a, err)
			}
			return
		}
		if back, err := wire.ActionFromPB(wire.ActionToPB(a), 3); err != nil || back != a {
			t.Fatalf("round trip of %+v via %v = %+v, %v", a, wire.ActionToPB(a), back, err)
		}
	})
}

// FuzzBodyFromPB decodes arbitrary events (protobuf bytes): no panic, a
// refusal means a bad tile or a malformed message, and what is accepted
// has a wire form that the next trip keeps as it is, which MarshalEvent
// encodes as proto.Marshal does.
func FuzzBodyFromPB(f *testing.F) {
	at := time.Unix(1700000000, 0)
	for i, b := range testBodies {
		e, err := wire.EventToPB(uint64(i), at, b)
		if err != nil {
			f.Fatal(err)
		}
		data, err := proto.Marshal(e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in pb.Event
		if proto.Unmarshal(data, &in) != nil {
			return
		}
		b, err := wire.BodyFromPB(&in)
		if err != nil {
			refusal(t, err)
			return
		}
		e1, err := wire.EventToPB(1, at, b)
		if err != nil {
			t.Fatalf("EventToPB(%#v) = %v", b, err)
		}
		b2, err := wire.BodyFromPB(e1)
		if err != nil {
			t.Fatalf("BodyFromPB(%v) = %v, from the wire form of %#v", e1, err, b)
		}
		if e2, err := wire.EventToPB(1, at, b2); err != nil || !proto.Equal(e1, e2) {
			t.Fatalf("wire form %v changed to %v, %v", e1, e2, err)
		}
		want, err := proto.Marshal(e1)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := wire.MarshalEvent(1, at, b); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("MarshalEvent(%#v) = %x, %v; want proto.Marshal's %x", b, got, err, want)
		}
	})
}
