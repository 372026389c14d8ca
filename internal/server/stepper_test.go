package server_test

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
)

// stepper plays the four seats of a table over gRPC one action at a time,
// in step with the table, so that a test knows exactly what happened when:
// a seat discards the tile it draws, wins by ron when offered and passes
// every other offer.
type stepper struct {
	t     *testing.T
	e     *env
	id    string
	clk   *clock.Fake // nil: real time
	seats []*seatStream
	from  uint64 // every stream starts after this seq

	think     time.Duration // fake time a seat takes before answering an offer
	dwell     time.Duration // the table's claim dwell
	discardAt time.Time
	offered   int // offers answered

	// act sends an action; tests replace it to inject faults.
	act func(k int, req *pb.ActRequest) error
	// last is the last request sent; acked are the ids of every request
	// answered without error.
	last  *pb.ActRequest
	acked []string
}

// seatStream is one seat's stream, read by the test in step with the table.
type seatStream struct {
	token string
	st    grpc.ServerStreamingClient[pb.StreamEventsResponse]
	from  uint64
	evs   []*pb.Event
	done  int // events already acted on
}

// newStepper joins the four seats of table id and follows each from
// before the game.
func newStepper(t *testing.T, e *env, id string, clk *clock.Fake) *stepper {
	t.Helper()
	s := &stepper{t: t, e: e, id: id, clk: clk, seats: make([]*seatStream, 4)}
	for k := range s.seats {
		if k == 3 {
			// Until the fourth join every event is public: every seat's
			// number is the spectators'.
			s.from = e.table(t, id).GetLastSeq()
		}
		_, tok := e.join(t, id)
		s.seats[k] = &seatStream{token: tok}
	}
	for _, st := range s.seats {
		st.follow(t, e, id, s.from)
	}
	s.act = func(_ int, req *pb.ActRequest) error {
		_, err := s.e.tables.Act(ctxT(t), req)
		return err
	}
	return s
}

// follow opens the seat's stream after seq from (its own numbering).
func (st *seatStream) follow(t *testing.T, e *env, id string, from uint64) {
	t.Helper()
	c, err := e.tables.StreamEvents(ctxT(t), &pb.StreamEventsRequest{TableId: id, SeatToken: st.token, AfterSeq: from})
	if err != nil {
		t.Fatal(err)
	}
	st.st = c
	if st.evs == nil {
		st.from = from
	}
}

// sync reads every seat's stream up to what the table has published.
// SeatSeq goes through a call into the table, so the table has done
// everything asked of it before.
func (s *stepper) sync() {
	s.t.Helper()
	for k, st := range s.seats {
		n, err := riichiHost(s.e.srv).SeatSeq(ctxT(s.t), s.id, st.token)
		if err != nil {
			s.t.Fatal(err)
		}
		for st.from+uint64(len(st.evs)) < n {
			r, err := st.st.Recv()
			if err != nil {
				s.t.Fatalf("seat %d: %v", k, err)
			}
			st.evs = append(st.evs, r.GetEvent())
		}
	}
}

// next is the action seat k owes, if any.
func (st *seatStream) next() *pb.Action {
	var act *pb.Action
	for _, ev := range st.evs[st.done:] {
		if d := ev.GetDrew(); d.GetTile() != "" {
			act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: d.GetTile()}
		}
		if o := ev.GetClaimOffer(); o != nil {
			act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
			for _, opt := range o.GetOptions() {
				if opt.GetType() == pb.ActionType_ACTION_TYPE_RON {
					act = opt
				}
			}
		}
	}
	return act
}

// step makes one move: the first seat that owes an action takes it, or,
// if none does, the clock moves to the end of the claim dwell. It reports
// whether the game is over.
func (s *stepper) step() bool {
	s.t.Helper()
	s.sync()
	if s.e.table(s.t, s.id).GetState() == pb.TableState_TABLE_STATE_FINISHED {
		return true
	}
	for k, st := range s.seats {
		act := st.next()
		if act == nil {
			continue
		}
		if act.GetType() == pb.ActionType_ACTION_TYPE_DISCARD {
			if s.clk != nil {
				s.discardAt = s.clk.Now()
			}
		} else {
			s.offered++
			if s.clk != nil {
				s.clk.Advance(s.think)
			}
		}
		s.last = &pb.ActRequest{TableId: s.id, SeatToken: st.token, LastSeq: st.from + uint64(len(st.evs)), RequestId: uuid.NewString(), Action: act}
		if err := s.act(k, s.last); err != nil {
			s.t.Fatalf("seat %d %v: %v", k, act, err)
		}
		s.acked = append(s.acked, s.last.GetRequestId())
		st.done = len(st.evs)
		return false
	}
	switch {
	case s.clk == nil:
		time.Sleep(time.Millisecond) // a dwell on the real clock
	case s.clk.Pending() == 0:
		s.t.Fatal("nobody can act and no timer runs")
	default:
		s.clk.Advance(s.discardAt.Add(s.dwell).Sub(s.clk.Now()))
	}
	return false
}

// run steps until the game is over, or n steps (n > 0).
func (s *stepper) run(n int) {
	s.t.Helper()
	for i := 0; n <= 0 || i < n; i++ {
		if i > 20000 {
			s.t.Fatal("the game does not end")
		}
		if s.step() {
			return
		}
	}
}

// finish reads the streams to their end and returns what each seat got.
func (s *stepper) finish() [4][]*pb.Event {
	s.t.Helper()
	var out [4][]*pb.Event
	for k, st := range s.seats {
		for {
			r, err := st.st.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				s.t.Fatalf("seat %d: %v", k, err)
			}
			st.evs = append(st.evs, r.GetEvent())
		}
		checkPrivacy(s.t, uint32(k), st.from, nil, st.evs)
		out[k] = st.evs
	}
	return out
}
