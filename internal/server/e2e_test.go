package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.uber.org/goleak"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
	"github.com/mahjong-authority/authority/internal/tile"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// env is a server on a real TCP listener and a client connection to it.
type env struct {
	srv    *server.Server
	tables pb.TableServiceClient
	judge  pb.JudgeServiceClient
}

func baseConfig() config {
	return config{rc: rc{NewEngine: newFake(2, 8), NewWall: fakeWall}}
}

func startEnv(t *testing.T, cfg config) *env {
	t.Helper()
	e, stop := startStoppableEnv(t, cfg)
	t.Cleanup(stop)
	return e
}

// startStoppableEnv starts a server that first recovers the tables of its
// store, and returns it with the function that stops it (once).
func startStoppableEnv(t *testing.T, cfg config) (*env, func()) {
	t.Helper()
	s := servertest.Start(t, cfg.server())
	conn := s.Dial()
	stop := func() {
		conn.Close()
		s.Close()
	}
	return &env{srv: s.Server, tables: pb.NewTableServiceClient(conn), judge: pb.NewJudgeServiceClient(conn)}, stop
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func (e *env) create(t *testing.T, set *pb.TableSettings) (string, string) {
	t.Helper()
	r, err := e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: set})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return r.GetTable().GetTableId(), r.GetOwnerToken()
}

func (e *env) join(t *testing.T, id string) (uint32, string) {
	t.Helper()
	r, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Name: "p", Entropy: []byte("xyz")})
	if err != nil {
		t.Fatalf("JoinTable: %v", err)
	}
	return r.GetSeat(), r.GetSeatToken()
}

func (e *env) table(t *testing.T, id string) *pb.Table {
	t.Helper()
	r, err := e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: id})
	if err != nil {
		t.Fatalf("GetTable: %v", err)
	}
	return r.GetTable()
}

// player plays one seat over gRPC as servertest.Take decides (it discards
// what it draws, wins by ron when offered and passes every other claim),
// recording everything it receives.
type player struct {
	e     *env
	id    string
	seat  uint32
	token string

	mu     sync.Mutex
	snap   *pb.Snapshot
	events []*pb.Event
	acts   int

	// An action decided but not sent when the stream was dropped: a client
	// that resumes with after_seq still owes it.
	due    *pb.Action
	dueSeq uint64

	// gate, when set, holds the player's actions until it is closed.
	gate <-chan struct{}

	// drawn is the seat's last drawn tile, servertest.Take's.
	drawn string
}

func (p *player) act(ctx context.Context, a *pb.Action, seq uint64) error {
	if _, err := p.e.tables.Act(ctx, &pb.ActRequest{TableId: p.id, SeatToken: p.token, LastSeq: seq, RequestId: uuid.NewString(), Action: a}); err != nil {
		return fmt.Errorf("seat %d act at %d: %w", p.seat, seq, err)
	}
	p.mu.Lock()
	p.acts++
	p.mu.Unlock()
	return nil
}

// play follows the seat from afterSeq and acts until the stream ends (the
// game is over), or stops after stopAfter events when stopAfter > 0.
func (p *player) play(ctx context.Context, afterSeq uint64, stopAfter int) error {
	return p.playWith(ctx, afterSeq, stopAfter, func(r *pb.StreamEventsResponse) (*pb.Action, uint64) {
		return servertest.Take(p.seat, &p.drawn, r)
	})
}

// playWith is play with decide choosing the seat's action from each
// response (nil: nothing to do) and giving the seq to act at; it is
// called with p.mu held.
func (p *player) playWith(ctx context.Context, afterSeq uint64, stopAfter int, decide func(*pb.StreamEventsResponse) (*pb.Action, uint64)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := p.e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: afterSeq})
	if err != nil {
		return err
	}
	if p.due != nil {
		if err := p.act(ctx, p.due, p.dueSeq); err != nil {
			return err
		}
		p.due = nil
	}
	n := 0
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("seat %d recv: %w", p.seat, err)
		}
		p.mu.Lock()
		if s := r.GetSnapshot(); s != nil {
			p.snap = s // a standing offer follows as the next event
		} else {
			p.events = append(p.events, r.GetEvent())
			n++
		}
		act, seq := decide(r)
		p.mu.Unlock()
		if stopAfter > 0 && n >= stopAfter {
			p.due, p.dueSeq = act, seq
			return nil
		}
		if act != nil {
			if err := p.act(ctx, act, seq); err != nil {
				return err
			}
		}
	}
}

