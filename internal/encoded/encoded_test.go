package encoded_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/encoded"
)

func newResp() proto.Message { return &pb.StreamEventsResponse{} }

// events are events of every shape: a notice, a body with nested
// messages and repeated fields, one with nothing but its time.
var events = []*pb.Event{
	{Time: timestamppb.New(time.Unix(1_700_000_000, 5)), Body: &pb.Event_SeatNotice{SeatNotice: &pb.SeatNotice{Kind: pb.SeatNotice_KIND_JOINED, Seat: 2, Name: "ann"}}},
	{Time: timestamppb.New(time.Unix(1_700_000_001, 0)), Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "5m", Tsumogiri: true}}},
	{Time: timestamppb.New(time.Unix(0, 0))},
	{},
}

// TestNumberedIsStandard checks that the encoding spliced from the
// viewer's seq and the shared bytes is proto.Marshal's of the whole
// message, for seqs of every varint length, and that it decodes to it.
func TestNumberedIsStandard(t *testing.T) {
	codec := encoding.GetCodecV2("proto")
	for _, e := range events {
		shared, err := proto.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, seq := range []uint64{0, 1, 127, 128, 300, 1 << 40, 1<<64 - 1} {
			want := &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: proto.CloneOf(e)}}
			want.GetEvent().Seq = seq
			std, err := proto.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			m := encoded.Numbered(newResp, 2, seq, shared)
			if got := m.AppendTo(nil); !bytes.Equal(got, std) || m.Len() != len(std) {
				t.Errorf("Numbered(seq %d, %v) = %x (len %d), want %x", seq, e, got, m.Len(), std)
			}
			data, err := codec.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if got := data.Materialize(); !bytes.Equal(got, std) {
				t.Errorf("codec's Marshal(seq %d, %v) = %x, want %x", seq, e, got, std)
			}
			dec, err := m.Decode()
			if err != nil || !proto.Equal(dec, want) {
				t.Errorf("Decode(seq %d) = %v, %v; want %v", seq, dec, err, want)
			}
			// Another codec sees the decoded message through ProtoReflect.
			j1, err1 := protojson.Marshal(m)
			j2, err2 := protojson.Marshal(want)
			if err1 != nil || err2 != nil || !bytes.Equal(j1, j2) {
				t.Errorf("protojson: %s, %v; want %s, %v", j1, err1, j2, err2)
			}
		}
	}
}

// TestSet: a Message Set again and again is each time what Numbered
// makes (its decoded form too, not the previous one's), and Set
// allocates nothing.
func TestSet(t *testing.T) {
	var m encoded.Message
	for _, seq := range []uint64{0, 300, 1 << 40} {
		for _, e := range events {
			shared, err := proto.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			want := encoded.Numbered(newResp, 2, seq, shared)
			m.Set(newResp, 2, seq, shared)
			if got := m.AppendTo(nil); !bytes.Equal(got, want.AppendTo(nil)) || m.Seq() != seq {
				t.Errorf("Set(seq %d, %v) = %x, seq %d; want %x", seq, e, got, m.Seq(), want.AppendTo(nil))
			}
			d1, err1 := m.Decode()
			d2, err2 := want.Decode()
			if err1 != nil || err2 != nil || !proto.Equal(d1, d2) {
				t.Errorf("Set(seq %d): Decode = %v, %v; want %v, %v", seq, d1, err1, d2, err2)
			}
		}
	}
	shared, _ := proto.Marshal(events[1])
	if n := testing.AllocsPerRun(100, func() { m.Set(newResp, 2, 77, shared) }); n != 0 {
		t.Errorf("Set allocates %v times, want 0", n)
	}
}

// TestCodecFallsBack checks that every other message is encoded and
// decoded as by grpc-go's proto codec.
func TestCodecFallsBack(t *testing.T) {
	codec := encoding.GetCodecV2("proto")
	if _, ok := codec.(encoded.Codec); !ok {
		t.Fatalf("the proto codec is %T, want encoded.Codec", codec)
	}
	in := &pb.ActRequest{TableId: "t", SeatToken: "s", LastSeq: 9, RequestId: "r"}
	data, err := codec.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	std, _ := proto.Marshal(in)
	if !bytes.Equal(data.Materialize(), std) {
		t.Fatalf("Marshal(%v) = %x, want %x", in, data.Materialize(), std)
	}
	var out pb.ActRequest
	if err := codec.Unmarshal(data, &out); err != nil || !proto.Equal(&out, in) {
		t.Fatalf("Unmarshal = %v, %v; want %v", &out, err, in)
	}
	if _, err := codec.Marshal(42); err == nil {
		t.Fatal("Marshal of an int: want an error")
	}
}

// TestDecodeBad checks that bytes that are no message are an error.
func TestDecodeBad(t *testing.T) {
	m := encoded.Numbered(newResp, 2, 1, []byte{0xff})
	if _, err := m.Decode(); err == nil {
		t.Fatal("Decode of a bad encoding: want an error")
	}
}

