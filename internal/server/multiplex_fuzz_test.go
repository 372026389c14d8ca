package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// FuzzMultiplex sends random sequences of follows, unfollows, actions
// (good and bad tokens, seqs and request ids) and malformed requests on
// one Multiplex stream to a fresh table, unfollows every ref and
// half-closes: nothing is ever INTERNAL, a request that is certainly
// malformed ends the stream with MALFORMED_REQUEST and only a possibly
// malformed one may, and a stream that ends OK answered every action
// once and ended every follow once, with events only of open follows,
// numbered without a gap.
func FuzzMultiplex(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 0, 2, 0, 1, 1, 1, 0})
	f.Add([]byte{0, 1, 0, 0, 2, 1, 0, 3, 2, 2, 1, 9, 2, 2, 1, 9, 1, 1, 0})
	f.Add([]byte{3, 0, 0})
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{0, 1, 0, 0, 1, 0})
	srv := servertest.Start(f, baseConfig().server())
	conn := srv.Dial()
	f.Cleanup(func() {
		conn.Close()
		srv.Close()
	})
	e := &env{srv: srv.Server, tables: pb.NewTableServiceClient(conn)}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 3*64 {
			ops = ops[:3*64]
		}
		id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
		var toks []string
		for range 4 {
			_, tok := e.join(t, id)
			toks = append(toks, tok)
		}
		toks = append(toks, "not a token")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		st, err := e.tables.Multiplex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var reqs []*pb.MultiplexRequest
		calls := map[uint64]bool{}
		followed := map[uint32]int{} // follows sent per ref
		malformed, maybe := false, false
		for i := 0; i+2 < len(ops); i += 3 {
			ref, arg := uint32(ops[i+1]%4), ops[i+2]
			switch ops[i] % 4 {
			case 0:
				r := &pb.MultiplexFollow{Ref: ref, Request: &pb.StreamEventsRequest{TableId: id, SeatToken: toks[int(arg)%5], AfterSeq: uint64(arg >> 5)}}
				if arg&16 != 0 {
					r.Request = nil
				}
				switch {
				case ref == 0 || r.Request == nil:
					malformed = true
				case followed[ref] > 0:
					maybe = true // open unless its end came first
				}
				followed[ref]++
				reqs = append(reqs, &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: r}})
			case 1:
				if ref == 0 {
					malformed = true
				}
				reqs = append(reqs, muxUnfollow(ref))
			case 2:
				call := uint64(i)
				calls[call] = true
				a := &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
				if arg&8 != 0 {
					a = &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m"}
				}
				reqs = append(reqs, muxAct(call, &pb.ActRequest{TableId: id, SeatToken: toks[int(arg)%5], LastSeq: uint64(arg >> 4),
					RequestId: fmt.Sprint(ref), Action: a}))
			default:
				malformed = true
				reqs = append(reqs, &pb.MultiplexRequest{})
			}
		}
		for ref := range uint32(4) {
			if ref > 0 {
				reqs = append(reqs, muxUnfollow(ref))
			}
		}
		for _, r := range reqs {
			if err := st.Send(r); err != nil {
				break // the stream ended: Recv says how
			}
		}
		_ = st.CloseSend()
		answered := map[uint64]int{}
		ends := map[uint32]int{}
		open := map[uint32]uint64{} // ref -> last seq
		var end error
		for {
			r, err := st.Recv()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					end = err
				}
				break
			}
			for _, it := range r.GetItems() {
				var s *status.Status
				switch {
				case it.GetEvent() != nil:
					ref := it.GetEvent().GetRef()
					if ends[ref] >= followed[ref] {
						t.Fatalf("event of ref %d, not open", ref)
					}
					ev := it.GetEvent().GetEvent()
					if sn := ev.GetSnapshot(); sn != nil {
						open[ref] = sn.GetSeq()
					} else if last, ok := open[ref]; ok && ev.GetEvent().GetSeq() != last+1 {
						t.Fatalf("ref %d: seq %d after %d", ref, ev.GetEvent().GetSeq(), last)
					} else {
						open[ref] = ev.GetEvent().GetSeq()
					}
				case it.GetAnswer() != nil:
					call := it.GetAnswer().GetCall()
					if !calls[call] {
						t.Fatalf("answer to call %d, never made", call)
					}
					answered[call]++
					s = status.FromProto(it.GetAnswer().GetError())
				case it.GetEnd() != nil:
					ref := it.GetEnd().GetRef()
					ends[ref]++
					delete(open, ref)
					s = status.FromProto(it.GetEnd().GetStatus())
				default:
					t.Fatalf("an empty item")
				}
				if s.Code() == codes.Internal || s.Code() == codes.Unknown {
					t.Fatalf("item %v: %v", it, s.Err())
				}
			}
		}
		switch {
		case malformed || maybe:
			if end != nil && (status.Code(end) != codes.InvalidArgument || server.Reason(end) != pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST) {
				t.Fatalf("stream ended %v, want OK or MALFORMED", end)
			}
			if malformed && end == nil {
				t.Fatal("a malformed request, and the stream ended OK")
			}
		case end != nil:
			t.Fatalf("stream ended %v", end)
		default:
			for call := range calls {
				if answered[call] != 1 {
					t.Errorf("call %d answered %d times", call, answered[call])
				}
			}
			for ref, n := range followed {
				if ends[ref] != n {
					t.Errorf("ref %d followed %d times, ended %d", ref, n, ends[ref])
				}
			}
		}
	})
}
