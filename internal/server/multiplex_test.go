package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/metrics"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// muxGame plays seats over one Multiplex stream as simple does over
// StreamEvents and Act, and checks what the stream promises as it goes.
type muxGame struct {
	st      pb.TableService_MultiplexClient
	players []*player // ref i+1 follows players[i]
	from    []uint64  // after_seq of each follow

	calls   map[uint64]int            // call -> the acting player
	due     map[int]*pb.ActRequest    // per player: an action sent, not answered yet
	answers map[uint64]*pb.ActRequest // call -> request
	ended   map[int]*status.Status    // per player: the end of its follow
	msgs    int                       // MultiplexResponses received
	items   int                       // their items
	next    uint64                    // the last call number used

	// watch only follows: it plays no action.
	watch bool
	// dup sends every action twice, under two calls with one request_id.
	dup  bool
	dups int               // actions answered twice, the same
	byID map[string]uint64 // request_id -> the seq answered

	// stopAfter, when > 0, stops after that many events (a dropped stream).
	stopAfter int
	events    int
}

func newMuxGame(st pb.TableService_MultiplexClient, players []*player, from []uint64) *muxGame {
	return &muxGame{st: st, players: players, from: from, calls: map[uint64]int{}, due: map[int]*pb.ActRequest{},
		answers: map[uint64]*pb.ActRequest{}, ended: map[int]*status.Status{}, byID: map[string]uint64{}}
}

// follow follows every player.
func (g *muxGame) follow() error {
	for i, p := range g.players {
		req := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: uint32(i + 1),
			Request: &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: g.from[i]}}}}
		if err := g.st.Send(req); err != nil {
			return err
		}
	}
	return nil
}

// send plays an action for player i.
func (g *muxGame) send(i int, r *pb.ActRequest) error {
	g.next++
	g.calls[g.next], g.due[i], g.answers[g.next] = i, r, r
	if err := g.st.Send(muxAct(g.next, r)); err != nil || !g.dup {
		return err
	}
	g.next++
	g.calls[g.next], g.answers[g.next] = i, r
	return g.st.Send(muxAct(g.next, r))
}

// take records what player p received and decides its action, as simple
// does.
func (p *player) take(r *pb.StreamEventsResponse) (*pb.Action, uint64) {
	if s := r.GetSnapshot(); s != nil {
		p.snap = s
	} else {
		p.events = append(p.events, r.GetEvent())
	}
	return servertest.Take(p.seat, &p.drawn, r)
}

// pending reports whether another call of the same request as call
// waits for its answer.
func (g *muxGame) pending(call uint64) bool {
	for c := range g.calls {
		if g.answers[c] == g.answers[call] {
			return true
		}
	}
	return false
}

// lastSeq is the newest seq player p received (after_seq before any).
func (g *muxGame) lastSeq(i int) uint64 {
	p := g.players[i]
	if n := len(p.events); n > 0 {
		return p.events[n-1].GetSeq()
	}
	if p.snap != nil {
		return p.snap.GetSeq()
	}
	return g.from[i]
}

