package server_test

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestClaimWindowTellsNothing plays the same two rounds over gRPC at two
// tables that differ only in whether seat 2 gets a claim offer on every
// discard of the others; it thinks half a second and passes. With a claim
// dwell, seats 1 and 3, never offered anything, receive the same events
// with the same numbers and the same times at both tables: neither the
// numbering nor the timing tells them that seat 2 could have claimed.
// Without the dwell the times differ, which shows the test can tell.
func TestClaimWindowTellsNothing(t *testing.T) {
	dwell := time.Second
	a, offered := playDwellGame(t, true, dwell)
	b, none := playDwellGame(t, false, dwell)
	if offered == 0 || none != 0 {
		t.Fatalf("seat 2 had %d offers at the first table and %d at the second, want some and none", offered, none)
	}
	for _, s := range []int{1, 3} {
		if d := diff(a[s], b[s]); d != "" {
			t.Errorf("seat %d, with offers to seat 2 and without: %s", s, d)
		}
	}
	a, _ = playDwellGame(t, true, 0)
	b, _ = playDwellGame(t, false, 0)
	if diff(a[1], b[1]) == "" {
		t.Error("without a dwell seat 1 sees the same at both tables: the test cannot tell")
	}
}

func diff(a, b []*pb.Event) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d events and %d", len(a), len(b))
	}
	for k := range a {
		if !proto.Equal(a[k], b[k]) {
			return fmt.Sprintf("event %d is\n%v\nand\n%v", k, a[k], b[k])
		}
	}
	return ""
}

// playDwellGame plays two rounds of the fake engine, one step at a time on
// a fake clock, so that every time is exact: seats discard what they draw;
// seat 2 gets offers when offers is set, thinks 500ms and passes. It
// returns what every seat received and how many offers seat 2 had.
func playDwellGame(t *testing.T, offers bool, dwell time.Duration) ([4][]*pb.Event, int) {
	t.Helper()
	cfg := baseConfig()
	cfg.NewEngine = newFakeOffers(2, 8, func(d table.Seat) (table.Seat, bool) { return 2, offers && d != 2 })
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e := startEnv(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32), ClaimDwell: durationpb.New(dwell)})
	s := newStepper(t, e, id, clk)
	s.think, s.dwell = 500*time.Millisecond, dwell
	s.run(0)
	return s.finish(), s.offered
}