// checkPrivacy fails if a seat received anything of another seat's
// concealed tiles or of the unrevealed wall: private bodies must be its own,
// the tiles of draws are its own, and its snapshot shows only its hand. Its
// numbers must follow each other without a gap from from (the snapshot's
// seq or the after_seq the stream started from): a seat's numbering counts
// only what it receives, so it tells nothing of what others received.
func checkPrivacy(t *testing.T, seat uint32, from uint64, snap *pb.Snapshot, evs []*pb.Event) {
	t.Helper()
	if snap != nil {
		v := snap.GetView()
		if v.GetSeat() != seat {
			t.Errorf("seat %d got the view of seat %d", seat, v.GetSeat())
		}
		if v.GetDrawn() != "" && v.GetToAct() != seat {
			t.Errorf("seat %d sees a drawn tile in another seat's turn", seat)
		}
	}
	last := from
	for _, ev := range evs {
		if ev.GetSeq() != last+1 {
			t.Errorf("seat %d: seq %d after %d", seat, ev.GetSeq(), last)
		}
		last = ev.GetSeq()
		switch {
		case ev.GetDealt() != nil && ev.GetDealt().GetSeat() != seat:
			t.Errorf("seat %d received seat %d's deal", seat, ev.GetDealt().GetSeat())
		case ev.GetDrew() != nil && ev.GetDrew().GetTile() != "" && ev.GetDrew().GetSeat() != seat:
			t.Errorf("seat %d received seat %d's drawn tile", seat, ev.GetDrew().GetSeat())
		case ev.GetFishing() != nil && ev.GetFishing().GetSeat() != seat:
			t.Errorf("seat %d received seat %d's waits", seat, ev.GetFishing().GetSeat())
		case ev.GetClaimOffer() != nil && ev.GetClaimOffer().GetSeat() != seat:
			t.Errorf("seat %d received seat %d's claim offer", seat, ev.GetClaimOffer().GetSeat())
		case ev.GetTurnOffer() != nil && ev.GetTurnOffer().GetSeat() != seat:
			t.Errorf("seat %d received seat %d's turn offer", seat, ev.GetTurnOffer().GetSeat())
		}
	}
}

func TestFourClientsPlayWholeGame(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	players := make([]*player, 4)
	for i := range players {
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		wg.Go(func() { errs[i] = p.play(ctxT(t), 0, 0) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	tb := e.table(t, id)
	if tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("table state = %v, want finished", tb.GetState())
	}
	total := 0
	for _, p := range players {
		checkPrivacy(t, p.seat, p.snap.GetSeq(), p.snap, p.events)
		last := p.events[len(p.events)-1]
		if last.GetGameEnded() == nil {
			t.Errorf("seat %d's last event is %v, want game_ended", p.seat, last)
		}
		total += p.acts
		for _, ev := range p.events {
			for _, o := range ev.GetClaimOffer().GetOptions() {
				if o.GetType() == pb.ActionType_ACTION_TYPE_RON {
					t.Errorf("seat %d was offered ron at %d: the count below assumes none", p.seat, ev.GetSeq())
				}
			}
		}
	}
	// Two rounds of eight draws, no ron offered (so every claim offer is
	// passed): 16 discards and 16 passes.
	if total != 32 {
		t.Errorf("players acted %d times, want 32", total)
	}
	if !tb.GetSeeded() || len(tb.GetSettings().GetSeed()) != 0 {
		t.Errorf("table seeded = %v with seed %x: want seeded and the seed hidden", tb.GetSeeded(), tb.GetSettings().GetSeed())
	}
}

func TestBotTableAndSpectator(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, owner := e.create(t, &pb.TableSettings{FillWithBots: true, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU})
	e.spectateGame(t, id, owner)
}

// spectateGame starts a table of bots and follows it as a spectator to the
// end of its game: the last event must be game_ended, and none may be
// private. It returns the events.
func (e *env) spectateGame(t *testing.T, id, owner string) []*pb.Event {
	t.Helper()
	ctx := ctxT(t)
	st, err := e.tables.Spectate(ctx, &pb.SpectateRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatalf("StartTable: %v", err)
	}
	var evs []*pb.Event
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Spectate: %v", err)
		}
		evs = append(evs, r.GetEvent())
	}
	if evs[len(evs)-1].GetGameEnded() == nil {
		t.Fatalf("last public event %v, want game_ended", evs[len(evs)-1])
	}
	for _, ev := range evs {
		if ev.GetDealt() != nil || ev.GetFishing() != nil || ev.GetClaimOffer() != nil || ev.GetTurnOffer() != nil || ev.GetDrew().GetTile() != "" {
			t.Fatalf("spectator received private event %v", ev)
		}
	}
	return evs
}

