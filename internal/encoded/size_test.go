package encoded

import (
	"sync"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// TestMessageSize keeps a Message in the allocator's 128-byte class: one
// is made for every viewer of every event.
func TestMessageSize(t *testing.T) {
	if n := unsafe.Sizeof(Message{}); n > 128 {
		t.Errorf("a Message is %d bytes, want at most 128", n)
	}
}

// TestDecodeConcurrent decodes one Message from several goroutines at
// once: every call gets the same message.
func TestDecodeConcurrent(t *testing.T) {
	shared, err := proto.Marshal(&pb.Event{Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "5m"}}})
	if err != nil {
		t.Fatal(err)
	}
	m := Numbered(func() proto.Message { return &pb.StreamEventsResponse{} }, 2, 9, shared)
	got := make([]proto.Message, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			msg, err := m.Decode()
			if err != nil {
				t.Error(err)
			}
			got[i] = msg
		})
	}
	wg.Wait()
	for i, msg := range got {
		if msg != got[0] {
			t.Fatalf("call %d decoded %p, call 0 %p: want one message", i, msg, got[0])
		}
	}
	if seq := got[0].(*pb.StreamEventsResponse).GetEvent().GetSeq(); seq != 9 {
		t.Errorf("decoded seq %d, want 9", seq)
	}
}
