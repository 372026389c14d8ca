package server_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
)

// listAll pages through ListTables with req and returns the ids and the
// number of pages.
func (e *env) listAll(t *testing.T, req *pb.ListTablesRequest) ([]string, int) {
	t.Helper()
	req = proto.Clone(req).(*pb.ListTablesRequest)
	var ids []string
	for n := 1; ; n++ {
		r, err := e.tables.ListTables(ctxT(t), req)
		if err != nil {
			t.Fatalf("ListTables(%v) page %d: %v", req, n, err)
		}
		if size := int(req.GetPageSize()); size > 0 && len(r.GetTables()) > size {
			t.Fatalf("page of %d tables, page_size %d", len(r.GetTables()), size)
		}
		for _, tb := range r.GetTables() {
			ids = append(ids, tb.GetTableId())
		}
		if r.GetNextPageToken() == "" {
			return ids, n
		}
		req.PageToken = r.GetNextPageToken()
	}
}

// TestListTablesPaging lists tables page by page over gRPC: newest first
// by default or oldest first, every table once whatever the page size,
// filtered by state; page sizes take their default and maximum; bad page
// tokens, tokens of another listing and bad fields are INVALID_ARGUMENT.
func TestListTablesPaging(t *testing.T) {
	cfg := baseConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e := startEnv(t, cfg)
	ctx := ctxT(t)
	// Seven tables a second apart: waiting, finished (bots), playing (a
	// player who does not act), in turn.
	var all []string
	states := map[string]pb.TableState{}
	for i := range 7 {
		clk.Advance(time.Second)
		id, owner := e.create(t, &pb.TableSettings{FillWithBots: true})
		switch i % 3 {
		case 1:
			if _, err := e.tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
				t.Fatal(err)
			}
		case 2:
			e.join(t, id)
			if _, err := e.tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
				t.Fatal(err)
			}
		}
		all = append(all, id)
		states[id] = e.table(t, id).GetState()
	}
	newest := slices.Clone(all)
	slices.Reverse(newest)
	only := func(ids []string, want ...pb.TableState) []string {
		return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !slices.Contains(want, states[id]) })
	}
	if got := only(all, pb.TableState_TABLE_STATE_FINISHED); len(got) != 2 {
		t.Fatalf("finished tables %v, want 2", got)
	}
	finished, open := []pb.TableState{pb.TableState_TABLE_STATE_FINISHED}, []pb.TableState{pb.TableState_TABLE_STATE_WAITING, pb.TableState_TABLE_STATE_PLAYING}
	for _, tc := range []struct {
		name string
		req  *pb.ListTablesRequest
		want []string
	}{
		{"default", &pb.ListTablesRequest{}, newest},
		{"newest first", &pb.ListTablesRequest{Order: pb.TableOrder_TABLE_ORDER_NEWEST_FIRST}, newest},
		{"oldest first", &pb.ListTablesRequest{Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}, all},
		{"finished", &pb.ListTablesRequest{States: finished}, only(newest, finished...)},
		{"waiting or playing, oldest first", &pb.ListTablesRequest{States: open, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}, only(all, open...)},
	} {
		for _, size := range []int32{0, 1, 2, 3, 7, 1000} {
			req := proto.Clone(tc.req).(*pb.ListTablesRequest)
			req.PageSize = size
			got, pages := e.listAll(t, req)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s, page_size %d: %v, want %v", tc.name, size, got, tc.want)
			}
			want := 1
			if size > 0 {
				want = max(1, (len(tc.want)+int(size)-1)/int(size))
			}
			if pages != want {
				t.Errorf("%s, page_size %d: %d pages, want %d", tc.name, size, pages, want)
			}
		}
	}

	// Bad requests.
	first, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{PageSize: 2, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST})
	if err != nil || first.GetNextPageToken() == "" {
		t.Fatalf("first page: %v, %v", first, err)
	}
	tok := first.GetNextPageToken()
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		t.Fatalf("the token is not base64url: %v", err)
	}
	flipped := slices.Clone(raw)
	flipped[len(flipped)/2] ^= 1
	for _, tc := range []struct {
		name string
		req  *pb.ListTablesRequest
	}{
		{"negative page size", &pb.ListTablesRequest{PageSize: -1}},
		{"unknown order", &pb.ListTablesRequest{Order: pb.TableOrder(9)}},
		{"unspecified state", &pb.ListTablesRequest{States: []pb.TableState{pb.TableState_TABLE_STATE_UNSPECIFIED}}},
		{"unknown state", &pb.ListTablesRequest{States: []pb.TableState{7}}},
		{"token not base64", &pb.ListTablesRequest{PageToken: "not a token!", Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}},
		{"token of garbage", &pb.ListTablesRequest{PageToken: base64.RawURLEncoding.EncodeToString([]byte("0123456789abcdefghijklmnop")), Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}},
		{"token cut short", &pb.ListTablesRequest{PageToken: tok[:len(tok)-3], Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}},
		{"token with a flipped bit", &pb.ListTablesRequest{PageToken: base64.RawURLEncoding.EncodeToString(flipped), Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}},
		{"token of another order", &pb.ListTablesRequest{PageToken: tok}},
		{"token of other states", &pb.ListTablesRequest{PageToken: tok, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST, States: finished}},
	} {
		_, err := e.tables.ListTables(ctx, tc.req)
		wantStatus(t, tc.name, err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	}
	// The token itself, with its own listing, goes on.
	if r, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{PageSize: 2, PageToken: tok, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST}); err != nil ||
		len(r.GetTables()) != 2 || r.GetTables()[0].GetTableId() != all[2] {
		t.Fatalf("second page = %v, %v", r, err)
	}

	// Page sizes above the maximum are taken as the maximum.
	for range server.MaxPageSize {
		e.create(t, nil)
	}
	r, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{PageSize: 5000})
	if err != nil || len(r.GetTables()) != server.MaxPageSize || r.GetNextPageToken() == "" {
		t.Fatalf("page_size 5000: %d tables, next %q, %v; want %d and a next page", len(r.GetTables()), r.GetNextPageToken(), err, server.MaxPageSize)
	}
	if r, err := e.tables.ListTables(ctx, &pb.ListTablesRequest{}); err != nil || len(r.GetTables()) != server.DefaultPageSize {
		t.Fatalf("default page: %d tables, %v; want %d", len(r.GetTables()), err, server.DefaultPageSize)
	}
	if got, _ := e.listAll(t, &pb.ListTablesRequest{PageSize: 5000}); len(got) != server.MaxPageSize+len(all) {
		t.Fatalf("all pages: %d tables, want %d", len(got), server.MaxPageSize+len(all))
	}
}