// TestResumeAfterDisconnect drops a seat's stream mid-round and resumes it
// with after_seq: the two parts together must equal what a stream that never
// dropped received.
func TestResumeAfterDisconnect(t *testing.T) { testResume(t, baseConfig(), nil) }

func testResume(t *testing.T, cfg config, set *pb.TableSettings) {
	e := startEnv(t, cfg)
	id, _ := e.create(t, set)
	players := make([]*player, 4)
	for i := range players {
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	// A silent witness stream of seat 1 that never drops.
	witness := &player{e: e, id: id, seat: 1, token: players[1].token}
	wctx, wcancel := context.WithCancel(ctxT(t))
	defer wcancel()
	wdone := make(chan error, 1)
	opened := make(chan struct{})
	go func() { wdone <- witness.recordOnly(wctx, opened) }()
	<-opened

	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		if i == 1 {
			continue
		}
		wg.Go(func() { errs[i] = p.play(ctxT(t), 0, 0) })
	}
	// Seat 1 plays 10 events, drops, then resumes after the last it saw.
	p := players[1]
	if err := p.play(ctxT(t), 0, 10); err != nil {
		t.Fatal(err)
	}
	first := len(p.events)
	lastSeq := p.events[first-1].GetSeq()
	if err := p.play(ctxT(t), lastSeq, 0); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := <-wdone; err != nil {
		t.Fatal(err)
	}
	// The two streams started from snapshots taken at slightly different
	// times; compare what both cover.
	from := max(p.snap.GetSeq(), witness.snap.GetSeq())
	after := func(evs []*pb.Event) []*pb.Event {
		var out []*pb.Event
		for _, ev := range evs {
			if ev.GetSeq() > from {
				out = append(out, ev)
			}
		}
		return out
	}
	got, want := after(p.events), after(witness.events)
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("resumed stream got %d events, the witness %d", len(got), len(want))
	}
	for i := range got {
		if !proto.Equal(got[i], want[i]) {
			t.Fatalf("event %d: resumed %v, witness %v", i, got[i], want[i])
		}
	}
	if first == len(p.events) {
		t.Fatal("nothing was received after resuming")
	}
}

// recordOnly follows the seat without acting. It closes opened once its
// snapshot came: a test that compares streams waits for it before the
// table plays on, or the snapshot may come after the events it wants.
func (p *player) recordOnly(ctx context.Context, opened chan<- struct{}) error {
	defer func() {
		if opened != nil {
			close(opened) // ended before its snapshot: the error tells
		}
	}()
	st, err := p.e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token})
	if err != nil {
		return err
	}
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if ev := r.GetEvent(); ev != nil {
			p.events = append(p.events, ev)
		} else if p.snap = r.GetSnapshot(); p.snap != nil && opened != nil {
			close(opened)
			opened = nil
		}
	}
}

// newestSeq returns a seat's newest seq through a fresh stream: its
// snapshot's, or, when the seat has something to do, that of the offer that
// follows the snapshot as an event.
func (e *env) newestSeq(t *testing.T, id, token string) uint64 {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: token})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Recv()
	if err != nil || r.GetSnapshot() == nil {
		t.Fatalf("snapshot: %v, %v", r, err)
	}
	if len(r.GetSnapshot().GetView().GetLegal()) == 0 {
		return r.GetSnapshot().GetSeq()
	}
	r, err = st.Recv()
	if err != nil {
		t.Fatalf("offer after the snapshot: %v", err)
	}
	if r.GetEvent().GetTurnOffer() == nil && r.GetEvent().GetClaimOffer() == nil {
		t.Fatalf("after a snapshot with legal actions: %v, want the offer", r)
	}
	return r.GetEvent().GetSeq()
}