// One event encoded once, sent to two viewers with their own numbers.
func ExampleNumbered() {
	ev := &pb.Event{Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "5m"}}}
	shared, _ := proto.Marshal(ev) // once, without a seq
	for _, seq := range []uint64{7, 12} {
		m := encoded.Numbered(func() proto.Message { return &pb.StreamEventsResponse{} }, 2, seq, shared)
		dec, _ := m.Decode()
		fmt.Printf("%d bytes: seq %d\n", m.Len(), dec.(*pb.StreamEventsResponse).GetEvent().GetSeq())
	}
	// Output:
	// 12 bytes: seq 7
	// 12 bytes: seq 12
}

// FuzzNumbered checks the splice against proto.Marshal for any seq and
// any event made of a notice's fields and a time.
func FuzzNumbered(f *testing.F) {
	f.Add(uint64(1), int64(1_700_000_000), int32(5), "ann", uint32(2))
	f.Add(uint64(1<<63), int64(0), int32(0), "", uint32(0))
	f.Fuzz(func(t *testing.T, seq uint64, secs int64, nanos int32, name string, seat uint32) {
		ev := &pb.Event{Time: &timestamppb.Timestamp{Seconds: secs, Nanos: nanos},
			Body: &pb.Event_SeatNotice{SeatNotice: &pb.SeatNotice{Kind: pb.SeatNotice_KIND_LEFT, Seat: seat, Name: name}}}
		shared, err := proto.Marshal(ev)
		if err != nil {
			t.Skip() // not UTF-8: proto refuses it, and so would the server
		}
		want := &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: proto.CloneOf(ev)}}
		want.GetEvent().Seq = seq
		std, err := proto.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if got := encoded.Numbered(newResp, 2, seq, shared).AppendTo(nil); !bytes.Equal(got, std) {
			t.Fatalf("Numbered(%d, %v) = %x, want %x", seq, ev, got, std)
		}
	})
}

// TestMarshalAllocs checks that the codec hands a Message's bytes to gRPC
// without an allocation (one Message is sent per viewer of every event),
// and that gRPC's reader, which the transport uses to cut the message
// into frames, reads the two buffers whole in pieces of any size.
func TestMarshalAllocs(t *testing.T) {
	codec := encoding.GetCodecV2("proto")
	shared, err := proto.Marshal(events[1])
	if err != nil {
		t.Fatal(err)
	}
	m := encoded.Numbered(newResp, 2, 300, shared)
	want := m.AppendTo(nil)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := codec.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("codec's Marshal of a Message: %v allocations, want 0", n)
	}
	for _, size := range []int{1, 3, len(want)} {
		data, err := codec.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		r := data.Reader()
		var got []byte
		buf := make([]byte, size)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if !bytes.Equal(got, want) {
			t.Errorf("read in pieces of %d: %x, want %x", size, got, want)
		}
	}
}

// TestWhole checks that the codec sends a Whole's buffer as it is, that
// it decodes to the message it encodes for another codec, and that its
// Seq is a Numbered's.
func TestWhole(t *testing.T) {
	want := &pb.ActRequest{TableId: "t", SeatToken: "s", LastSeq: 9, RequestId: "r"}
	pool := mem.DefaultBufferPool()
	std, _ := proto.Marshal(want)
	buf := pool.Get(len(std))
	copy(*buf, std)
	w := encoded.NewWhole(func() proto.Message { return &pb.ActRequest{} }, buf, pool)
	if !bytes.Equal(w.Bytes(), std) {
		t.Fatalf("Bytes = %x, want %x", w.Bytes(), std)
	}
	if j1, j2 := protojson.Format(w), protojson.Format(want); j1 != j2 {
		t.Errorf("protojson: %s, want %s", j1, j2)
	}
	data, err := encoding.GetCodecV2("proto").Marshal(w)
	if err != nil || !bytes.Equal(data.Materialize(), std) {
		t.Fatalf("Marshal = %x, %v; want %x", data.Materialize(), err, std)
	}
	data.Free() // the buffer goes back to the pool
	for _, seq := range []uint64{0, 1, 42, 300, 1 << 63} {
		if m := encoded.Numbered(newResp, 2, seq, []byte{0x12, 0}); m.Seq() != seq {
			t.Errorf("Numbered(seq %d).Seq() = %d", seq, m.Seq())
		}
	}
}

// TestMergeReuses checks that a *Merge is decoded into as it is: the
// messages set in it are filled, not replaced, and a field absent stays
// as it was set (the reader clears it), while a message decoded plainly
// is reset first.
func TestMergeReuses(t *testing.T) {
	codec := encoding.GetCodecV2("proto")
	b, err := proto.Marshal(&pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: 7,
		Request: &pb.ActRequest{TableId: "t1", SeatToken: "s1", RequestId: "r1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	act := &pb.MultiplexAct{}
	req := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: act}}
	if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, &encoded.Merge{Message: req}); err != nil {
		t.Fatal(err)
	}
	if req.GetAct() != act || act.GetCall() != 7 || act.GetRequest().GetTableId() != "t1" {
		t.Errorf("merged: act %p (set %p), %v", req.GetAct(), act, req)
	}
	plain := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: act}}
	if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, plain); err != nil {
		t.Fatal(err)
	}
	if plain.GetAct() == act || !proto.Equal(plain, req) {
		t.Errorf("plain: act %p reused or %v differs from %v", plain.GetAct(), plain, req)
	}
}
