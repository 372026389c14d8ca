package client

import (
	"errors"
	"testing"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// muxFrameSeeds are MultiplexResponses as the server writes them, and as
// other encoders may: each field once, and fields repeated (which proto
// merges or replaces, and the frame reads on its slow path).
func muxFrameSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	ev := func(ref uint32, e *pb.StreamEventsResponse) *pb.MultiplexItem {
		return &pb.MultiplexItem{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{Ref: ref, Event: e}}}
	}
	event := &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: &pb.Event{
		Seq: 9, Time: timestamppb.New(time.Unix(1_800_000_000, 5)), Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 2, Tile: "5m", Tsumogiri: true}},
	}}}
	snap := &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Snapshot{Snapshot: &pb.Snapshot{Seq: 4, View: &pb.View{Seat: 1, Drawn: "3p"}}}}
	denied := &spb.Status{Code: 7, Message: "no"}
	msgs := []*pb.MultiplexResponse{
		{},
		{Items: []*pb.MultiplexItem{ev(1, event)}},
		{Items: []*pb.MultiplexItem{ev(3, snap), ev(1, event), ev(2, &pb.StreamEventsResponse{}), ev(4, nil), {}}},
		{Items: []*pb.MultiplexItem{
			{Kind: &pb.MultiplexItem_Answer{Answer: &pb.MultiplexAnswer{Call: 12, Response: &pb.ActResponse{Seq: 40}}}},
			{Kind: &pb.MultiplexItem_Answer{Answer: &pb.MultiplexAnswer{Call: 13, Error: denied}}},
			{Kind: &pb.MultiplexItem_Answer{Answer: &pb.MultiplexAnswer{Call: 14}}},
			{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 5, Status: denied}}},
			{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 6, Status: &spb.Status{}}}},
			{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 7}}},
		}},
	}
	var seeds [][]byte
	for _, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	// Repeated fields: two items concatenated into one (an item's kinds
	// given twice), an event's response given twice (merged), a status
	// given twice.
	one, _ := proto.Marshal(&pb.MultiplexItem{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{Ref: 1, Event: snap}}})
	two, _ := proto.Marshal(&pb.MultiplexItem{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{Ref: 2, Event: event}}})
	end, _ := proto.Marshal(&pb.MultiplexItem{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 5, Status: denied}}})
	for _, item := range [][]byte{append(one, two...), append(two, two...), append(end, end...), append(end, one...)} {
		b := append([]byte{1<<3 | 2}, byte(len(item)))
		seeds = append(seeds, append(b, item...))
	}
	return seeds
}

// checkFrame fails unless the frame of b means what proto.Unmarshal makes
// of it: an error for both, or the same items.
func checkFrame(t *testing.T, b []byte) {
	t.Helper()
	var want pb.MultiplexResponse
	werr := proto.Unmarshal(b, &want)
	f := muxFrame{b: b}
	err := f.read()
	var entries [][2]proto.Message // the frame's snapshots and events, decoded
	for _, it := range f.items {
		snap, ev, derr := muxEntry{snap: it.snap, event: it.event}.decode()
		if derr != nil && err == nil {
			err = derr // bytes that do not decode fail on the seat's side
		}
		entries = append(entries, [2]proto.Message{snap, ev})
	}
	if (werr != nil) != (err != nil) {
		t.Fatalf("proto.Unmarshal: %v; frame: %v", werr, err)
	}
	if werr != nil {
		return
	}
	if len(f.items) != len(want.GetItems()) {
		t.Fatalf("%d items, want %d", len(f.items), len(want.GetItems()))
	}
	for i, w := range want.GetItems() {
		it := f.items[i]
		var kind int
		var ref uint32
		var call, seq uint64
		var st *spb.Status
		var snap, ev proto.Message = (*pb.Snapshot)(nil), (*pb.Event)(nil)
		switch k := w.GetKind().(type) {
		case *pb.MultiplexItem_Event:
			kind, ref = itemEvent, k.Event.GetRef()
			snap, ev = k.Event.GetEvent().GetSnapshot(), k.Event.GetEvent().GetEvent()
		case *pb.MultiplexItem_Answer:
			kind, call, seq, st = itemAnswer, k.Answer.GetCall(), k.Answer.GetResponse().GetSeq(), k.Answer.GetError()
		case *pb.MultiplexItem_End:
			kind, ref, st = itemEnd, k.End.GetRef(), k.End.GetStatus()
		}
		if it.kind != kind || it.ref != ref || it.call != call || it.seq != seq || (it.st == nil) != (st == nil) || !proto.Equal(it.st, st) {
			t.Errorf("item %d: kind %d ref %d call %d seq %d status %v, want %d %d %d %d %v", i, it.kind, it.ref, it.call, it.seq, it.st, kind, ref, call, seq, st)
		}
		gotSnap, gotEv := entries[i][0], entries[i][1]
		if !proto.Equal(gotSnap, snap) || !proto.Equal(gotEv, ev) {
			t.Errorf("item %d: snapshot %v event %v, want %v %v", i, gotSnap, gotEv, snap, ev)
		}
	}
}

// TestMuxFrame reads the seeds, on the fast path and the slow.
func TestMuxFrame(t *testing.T) {
	for i, b := range muxFrameSeeds(t) {
		fast := readFrame(b, func(muxItem) {})
		t.Logf("seed %d: fast path: %v", i, fast)
		if i < 4 && fast != nil {
			t.Errorf("seed %d, as proto writes it: %v, want the fast path", i, fast)
		}
		if i >= 4 && !errors.Is(fast, errIrregular) {
			t.Errorf("seed %d, fields repeated: %v, want the slow path", i, fast)
		}
		checkFrame(t, b)
	}
}

// FuzzMuxFrame: whatever bytes come, a frame means what proto.Unmarshal
// makes of them.
func FuzzMuxFrame(f *testing.F) {
	for _, b := range muxFrameSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(checkFrame)
}

// BenchmarkReadFrame reads the seeds' frames in place: the cost of the
// frame reader alone (allocations: only the statuses it decodes).
func BenchmarkReadFrame(b *testing.B) {
	seeds := muxFrameSeeds(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = readFrame(seeds[i%len(seeds)], func(muxItem) {})
	}
}