// snapshotOf returns a seat's current view through a fresh stream.
func (e *env) snapshotOf(t *testing.T, id, token string) *pb.Snapshot {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: token})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Recv()
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return r.GetSnapshot()
}

// errorMeta is the metadata of an error's ErrorInfo.
func errorMeta(err error) map[string]string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetMetadata()
		}
	}
	return nil
}

func wantStatus(t *testing.T, what string, err error, code codes.Code, reason pb.ErrorReason) {
	t.Helper()
	if got := status.Code(err); got != code {
		t.Errorf("%s: code %v (%v), want %v", what, got, err, code)
		return
	}
	if got := server.Reason(err); got != reason {
		t.Errorf("%s: reason %v, want %v", what, got, reason)
	}
}

// TestRefusedRequests sends every kind of bad request to a running table
// and checks the code, the reason, and that nothing changed.
func TestRefusedRequests(t *testing.T) { testRefusedRequests(t, baseConfig()) }

func testRefusedRequests(t *testing.T, cfg config) {
	e := startEnv(t, cfg)
	id, _ := e.create(t, nil)
	otherID, _ := e.create(t, nil)
	_, otherTok := e.join(t, otherID)
	var toks [4]string
	for i := range toks {
		_, toks[i] = e.join(t, id)
	}
	before := e.table(t, id)
	var views [4]*pb.Snapshot
	for i := range views {
		views[i] = e.snapshotOf(t, id, toks[i])
	}
	// Each seat's newest seq, in its own numbering.
	var seqs [4]uint64
	for i := range seqs {
		seqs[i] = e.newestSeq(t, id, toks[i])
	}
	head := seqs[0]
	// Seat 0 is the dealer and holds its drawn tile.
	drawn := views[0].GetView().GetDrawn()
	discard := &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: drawn}
	notHeld := missingTile(t, views[0].GetView())
	ctx := ctxT(t)
	act := func(tableID, tok string, last uint64, reqID string, a *pb.Action) error {
		_, err := e.tables.Act(ctx, &pb.ActRequest{TableId: tableID, SeatToken: tok, LastSeq: last, RequestId: reqID, Action: a})
		return err
	}
	for _, tc := range []struct {
		name   string
		err    error
		code   codes.Code
		reason pb.ErrorReason
	}{
		{"missing token", act(id, "", head, "r1", discard), codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_MISSING_TOKEN},
		{"wrong token", act(id, "bogus", head, "r2", discard), codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{"other table's token", act(id, otherTok, head, "r3", discard), codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{"unknown table", act("no-such-table", toks[0], head, "r4", discard), codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND},
		{"out of turn", act(id, toks[1], seqs[1], "r5", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m"}), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
		{"pass without a claim window", act(id, toks[2], seqs[2], "r6", &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_CLAIM_WINDOW_CLOSED},
		{"discard of a tile not held", act(id, toks[0], head, "r7", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: notHeld}), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ILLEGAL_ACTION},
		{"stale seq", act(id, toks[0], head-1, "r8", discard), codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ},
		{"seq ahead", act(id, toks[0], head+10, "r9", discard), codes.OutOfRange, pb.ErrorReason_ERROR_REASON_SEQ_AHEAD},
		{"malformed tile", act(id, toks[0], head, "r10", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "8x"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{"two tiles for a discard", act(id, toks[0], head, "r11", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "12m"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{"flower", act(id, toks[0], head, "r12", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1f"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{"chi with one tile", act(id, toks[0], head, "r13", &pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "3m"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{"no action", act(id, toks[0], head, "r14", nil), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"unspecified action", act(id, toks[0], head, "r15", &pb.Action{}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"tiles on a pass", act(id, toks[2], seqs[2], "r16", &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS, Tile: "1m"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"no request id", act(id, toks[0], head, "", discard), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	} {
		wantStatus(t, tc.name, tc.err, tc.code, tc.reason)
		// Said in the client's terms.
		for _, p := range []string{"host:", "table:", "claims:", "tile:", "wire:"} {
			if msg := status.Convert(tc.err).Message(); strings.Contains(msg, p) {
				t.Errorf("%s: message %q names a Go package", tc.name, msg)
			}
		}
	}
	// The numbers a client needs come with the refusal.
	for _, tc := range []struct {
		name      string
		err       error
		key, want string
	}{
		{"stale seq", act(id, toks[0], head-1, "m1", discard), server.MetaNewestSeq, fmt.Sprint(head)},
		{"seq ahead", act(id, toks[0], head+10, "m2", discard), server.MetaNewestSeq, fmt.Sprint(head)},
		{"out of turn", act(id, toks[1], seqs[1], "m3", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m"}), server.MetaTableState, "TABLE_STATE_PLAYING"},
		{"not held", act(id, toks[0], head, "m4", &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: notHeld}), server.MetaTableState, "TABLE_STATE_PLAYING"},
	} {
		if got := errorMeta(tc.err)[tc.key]; got != tc.want {
			t.Errorf("%s: metadata %s = %q, want %q (%v)", tc.name, tc.key, got, tc.want, tc.err)
		}
	}
	if msg := status.Convert(act("no-such-table", toks[0], head, "m5", discard)).Message(); msg != `table "no-such-table": no such table` {
		t.Errorf("unknown table: message %q", msg)
	}
	_, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: "bogus"})
	if err == nil {
		var st grpc.ServerStreamingClient[pb.StreamEventsResponse]
		st, _ = e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: "bogus"})
		_, err = st.Recv()
	}
	wantStatus(t, "stream with a wrong token", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN)
	_, err = e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id})
	wantStatus(t, "join a full table", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ALREADY_STARTED)
	if got := errorMeta(err)[server.MetaTableState]; got != "TABLE_STATE_PLAYING" {
		t.Errorf("join a full table: table_state %q, want TABLE_STATE_PLAYING", got)
	}
	_, err = e.tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Seed: []byte{1, 2}}})
	wantStatus(t, "short seed", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	_, err = e.tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{TurnTime: durationpb.New(-time.Second)}})
	wantStatus(t, "negative turn time", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)

	// Nothing changed.
	after := e.table(t, id)
	if after.GetLastSeq() != before.GetLastSeq() {
		t.Fatalf("refused requests moved the table from seq %d to %d", before.GetLastSeq(), after.GetLastSeq())
	}
	for i := range views {
		if v := e.snapshotOf(t, id, toks[i]); !proto.Equal(v, views[i]) {
			t.Fatalf("seat %d's view changed:\n%v\nwant\n%v", i, v, views[i])
		}
	}

	// A retried request is applied once and answered the same.
	r1, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: toks[0], LastSeq: head, RequestId: "once", Action: discard})
	if err != nil {
		t.Fatalf("discard: %v", err)
	}
	r2, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: toks[0], LastSeq: head, RequestId: "once", Action: discard})
	if err != nil || r2.GetSeq() != r1.GetSeq() {
		t.Fatalf("retry = %v, %v; want seq %d", r2, err, r1.GetSeq())
	}
	if got := e.snapshotOf(t, id, toks[0]).GetSeq(); got != r1.GetSeq() {
		t.Fatalf("after a retried discard seat 0 is at %d, want %d", got, r1.GetSeq())
	}
	if n := len(e.snapshotOf(t, id, toks[0]).GetView().GetSeats()[0].GetDiscards()); n != 1 {
		t.Fatalf("seat 0 has %d discards after a retried discard, want 1", n)
	}
	_, err = e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: toks[0], LastSeq: r1.GetSeq(), RequestId: "once", Action: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}})
	wantStatus(t, "request id reused", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_REQUEST_ID_REUSED)
	// Seat 2's old seq is stale now: it got the discard and an offer.
	_, err = e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: toks[2], LastSeq: seqs[2], RequestId: "p", Action: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}})
	wantStatus(t, "pass on a stale view", err, codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ)
}