// botGame plays a table of four bots to its end (the engine plays it at
// once: no timers) and returns its id.
func (e *env) botGame(t *testing.T, s byte) string {
	t.Helper()
	id, owner := e.create(t, &pb.TableSettings{FillWithBots: true, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(s)})
	if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatal(err)
	}
	if st := e.table(t, id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("bot table %v after its start, want finished", st)
	}
	return id
}

// spectateAll reads a table's whole public stream.
func (e *env) spectateAll(t *testing.T, id string) ([]*pb.Event, error) {
	t.Helper()
	st, err := e.tables.Spectate(ctxT(t), &pb.SpectateRequest{TableId: id})
	if err != nil {
		return nil, err
	}
	var evs []*pb.Event
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, r.GetEvent())
	}
}

var formats = []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_NATIVE, pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI}

// TestEvictedGameReadBack plays a real game on a server with a bbolt
// store, lets the finished table leave memory, and asks for it: GetTable,
// the three exports and a spectator stream answer as before, from the
// store, while ListTables no longer lists it. A restart loads none of the
// finished tables, and they are still read back.
func TestEvictedGameReadBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "authority.db")
	st, err := store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := riichiConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Store, cfg.Clock, cfg.FinishedTTL = st, clk, 10*time.Minute
	e, stop := startStoppableEnv(t, cfg)
	id := e.botGame(t, 41)
	before := e.table(t, id)
	var exports []*pb.ExportGameResponse
	for _, f := range formats {
		exports = append(exports, e.export(t, id, f))
	}
	spectated, err := e.spectateAll(t, id)
	if err != nil || spectated[len(spectated)-1].GetGameEnded() == nil {
		t.Fatalf("spectator stream: %d events, %v", len(spectated), err)
	}

	clk.Advance(10 * time.Minute)
	// Any request about the table now finds it out of memory: the one
	// that the eviction was queued ahead of too.
	same := func(when string) {
		t.Helper()
		if got := e.table(t, id); !proto.Equal(got, before) {
			t.Fatalf("%s: GetTable = %v, want %v", when, got, before)
		}
		for i, f := range formats {
			if got := e.export(t, id, f); !proto.Equal(got, exports[i]) {
				t.Fatalf("%s: ExportGame(%v) differs from the export in memory", when, f)
			}
		}
		evs, err := e.spectateAll(t, id)
		if err != nil || len(evs) != len(spectated) || !proto.Equal(evs[len(evs)-1], spectated[len(spectated)-1]) {
			t.Fatalf("%s: spectator stream of %d events (%v), want %d", when, len(evs), err, len(spectated))
		}
	}
	same("after eviction")
	if ids, _ := e.listAll(t, &pb.ListTablesRequest{}); len(ids) != 0 {
		t.Fatalf("ListTables after eviction = %v, want none", ids)
	}
	_, err = e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id})
	wantStatus(t, "join an evicted finished table", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ALREADY_STARTED)

	stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg.Store = st
	srv, err := newServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if n, err := srv.Recover(context.Background()); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; want no table", n, err)
	}
	srv.Close()
	cfg.Store = st
	e = startEnv(t, cfg)
	same("after a restart")
}

