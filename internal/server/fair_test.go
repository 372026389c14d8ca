package server_test

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"
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

// seatStream is one seat's stream, read by the test in step with the table.
type seatStream struct {
	token string
	st    grpc.ServerStreamingClient[pb.StreamEventsResponse]
	from  uint64
	evs   []*pb.Event
	done  int // events already acted on
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
	ctx := ctxT(t)
	seats := make([]*seatStream, 4)
	var before uint64
	for k := range seats {
		if k == 3 {
			// Until the fourth join every event is public: every seat's
			// number is the spectators'.
			before = e.table(t, id).GetLastSeq()
		}
		_, tok := e.join(t, id)
		seats[k] = &seatStream{token: tok}
	}
	for _, s := range seats {
		st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: s.token, AfterSeq: before})
		if err != nil {
			t.Fatal(err)
		}
		s.st, s.from = st, before
	}
	host := e.srv.Host()
	// sync reads every seat's stream up to what the table has published;
	// SeatSeq goes through the table's goroutine, so the table has done
	// everything asked of it before.
	sync := func() {
		for k, s := range seats {
			n, err := host.SeatSeq(ctx, id, s.token)
			if err != nil {
				t.Fatal(err)
			}
			for s.from+uint64(len(s.evs)) < n {
				r, err := s.st.Recv()
				if err != nil {
					t.Fatalf("seat %d: %v", k, err)
				}
				s.evs = append(s.evs, r.GetEvent())
			}
		}
	}
	var discardAt time.Time
	offered := 0
	for step := 0; ; step++ {
		if step > 1000 {
			t.Fatal("the game does not end")
		}
		sync()
		if e.table(t, id).GetState() == pb.TableState_TABLE_STATE_FINISHED {
			break
		}
		acted := false
		for k, s := range seats {
			var act *pb.Action
			for _, ev := range s.evs[s.done:] {
				if d := ev.GetDrew(); d.GetTile() != "" {
					act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: d.GetTile()}
				}
				if ev.GetClaimOffer() != nil {
					act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
				}
			}
			if act == nil {
				continue
			}
			if act.GetType() == pb.ActionType_ACTION_TYPE_PASS {
				offered++
				clk.Advance(500 * time.Millisecond) // thinking
			} else {
				discardAt = clk.Now()
			}
			last := s.from + uint64(len(s.evs))
			if _, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: s.token, LastSeq: last, RequestId: uuid.NewString(), Action: act}); err != nil {
				t.Fatalf("seat %d %v: %v", k, act, err)
			}
			s.done = len(s.evs)
			acted = true
			break
		}
		if !acted {
			// Everyone waits for the dwell to end.
			if clk.Pending() == 0 {
				t.Fatal("nobody can act and no timer runs")
			}
			clk.Advance(discardAt.Add(dwell).Sub(clk.Now()))
		}
	}
	var out [4][]*pb.Event
	for k, s := range seats {
		for {
			r, err := s.st.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("seat %d: %v", k, err)
			}
			s.evs = append(s.evs, r.GetEvent())
		}
		checkPrivacy(t, uint32(k), before, nil, s.evs)
		out[k] = s.evs
	}
	return out, offered
}