func TestConnectionRateLimit(t *testing.T) {
	cfg := baseConfig()
	cfg.ConnRate = host.Rate{PerSecond: 0.001, Burst: 3}
	e := startEnv(t, cfg)
	ctx := ctxT(t)
	for i := range 3 {
		if _, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{}); err != nil {
			t.Fatalf("ListTables %d: %v", i, err)
		}
	}
	_, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{})
	wantStatus(t, "fourth call", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED)
	wantRetry(t, "fourth call", err, 1000*time.Second)
	// A client that says its call was forwarded by a node of a cluster
	// (there is none here) is limited all the same.
	spoofed := metadata.AppendToOutgoingContext(ctx, cluster.ForwardedKey, "n1", cluster.ForwardedTokenKey, "guess")
	_, err = e.tables.ListTables(spoofed, &pb.ListTablesRequest{})
	wantStatus(t, "a call that claims it was forwarded", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED)
}

// wantRetry checks a rate-limited error's delay: RetryInfo with at most
// max (the bucket refills from the first take on) and not much less, and
// the same delay in whole milliseconds in the metadata.
func wantRetry(t *testing.T, what string, err error, max time.Duration) {
	t.Helper()
	var retry *errdetails.RetryInfo
	for _, d := range status.Convert(err).Details() {
		if r, ok := d.(*errdetails.RetryInfo); ok {
			retry = r
		}
	}
	d := retry.GetRetryDelay().AsDuration()
	if retry == nil || d > max || d < max-10*time.Second {
		t.Fatalf("%s: RetryInfo %v, want about %v", what, retry, max)
	}
	if got, want := errorMeta(err)[server.MetaRetryAfterMS], fmt.Sprint(int64((d+time.Millisecond-1)/time.Millisecond)); got != want {
		t.Errorf("%s: retry_after_ms %q, want %q", what, got, want)
	}
}