// TestEvictedWithoutData: without a store that keeps games, a finished
// table that left memory is gone, and says so.
func TestEvictedWithoutData(t *testing.T) {
	cfg := riichiConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock, cfg.FinishedTTL, cfg.IdleTTL = clk, 10*time.Minute, time.Hour
	e := startEnv(t, cfg)
	id := e.botGame(t, 42)
	waiting, _ := e.create(t, nil)
	clk.Advance(time.Hour)
	ctx := ctxT(t)
	for _, tc := range []struct {
		name string
		id   string
	}{{"finished", id}, {"abandoned", waiting}} {
		// ExportGame first: it reaches the table through its goroutine,
		// after the eviction the clock queued there.
		_, err := e.tables.ExportGame(ctx, &pb.ExportGameRequest{TableId: tc.id})
		wantStatus(t, "ExportGame of an evicted "+tc.name+" table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_EVICTED)
		_, err = e.tables.GetTable(ctx, &pb.GetTableRequest{TableId: tc.id})
		wantStatus(t, "GetTable of an evicted "+tc.name+" table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_EVICTED)
		_, err = e.spectateAll(t, tc.id)
		wantStatus(t, "Spectate of an evicted "+tc.name+" table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_EVICTED)
	}
	_, err := e.tables.GetTable(ctx, &pb.GetTableRequest{TableId: "never-was"})
	wantStatus(t, "GetTable of an unknown table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND)
}

// countingStore counts what recovery and requests read of a store.
type countingStore struct {
	*store.Bolt[table.Action]
	loaded, tables atomic.Int32
}

func (s *countingStore) Load(ctx context.Context, f func(host.TableRecord, *host.TableSnapshot, []host.Entry[table.Action]) error) error {
	return s.Bolt.Load(ctx, func(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[table.Action]) error {
		s.loaded.Add(1)
		return f(rec, snap, es)
	})
}

func (s *countingStore) LoadTable(ctx context.Context, id string) (host.TableRecord, *host.TableSnapshot, []host.Entry[table.Action], error) {
	s.tables.Add(1)
	return s.Bolt.LoadTable(ctx, id)
}

// TestRestartLoadsNoFinishedTable restarts a server on a store of many
// finished games and two tables not finished: recovery reads those two
// and nothing of the others, which are read one by one when asked for.
func TestRestartLoadsNoFinishedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "authority.db")
	st, err := store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig()
	cfg.Store = st
	e, stop := startStoppableEnv(t, cfg)
	var finished []string
	for range 40 {
		id, owner := e.create(t, &pb.TableSettings{FillWithBots: true})
		if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
			t.Fatal(err)
		}
		finished = append(finished, id)
	}
	waiting, _ := e.create(t, nil)
	playing, owner := e.create(t, &pb.TableSettings{FillWithBots: true})
	e.join(t, playing)
	if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: playing, Token: owner}); err != nil {
		t.Fatal(err)
	}
	stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	bolt, err := store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	cs := &countingStore{Bolt: bolt}
	cfg.Store = cs
	e = startEnv(t, cfg) // recovers
	if n := cs.loaded.Load(); n != 2 {
		t.Fatalf("recovery loaded %d tables, want the 2 not finished", n)
	}
	if n := cs.tables.Load(); n != 0 {
		t.Fatalf("recovery read %d tables one by one", n)
	}
	ids, _ := e.listAll(t, &pb.ListTablesRequest{Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST})
	if !slices.Equal(ids, []string{waiting, playing}) {
		t.Fatalf("ListTables after the restart = %v, want %v", ids, []string{waiting, playing})
	}
	if tb := e.table(t, finished[7]); tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("a finished table after the restart: %v", tb.GetState())
	}
	if n := cs.tables.Load(); n != 1 {
		t.Fatalf("GetTable of a finished table read %d tables, want 1", n)
	}
}