// run receives until every follow ended and the server ended the stream
// (after the client half-closes), or until stopAfter events.
func (g *muxGame) run() error {
	closed := false
	for {
		if !closed && len(g.ended) == len(g.players) && len(g.due) == 0 {
			if err := g.st.CloseSend(); err != nil {
				return err
			}
			closed = true
		}
		r, err := g.st.Recv()
		if errors.Is(err, io.EOF) {
			if len(g.ended) != len(g.players) || len(g.due) != 0 {
				return fmt.Errorf("stream ended with %d follows ended and %d actions unanswered", len(g.ended), len(g.due))
			}
			return nil
		}
		if err != nil {
			return err
		}
		g.msgs++
		g.items += len(r.GetItems())
		for _, it := range r.GetItems() {
			switch {
			case it.GetEvent() != nil:
				i := int(it.GetEvent().GetRef()) - 1
				if i < 0 || i >= len(g.players) {
					return fmt.Errorf("event of ref %d", i+1)
				}
				p := g.players[i]
				act, seq := p.take(it.GetEvent().GetEvent())
				g.events++
				if g.stopAfter > 0 && g.events >= g.stopAfter {
					return nil
				}
				if act != nil && !g.watch {
					if err := g.send(i, &pb.ActRequest{TableId: p.id, SeatToken: p.token, LastSeq: seq, RequestId: uuid.NewString(), Action: act}); err != nil {
						return err
					}
				}
			case it.GetAnswer() != nil:
				a := it.GetAnswer()
				i, ok := g.calls[a.GetCall()]
				if !ok {
					return fmt.Errorf("answer to call %d, never made", a.GetCall())
				}
				if a.GetError() != nil {
					return fmt.Errorf("seat %d call %d: %v", g.players[i].seat, a.GetCall(), status.FromProto(a.GetError()).Err())
				}
				// The ordering promise: the seat's view is never behind
				// its answers.
				if _, open := g.ended[i]; !open && g.lastSeq(i) < a.GetResponse().GetSeq() {
					return fmt.Errorf("seat %d: answer at seq %d before its event (last %d)", g.players[i].seat, a.GetResponse().GetSeq(), g.lastSeq(i))
				}
				id := g.answers[a.GetCall()].GetRequestId()
				if seq, twice := g.byID[id]; twice {
					if seq != a.GetResponse().GetSeq() {
						return fmt.Errorf("request %s answered seq %d, then %d", id, seq, a.GetResponse().GetSeq())
					}
					g.dups++
				} else {
					g.players[i].acts++
				}
				g.byID[id] = a.GetResponse().GetSeq()
				delete(g.calls, a.GetCall())
				if g.due[i] == g.answers[a.GetCall()] && !g.pending(a.GetCall()) {
					delete(g.due, i)
				}
			case it.GetEnd() != nil:
				i := int(it.GetEnd().GetRef()) - 1
				g.ended[i] = status.FromProto(it.GetEnd().GetStatus())
				if c := g.ended[i].Code(); c != codes.OK {
					return fmt.Errorf("follow %d ended: %v", i+1, g.ended[i].Err())
				}
			default:
				return fmt.Errorf("an empty item")
			}
		}
	}
}

// startGame creates a riichi east-only game of four seats and returns
// the players and the seq every seat follows from (before the fourth join
// starts it).
func startGame(t *testing.T, e *env, seedByte byte) ([]*player, uint64) {
	t.Helper()
	id, _ := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(seedByte), ClaimDwell: durationpb.New(time.Millisecond)})
	players := make([]*player, 4)
	var before uint64
	for i := range players {
		if i == 3 {
			before = e.table(t, id).GetLastSeq()
		}
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	return players, before
}

// followAll reads what StreamEvents sends seat p from after to the end.
func followAll(t *testing.T, e *env, p *player, after uint64) []*pb.Event {
	t.Helper()
	st, err := e.tables.StreamEvents(ctxT(t), &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: after})
	if err != nil {
		t.Fatal(err)
	}
	var evs []*pb.Event
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return evs
		}
		if err != nil {
			t.Fatalf("seat %d StreamEvents: %v", p.seat, err)
		}
		if ev := r.GetEvent(); ev != nil {
			evs = append(evs, ev)
		}
	}
}

// checkSameAsStreamEvents checks that every player received, on the
// Multiplex stream, exactly what StreamEvents sends its seat: the same
// events, numbered without a gap, nothing of another seat's.
func checkSameAsStreamEvents(t *testing.T, e *env, players []*player, before uint64) {
	t.Helper()
	for _, p := range players {
		checkPrivacy(t, p.seat, before, nil, p.events)
		want := followAll(t, e, p, before)
		if len(want) != len(p.events) {
			t.Fatalf("seat %d: %d events on Multiplex, %d on StreamEvents", p.seat, len(p.events), len(want))
		}
		for i := range want {
			if !proto.Equal(want[i], p.events[i]) {
				t.Fatalf("seat %d event %d: Multiplex %v, StreamEvents %v", p.seat, i, p.events[i], want[i])
			}
		}
		if p.events[len(p.events)-1].GetGameEnded() == nil {
			t.Errorf("seat %d did not see the game end", p.seat)
		}
	}
}