func TestSeatRateLimit(t *testing.T) {
	cfg := baseConfig()
	cfg.SeatRate = host.Rate{PerSecond: 0.001, Burst: 2}
	e := startEnv(t, cfg)
	id, _ := e.create(t, nil)
	var toks [4]string
	for i := range toks {
		_, toks[i] = e.join(t, id)
	}
	ctx := ctxT(t)
	pass := &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
	var err error
	for i := range 3 {
		_, err = e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: toks[1], LastSeq: 1000, RequestId: fmt.Sprint(i), Action: pass})
	}
	wantStatus(t, "third act of a seat", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED)
	wantRetry(t, "third act of a seat", err, 1000*time.Second)
}

// TestTimeoutsPlayTheSeat lets the turn and claim timers run out on a fake
// clock: the seat to act discards the tile it drew, the seat with an offer
// passes, and each is told privately that it timed out, before the events
// its automatic move caused.
func TestTimeoutsPlayTheSeat(t *testing.T) {
	cfg := baseConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e := startEnv(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{TurnTime: durationpb.New(5 * time.Second), ClaimTime: durationpb.New(2 * time.Second)})
	var toks [4]string
	for i := range toks {
		_, toks[i] = e.join(t, id)
	}
	ctx := ctxT(t)
	stream := func(tok string) grpc.ServerStreamingClient[pb.StreamEventsResponse] {
		st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Recv(); err != nil { // the snapshot
			t.Fatal(err)
		}
		return st
	}
	next := func(st grpc.ServerStreamingClient[pb.StreamEventsResponse]) *pb.Event {
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return r.GetEvent()
	}
	s0 := stream(toks[0])
	// Seat 0's turn offer follows its snapshot.
	if o := next(s0).GetTurnOffer(); o.GetSeat() != 0 || len(o.GetOptions()) == 0 {
		t.Fatalf("after seat 0's snapshot: %v, want its turn offer", o)
	}
	s2 := stream(toks[2])
	drawn := e.snapshotOf(t, id, toks[0]).GetView().GetDrawn()
	// Each timeout notice comes before the events of the automatic move.
	clk.Advance(5 * time.Second)
	if n := next(s0).GetSeatNotice(); n.GetKind() != pb.SeatNotice_KIND_TIMED_OUT || n.GetSeat() != 0 {
		t.Fatalf("got %v, want seat 0's timeout notice", n)
	}
	if d := next(s0).GetDiscarded(); d.GetSeat() != 0 || d.GetTile() != drawn || !d.GetTsumogiri() {
		t.Fatalf("after the turn time: %v, want seat 0 to discard its drawn %s", d, drawn)
	}
	next(s0) // fishing
	next(s2) // discarded
	if o := next(s2).GetClaimOffer(); o.GetSeat() != 2 {
		t.Fatalf("got %v, want seat 2's offer", o)
	}
	clk.Advance(2 * time.Second)
	if n := next(s2).GetSeatNotice(); n.GetKind() != pb.SeatNotice_KIND_TIMED_OUT || n.GetSeat() != 2 {
		t.Fatalf("got %v, want seat 2's timeout notice", n)
	}
	if d := next(s2).GetDrew(); d.GetSeat() != 1 {
		t.Fatalf("after the claim time: %v, want seat 1 to draw", d)
	}
	// Seat 0 saw seat 1's public draw, and never seat 2's timeout.
	if d := next(s0).GetDrew(); d.GetSeat() != 1 || d.GetTile() != "" {
		t.Fatalf("seat 0 got %v, want seat 1's public draw", d)
	}
}

// missingTile returns a tile the view's seat does not hold.
func missingTile(t *testing.T, v *pb.View) string {
	t.Helper()
	held := v.GetHand() + v.GetDrawn()
	for _, c := range []string{"1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "5m", "2p"} {
		ts, err := tile.Parse(held)
		if err != nil {
			t.Fatal(err)
		}
		x := tile.MustParse(c)[0]
		if !slices.Contains(ts, x) {
			return c
		}
	}
	t.Fatalf("hand %s holds every candidate", held)
	return ""
}

// TestLimits checks the bounds on what clients may open: tables, streams
// per seat and per connection, and that unknown enum values are refused
// before anything is made.
func TestLimits(t *testing.T) {
	cfg := baseConfig()
	cfg.MaxTables, cfg.MaxSeatStreams, cfg.MaxConnStreams = 2, 2, 3
	e := startEnv(t, cfg)
	ctx := ctxT(t)
	_, err := e.tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Rules: pb.RulePreset(99)}})
	wantStatus(t, "unknown rule preset", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	id, _ := e.create(t, nil)
	e.create(t, nil)
	_, err = e.tables.CreateTable(ctx, &pb.CreateTableRequest{})
	wantStatus(t, "third open table", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_TABLES)
	_, err = e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: string(make([]byte, 65))})
	wantStatus(t, "long name", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	_, err = e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Entropy: make([]byte, 65)})
	wantStatus(t, "long entropy", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	_, tok := e.join(t, id)
	open := func() error {
		st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: tok})
		if err != nil {
			return err
		}
		_, err = st.Recv()
		return err
	}
	for i := range 2 {
		if err := open(); err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
	}
	wantStatus(t, "third stream of a seat", open(), codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS)
	// The connection has two streams open; a spectator stream is its third
	// and a fourth is refused.
	sp, err := e.tables.Spectate(ctx, &pb.SpectateRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.Recv(); err != nil { // the first join notice
		t.Fatal(err)
	}
	sp2, err := e.tables.Spectate(ctx, &pb.SpectateRequest{TableId: id})
	if err == nil {
		_, err = sp2.Recv()
	}
	wantStatus(t, "fourth stream of a connection", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS)
}

// TestJoinRefusesUnprintableNames refuses names that other players'
// terminals would run as control sequences (tablectl play and watch print
// names as they are), and takes any printable name, in any script.
func TestJoinRefusesUnprintableNames(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, nil)
	ctx := ctxT(t)
	for _, name := range []string{"evil\x1b[2J", "two\nlines", "bell\a", "rtl\u202eoverride", "nul\x00"} {
		_, err := e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: name})
		wantStatus(t, fmt.Sprintf("join as %q", name), err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	}
	for _, s := range e.table(t, id).GetSeats() {
		if s.GetTaken() {
			t.Fatalf("a refused join took seat %d", s.GetSeat())
		}
	}
	for _, name := range []string{"Aki", "明日香", "Zoë O'Neil", ""} {
		if _, err := e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: name}); err != nil {
			t.Errorf("join as %q: %v", name, err)
		}
	}
}