// TestMultiplexWholeGame plays a whole game on the real engine, its four
// seats followed and played over one Multiplex stream: every seat gets
// what StreamEvents gives it, answers never come before their events, and
// the stream ends once the client half-closed and every follow ended.
func TestMultiplexWholeGame(t *testing.T) {
	cfg := riichiConfig()
	m := metrics.New(nil)
	cfg.Observer = m
	e := startEnv(t, cfg)
	players, before := startGame(t, e, 7)
	st, err := e.tables.Multiplex(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	g := newMuxGame(st, players, []uint64{before, before, before, before})
	if err := g.follow(); err != nil {
		t.Fatal(err)
	}
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	checkSameAsStreamEvents(t, e, players, before)
	if st := e.table(t, players[0].id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("state %v, want finished", st)
	}
	exp, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: players[0].id})
	if err != nil {
		t.Fatal(err)
	}
	if exp.GetPartial() {
		t.Errorf("export of a finished game is partial")
	}
	scores := players[0].events[len(players[0].events)-1].GetGameEnded().GetScores()
	sum := 0
	for _, s := range scores {
		sum += int(s)
	}
	if sum != 100000 {
		t.Errorf("final scores %v sum to %d", scores, sum)
	}
	t.Logf("%d messages, %d items (%.1f a message), final %v", g.msgs, g.items, float64(g.items)/float64(g.msgs), scores)
	if got := muxActsTimed(t, m); got != g.next {
		t.Errorf("authority_multiplex_act_seconds counted %d actions, the stream answered %d", got, g.next)
	}
}

// muxActsTimed is the count of authority_multiplex_act_seconds.
func muxActsTimed(t *testing.T, m *metrics.Metrics) uint64 {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == "authority_multiplex_act_seconds" {
			return f.GetMetric()[0].GetHistogram().GetSampleCount()
		}
	}
	t.Fatal("no authority_multiplex_act_seconds")
	return 0
}

// TestMultiplexResume drops a Multiplex stream mid-game and goes on on a
// new one: every follow resumes after its seat's last seq, and every
// action sent but not answered is sent again with its request_id, which
// the table plays once.
func TestMultiplexResume(t *testing.T) {
	e := startEnv(t, riichiConfig())
	players, before := startGame(t, e, 9)
	ctx, cancel := context.WithCancel(ctxT(t))
	st, err := e.tables.Multiplex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g := newMuxGame(st, players, []uint64{before, before, before, before})
	g.stopAfter = 150
	if err := g.follow(); err != nil {
		t.Fatal(err)
	}
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	cancel()
	from := make([]uint64, 4)
	for i := range players {
		from[i] = g.lastSeq(i)
	}
	st2, err := e.tables.Multiplex(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	g2 := newMuxGame(st2, players, from)
	if err := g2.follow(); err != nil {
		t.Fatal(err)
	}
	for i, r := range g.due {
		if err := g2.send(i, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := g2.run(); err != nil {
		t.Fatal(err)
	}
	checkSameAsStreamEvents(t, e, players, before)
}

// muxOpen opens a Multiplex stream that the test's end closes.
func muxOpen(t *testing.T, e *env) pb.TableService_MultiplexClient {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	t.Cleanup(cancel)
	st, err := e.tables.Multiplex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func muxFollow(ref uint32, p *player, after uint64) *pb.MultiplexRequest {
	return &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: ref,
		Request: &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: after}}}}
}

func muxAct(call uint64, r *pb.ActRequest) *pb.MultiplexRequest {
	return &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: call, Request: r}}}
}

// TestMultiplexMalformed ends the whole stream with INVALID_ARGUMENT and
// MALFORMED_REQUEST for a request it cannot take.
func TestMultiplexMalformed(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	seat, tok := e.join(t, id)
	p := &player{e: e, id: id, seat: seat, token: tok}
	for _, c := range []struct {
		name string
		reqs []*pb.MultiplexRequest
	}{
		{"no kind", []*pb.MultiplexRequest{{}}},
		{"follow ref 0", []*pb.MultiplexRequest{muxFollow(0, p, 0)}},
		{"follow without request", []*pb.MultiplexRequest{{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: 1}}}}},
		{"ref open", []*pb.MultiplexRequest{muxFollow(1, p, 0), muxFollow(1, p, 0)}},
		{"unfollow ref 0", []*pb.MultiplexRequest{{Kind: &pb.MultiplexRequest_Unfollow{Unfollow: &pb.MultiplexUnfollow{}}}}},
		{"act without request", []*pb.MultiplexRequest{{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: 1}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := muxOpen(t, e)
			for _, r := range c.reqs {
				if err := st.Send(r); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			for err == nil {
				_, err = st.Recv()
			}
			wantStatus(t, c.name, err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
		})
	}
}

// muxItems receives until it has n items matching keep.
func muxItems(t *testing.T, st pb.TableService_MultiplexClient, n int, keep func(*pb.MultiplexItem) bool) []*pb.MultiplexItem {
	t.Helper()
	var out []*pb.MultiplexItem
	for len(out) < n {
		r, err := st.Recv()
		if err != nil {
			t.Fatalf("Recv after %d items: %v", len(out), err)
		}
		for _, it := range r.GetItems() {
			if keep(it) {
				out = append(out, it)
			}
		}
	}
	return out
}

func answers(it *pb.MultiplexItem) bool { return it.GetAnswer() != nil }
func ends(it *pb.MultiplexItem) bool    { return it.GetEnd() != nil }

// TestMultiplexRefusedActions answers each refused action with the status
// Act returns, on that action alone: the stream goes on.
func TestMultiplexRefusedActions(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	var toks []string
	for range 4 {
		_, tok := e.join(t, id)
		toks = append(toks, tok)
	}
	seq := e.newestSeq(t, id, toks[0])
	pass := &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
	cases := []struct {
		name   string
		req    *pb.ActRequest
		code   codes.Code
		reason pb.ErrorReason
	}{
		{"bad token", &pb.ActRequest{TableId: id, SeatToken: "nope", RequestId: "r1", LastSeq: seq, Action: pass}, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{"seq ahead", &pb.ActRequest{TableId: id, SeatToken: toks[0], RequestId: "r2", LastSeq: seq + 100, Action: pass}, codes.OutOfRange, pb.ErrorReason_ERROR_REASON_SEQ_AHEAD},
		{"stale seq", &pb.ActRequest{TableId: id, SeatToken: toks[0], RequestId: "r4", LastSeq: seq - 1, Action: pass}, codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ},
		{"no request id", &pb.ActRequest{TableId: id, SeatToken: toks[0], LastSeq: seq, Action: pass}, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"request id too long", &pb.ActRequest{TableId: id, SeatToken: toks[0], RequestId: string(make([]byte, 65)), LastSeq: seq, Action: pass}, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"no table", &pb.ActRequest{TableId: "none", SeatToken: toks[0], RequestId: "r3", LastSeq: seq, Action: pass}, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND},
	}
	st := muxOpen(t, e)
	for i, c := range cases {
		if err := st.Send(muxAct(uint64(i+1), c.req)); err != nil {
			t.Fatal(err)
		}
	}
	got := map[uint64]*pb.MultiplexAnswer{}
	for _, it := range muxItems(t, st, len(cases), answers) {
		got[it.GetAnswer().GetCall()] = it.GetAnswer()
	}
	for i, c := range cases {
		a := got[uint64(i+1)]
		if a.GetError() == nil {
			t.Errorf("%s: answered %v, want an error", c.name, a)
			continue
		}
		// Exactly the unary call's status.
		_, unary := e.tables.Act(ctxT(t), c.req)
		mux := status.FromProto(a.GetError()).Err()
		wantStatus(t, c.name, mux, c.code, c.reason)
		if !sameStatus(status.Convert(unary), status.FromProto(a.GetError())) {
			t.Errorf("%s: Multiplex answered %v, Act %v", c.name, a.GetError(), status.Convert(unary).Proto())
		}
	}
}

// sameStatus compares two statuses with their details decoded (a map in
// a detail encodes in any order).
func sameStatus(a, b *status.Status) bool {
	if a.Code() != b.Code() || a.Message() != b.Message() || len(a.Details()) != len(b.Details()) {
		return false
	}
	for i, d := range a.Details() {
		da, ok1 := d.(proto.Message)
		db, ok2 := b.Details()[i].(proto.Message)
		if !ok1 || !ok2 || !proto.Equal(da, db) {
			return false
		}
	}
	return true
}

// muxConn is a second connection to e's server, as another client's.
func startWithSecondConn(t *testing.T, cfg config) (*env, pb.TableServiceClient) {
	t.Helper()
	s := servertest.Start(t, cfg.server())
	admin, other := s.Dial(), s.Dial()
	t.Cleanup(func() {
		admin.Close()
		other.Close()
		s.Close()
	})
	return &env{srv: s.Server, tables: pb.NewTableServiceClient(admin), judge: pb.NewJudgeServiceClient(admin)}, pb.NewTableServiceClient(other)
}

func muxOn(t *testing.T, c pb.TableServiceClient) pb.TableService_MultiplexClient {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	t.Cleanup(cancel)
	st, err := c.Multiplex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func muxUnfollow(ref uint32) *pb.MultiplexRequest {
	return &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Unfollow{Unfollow: &pb.MultiplexUnfollow{Ref: ref}}}
}

func send(t *testing.T, st pb.TableService_MultiplexClient, reqs ...*pb.MultiplexRequest) {
	t.Helper()
	for _, r := range reqs {
		if err := st.Send(r); err != nil {
			t.Fatal(err)
		}
	}
}

func ofRef(ref uint32) func(*pb.MultiplexItem) bool {
	return func(it *pb.MultiplexItem) bool {
		return it.GetEvent().GetRef() == ref || it.GetEnd().GetRef() == ref
	}
}

// TestMultiplexUnfollow ends a follow with CANCELLED on unfollow, frees
// its ref for another follow, ignores an unfollow of a ref not open, and
// follows one seat twice on one stream, each follow getting all of it.
func TestMultiplexUnfollow(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	seat, tok := e.join(t, id)
	p := &player{e: e, id: id, seat: seat, token: tok}
	st := muxOpen(t, e)
	send(t, st, muxFollow(1, p, 0))
	if it := muxItems(t, st, 1, ofRef(1))[0]; it.GetEvent().GetEvent().GetSnapshot() == nil {
		t.Fatalf("first item %v, want the snapshot", it)
	}
	send(t, st, muxUnfollow(99), muxUnfollow(1))
	end := muxItems(t, st, 1, ends)[0].GetEnd()
	if end.GetRef() != 1 || codes.Code(end.GetStatus().GetCode()) != codes.Canceled {
		t.Fatalf("end %v, want ref 1 CANCELLED", end)
	}
	// Ref 1 is free again; ref 2 follows the same seat.
	send(t, st, muxFollow(1, p, 0), muxFollow(2, p, 0))
	for _, it := range muxItems(t, st, 2, func(*pb.MultiplexItem) bool { return true }) {
		if it.GetEvent().GetEvent().GetSnapshot() == nil {
			t.Fatalf("item %v, want a snapshot", it)
		}
	}
	for range 3 {
		e.join(t, id) // the fourth seat starts the game
	}
	got := map[uint32][]*pb.StreamEventsResponse{}
	const n = 3 // the deal, a draw, an offer: then the table waits for the seat
	for len(got[1]) < n || len(got[2]) < n {
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range r.GetItems() {
			if ev := it.GetEvent(); ev != nil {
				got[ev.GetRef()] = append(got[ev.GetRef()], ev.GetEvent())
			} else {
				t.Fatalf("unexpected item %v", it)
			}
		}
	}
	for i := range n {
		if !proto.Equal(got[1][i], got[2][i]) {
			t.Fatalf("item %d: ref 1 got %v, ref 2 %v", i, got[1][i], got[2][i])
		}
	}
}

// TestMultiplexDuplicateRequestID plays a whole game sending every action
// twice, under two calls with one request_id: both answers are the same,
// and the game is the one StreamEvents shows.
func TestMultiplexDuplicateRequestID(t *testing.T) {
	e := startEnv(t, riichiConfig())
	players, before := startGame(t, e, 11)
	g := newMuxGame(muxOpen(t, e), players, []uint64{before, before, before, before})
	g.dup = true
	if err := g.follow(); err != nil {
		t.Fatal(err)
	}
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	if g.dups == 0 {
		t.Fatal("no action answered twice")
	}
	checkSameAsStreamEvents(t, e, players, before)
}

// TestMultiplexConnLimits counts a follow and an action as calls of the
// connection's rate limit, and a follow as an open stream, refusing each
// alone: the stream goes on.
func TestMultiplexConnLimits(t *testing.T) {
	cfg := baseConfig()
	cfg.ConnRate = host.Rate{PerSecond: 0.001, Burst: 4}
	cfg.MaxConnStreams = 3
	e, other := startWithSecondConn(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	_, tok := e.join(t, id)
	p := &player{e: e, id: id, token: tok}
	st := muxOn(t, other) // a token and an open stream
	// Two follows: two tokens, three open streams.
	send(t, st, muxFollow(1, p, 0), muxFollow(2, p, 0))
	muxItems(t, st, 2, func(it *pb.MultiplexItem) bool { return it.GetEvent() != nil })
	// A third follow: the fourth token, past the open streams.
	send(t, st, muxFollow(3, p, 0))
	end := muxItems(t, st, 1, ends)[0].GetEnd()
	if end.GetRef() != 3 {
		t.Fatalf("end of ref %d, want 3", end.GetRef())
	}
	wantStatus(t, "a follow past the open streams", status.FromProto(end.GetStatus()).Err(), codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS)
	// No token left: an action and a follow are refused alone.
	send(t, st, muxAct(7, &pb.ActRequest{TableId: id, SeatToken: tok, RequestId: "r", Action: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}}), muxFollow(4, p, 0))
	var ans *pb.MultiplexAnswer
	for _, it := range muxItems(t, st, 2, func(it *pb.MultiplexItem) bool { return it.GetAnswer() != nil || it.GetEnd() != nil }) {
		if a := it.GetAnswer(); a != nil {
			ans = a
			continue
		}
		if it.GetEnd().GetRef() != 4 {
			t.Fatalf("end of ref %d, want 4", it.GetEnd().GetRef())
		}
		err := status.FromProto(it.GetEnd().GetStatus()).Err()
		wantStatus(t, "a follow past the rate", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED)
		wantRetry(t, "a follow past the rate", err, 1000*time.Second)
	}
	if ans.GetCall() != 7 {
		t.Fatalf("answer %v, want call 7", ans)
	}
	err := status.FromProto(ans.GetError()).Err()
	wantStatus(t, "an action past the rate", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED)
	wantRetry(t, "an action past the rate", err, 1000*time.Second)
	// The follows still open go on: unfollow ends one.
	send(t, st, muxUnfollow(2))
	if end := muxItems(t, st, 1, ends)[0].GetEnd(); end.GetRef() != 2 || codes.Code(end.GetStatus().GetCode()) != codes.Canceled {
		t.Fatalf("end %v, want ref 2 CANCELLED", end)
	}
}

// TestMultiplexSlowReader follows a game's seats on a stream whose client
// reads nothing while another stream plays the whole game: the game does
// not wait for the slow stream, which gets every event once it reads.
func TestMultiplexSlowReader(t *testing.T) {
	defer server.SetMuxOutboxForTest(2 << 10)()
	e, other := startWithSecondConn(t, riichiConfig())
	players, before := startGame(t, e, 13)
	slow := muxOn(t, other)
	for i, p := range players {
		send(t, slow, muxFollow(uint32(i+1), p, before))
	}
	watchers := make([]*player, len(players))
	for i, p := range players {
		watchers[i] = &player{e: e, id: p.id, seat: p.seat, token: p.token}
	}
	g := newMuxGame(muxOpen(t, e), players, []uint64{before, before, before, before})
	if err := g.follow(); err != nil {
		t.Fatal(err)
	}
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	// Now the slow client reads it all.
	w := newMuxGame(slow, watchers, []uint64{before, before, before, before})
	w.watch = true
	if err := w.run(); err != nil {
		t.Fatal(err)
	}
	for i := range players {
		if len(watchers[i].events) != len(players[i].events) {
			t.Fatalf("seat %d: the slow stream got %d events, the game had %d", i, len(watchers[i].events), len(players[i].events))
		}
	}
	checkSameAsStreamEvents(t, e, watchers, before)
}
