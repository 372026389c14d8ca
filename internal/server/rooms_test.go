package server_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
)

// roomKeys is a keys file with one API key and two ticket keys.
type roomKeys struct {
	path    string
	apiKey  string
	hmac    []byte // ticket key "h1"
	edPriv  ed25519.PrivateKey
	oldHMAC []byte // ticket key "h0", rotated out: never in the file
}

func newRoomKeys(t *testing.T, maxTables int) *roomKeys {
	t.Helper()
	k := &roomKeys{path: filepath.Join(t.TempDir(), "keys.json"), hmac: make([]byte, 32), oldHMAC: make([]byte, 32)}
	var err error
	if k.apiKey, err = backend.NewKey(); err != nil {
		t.Fatal(err)
	}
	rand.Read(k.hmac)
	rand.Read(k.oldHMAC)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	k.edPriv = priv
	f := backend.File{
		Keys: []backend.FileKey{{Name: "rooms", SHA256: backend.Hash(k.apiKey), MaxTables: maxTables}},
		TicketKeys: []backend.FileTicketKey{
			{ID: "h1", HS256: base64.StdEncoding.EncodeToString(k.hmac)},
			{ID: "e1", Ed25519Public: base64.StdEncoding.EncodeToString(pub)},
		},
	}
	k.write(t, f)
	return k
}

func (k *roomKeys) write(t *testing.T, f backend.File) {
	t.Helper()
	raw, _ := json.Marshal(f)
	if err := os.WriteFile(k.path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (k *roomKeys) load(t *testing.T) *backend.Keys {
	t.Helper()
	keys, err := backend.Load(k.path)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// roomEnv is a server with keys, a player's client and the room service's.
type roomEnv struct {
	*env
	rooms pb.RoomServiceClient
	keys  *roomKeys
}

func startRoomEnv(t *testing.T, cfg config, k *roomKeys) (*roomEnv, func()) {
	t.Helper()
	cfg.Keys = k.load(t)
	s := servertest.Start(t, cfg.server())
	conn := s.Dial()
	stop := func() {
		conn.Close()
		s.Close()
	}
	return &roomEnv{env: &env{srv: s.Server, tables: pb.NewTableServiceClient(conn), judge: pb.NewJudgeServiceClient(conn)},
		rooms: pb.NewRoomServiceClient(conn), keys: k}, stop
}

func withKey(ctx context.Context, key string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, server.APIKeyHeader, key)
}

func (r *roomEnv) as(t *testing.T) context.Context { return withKey(ctxT(t), r.keys.apiKey) }

func reservations(n int) []*pb.Reservation {
	var rs []*pb.Reservation
	for i := range n {
		rs = append(rs, &pb.Reservation{Seat: uint32(i), PlayerId: "player-" + string(rune('a'+i)), Name: "P" + string(rune('A'+i))})
	}
	return rs
}

func (r *roomEnv) createReserved(t *testing.T, set *pb.TableSettings, rs []*pb.Reservation, ttl time.Duration) *pb.RoomServiceCreateTableResponse {
	t.Helper()
	req := &pb.RoomServiceCreateTableRequest{Settings: set, Reservations: rs}
	if ttl > 0 {
		req.TicketTtl = durationpb.New(ttl)
	}
	resp, err := r.rooms.CreateTable(r.as(t), req)
	if err != nil {
		t.Fatalf("RoomService.CreateTable: %v", err)
	}
	return resp
}

// TestRoomServiceAuth: with keys, the room service's calls need its API
// key; players' calls do not.
func TestRoomServiceAuth(t *testing.T) {
	k := newRoomKeys(t, 0)
	e, stop := startRoomEnv(t, baseConfig(), k)
	defer stop()
	created := e.createReserved(t, nil, reservations(1), 0)
	id := created.GetTable().GetTableId()
	seat, tok := e.join(t, id) // a player needs no key
	_ = seat
	wrongKey, _ := backend.NewKey()
	calls := map[string]func(ctx context.Context) error{
		"RoomService.CreateTable": func(ctx context.Context) error {
			_, err := e.rooms.CreateTable(ctx, &pb.RoomServiceCreateTableRequest{})
			return err
		},
		"TableService.CreateTable": func(ctx context.Context) error {
			_, err := e.tables.CreateTable(ctx, &pb.CreateTableRequest{})
			return err
		},
		"ReserveSeat": func(ctx context.Context) error {
			_, err := e.rooms.ReserveSeat(ctx, &pb.ReserveSeatRequest{TableId: id, Reservation: &pb.Reservation{Seat: 2, PlayerId: "x"}})
			return err
		},
		"CloseTable": func(ctx context.Context) error {
			_, err := e.rooms.CloseTable(ctx, &pb.CloseTableRequest{TableId: id})
			return err
		},
		"WatchResults": func(ctx context.Context) error {
			st, err := e.rooms.WatchResults(ctx, &pb.WatchResultsRequest{})
			if err != nil {
				return err
			}
			_, err = st.Recv()
			return err
		},
	}
	for name, call := range calls {
		wantStatus(t, name+" without a key", call(ctxT(t)), codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_MISSING_API_KEY)
		wantStatus(t, name+" with a wrong key", call(withKey(ctxT(t), wrongKey)), codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_WRONG_API_KEY)
		wantStatus(t, name+" with a seat token", call(withKey(ctxT(t), tok)), codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_NOT_ROOM_SERVICE)
		wantStatus(t, name+" with a ticket", call(withKey(ctxT(t), created.GetTickets()[0].GetTicket())), codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_NOT_ROOM_SERVICE)
		wantStatus(t, name+" with the owner token", call(withKey(ctxT(t), created.GetOwnerToken())), codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_NOT_ROOM_SERVICE)
	}
	// Nothing changed: the table waits with one seat taken, seat 0 reserved.
	tb := e.table(t, id)
	if tb.GetState() != pb.TableState_TABLE_STATE_WAITING || !tb.GetSeats()[0].GetReserved() || tb.GetSeats()[0].GetTaken() || !tb.GetSeats()[1].GetTaken() {
		t.Fatalf("after refusals: %v", tb)
	}
	// Keys rotate without a restart: the new key works, the old one not.
	newKey, _ := backend.NewKey()
	k.write(t, backend.File{Keys: []backend.FileKey{{Name: "rooms-2", SHA256: backend.Hash(newKey)}}})
	if err := e.srv.Keys().Reload(); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, "a key rotated out", calls["CloseTable"](e.as(t)), codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_WRONG_API_KEY)
	if err := calls["CloseTable"](withKey(ctxT(t), newKey)); err != nil {
		t.Fatalf("CloseTable with the new key: %v", err)
	}
}

// TestRoomServiceOpenWithoutKeys: a server without keys serves the room
// service to anyone, as it serves CreateTable.
func TestRoomServiceOpenWithoutKeys(t *testing.T) {
	s := servertest.Start(t, baseConfig().server())
	conn := s.Dial()
	resp, err := pb.NewRoomServiceClient(conn).CreateTable(ctxT(t), &pb.RoomServiceCreateTableRequest{Reservations: reservations(2)})
	if err != nil || len(resp.GetTickets()) != 2 {
		t.Fatalf("CreateTable without keys = %v, %v", resp, err)
	}
}

// TestTicketRefusals: each bad ticket is refused with its own reason and
// changes nothing; a reserved seat is taken only with its ticket.
func TestTicketRefusals(t *testing.T) {
	k := newRoomKeys(t, 0)
	cfg := baseConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e, stop := startRoomEnv(t, cfg, k)
	defer stop()
	a := e.createReserved(t, nil, reservations(3), time.Minute)
	b := e.createReserved(t, nil, reservations(1), time.Minute)
	id, other := a.GetTable().GetTableId(), b.GetTable().GetTableId()
	join := func(ticket string) (*pb.JoinTableResponse, error) {
		return e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Name: "ignored", Ticket: ticket})
	}
	// Seat 3 is free: a plain join takes it, and then the only seats left
	// are reserved.
	if s, _ := e.join(t, id); s != 3 {
		t.Fatalf("plain join took seat %d, want the free seat 3", s)
	}
	_, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Name: "intruder"})
	wantStatus(t, "a reserved seat without its ticket", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEAT_RESERVED)

	r, err := join(a.GetTickets()[0].GetTicket())
	if err != nil || r.GetSeat() != 0 {
		t.Fatalf("join with the ticket of seat 0 = %v, %v", r, err)
	}
	if s := r.GetTable().GetSeats()[0]; s.GetPlayerId() != "player-a" || s.GetName() != "PA" || !s.GetTaken() {
		t.Fatalf("seat 0 after its ticket: %v", s)
	}
	before := e.table(t, id)
	_, err = join(a.GetTickets()[0].GetTicket())
	wantStatus(t, "a ticket used twice", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_USED)
	_, err = join(b.GetTickets()[0].GetTicket())
	wantStatus(t, "another table's ticket", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_WRONG_TABLE)
	forged := a.GetTickets()[1].GetTicket()
	forged = forged[:len(forged)-4] + "AAAA"
	_, err = join(forged)
	wantStatus(t, "a forged ticket", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID)
	_, err = join("tkt1." + id + ".3.x")
	wantStatus(t, "a ticket for an unreserved seat", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID)
	_, err = join("garbage")
	wantStatus(t, "garbage", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID)

	exp := clk.Now().Add(time.Hour)
	sign := func(kid string, key any, seat int, player, jti string) string {
		s, err := backend.SignTicket(kid, key, id, seat, player, "Signed", jti, exp)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	_, err = join(sign("h0", k.oldHMAC, 2, "player-c", "j1"))
	wantStatus(t, "signed with a key rotated out", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID)
	_, err = join(sign("h1", k.oldHMAC, 2, "player-c", "j1"))
	wantStatus(t, "signed with another secret", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID)
	_, err = join(sign("h1", k.hmac, 2, "player-z", "j2"))
	wantStatus(t, "signed for a seat reserved for another player", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEAT_RESERVED)
	if after := e.table(t, id); !proto.Equal(before, after) {
		t.Fatalf("refusals changed the table:\n%v\n%v", before, after)
	}
	other2, err := backend.SignTicket("h1", k.hmac, other, 0, "player-a", "x", "j3", exp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = join(other2)
	wantStatus(t, "signed for another table", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_WRONG_TABLE)
	// Ed25519 works too; the seat's player takes it.
	r, err = join(sign("e1", k.edPriv, 2, "player-c", "j4"))
	if err != nil || r.GetSeat() != 2 || r.GetTable().GetSeats()[2].GetPlayerId() != "player-c" {
		t.Fatalf("join with an Ed25519 ticket = %v, %v", r, err)
	}
	// Seat 1's ticket expires.
	clk.Advance(2 * time.Minute)
	_, err = join(a.GetTickets()[1].GetTicket())
	wantStatus(t, "an expired ticket", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_EXPIRED)
	// The room service reserves it again, with a new ticket.
	rr, err := e.rooms.ReserveSeat(e.as(t), &pb.ReserveSeatRequest{TableId: id, Reservation: &pb.Reservation{Seat: 1, PlayerId: "player-b", Name: "PB"}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err = join(rr.GetTicket().GetTicket()); err != nil || r.GetSeat() != 1 {
		t.Fatalf("join with the new ticket = %v, %v", r, err)
	}
	if st := r.GetTable().GetState(); st != pb.TableState_TABLE_STATE_PLAYING {
		t.Fatalf("the table is %v with every seat taken", st)
	}
	// Leak guarantees: no ticket is in a listing or a description.
	list, err := e.tables.ListTables(ctxT(t), &pb.ListTablesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	dump := list.String() + e.table(t, id).String()
	for _, tk := range append(a.GetTickets(), b.GetTickets()...) {
		if strings.Contains(dump, tk.GetTicket()) || strings.Contains(dump, tk.GetTicket()[len(tk.GetTicket())-16:]) {
			t.Fatal("a ticket is in a listing")
		}
	}
}

// TestRoomKeyLimit: a key creates at most max_tables open tables; a
// closed one gives its place back.
func TestRoomKeyLimit(t *testing.T) {
	k := newRoomKeys(t, 2)
	e, stop := startRoomEnv(t, baseConfig(), k)
	defer stop()
	first := e.createReserved(t, nil, nil, 0)
	e.createReserved(t, nil, nil, 0)
	_, err := e.rooms.CreateTable(e.as(t), &pb.RoomServiceCreateTableRequest{})
	wantStatus(t, "a third table", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_KEY_TABLE_LIMIT)
	if _, err := e.rooms.CloseTable(e.as(t), &pb.CloseTableRequest{TableId: first.GetTable().GetTableId()}); err != nil {
		t.Fatal(err)
	}
	_, err = e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: first.GetTable().GetTableId()})
	wantStatus(t, "a closed table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_EVICTED)
	e.createReserved(t, nil, nil, 0)
}

// feedReader follows the results feed, reconnecting after every event.
type feedReader struct {
	mu     sync.Mutex
	cursor uint64
	events []*pb.TableEvent
}

// next reads one event on a fresh stream from its cursor: a reconnect at
// every point.
func (f *feedReader) next(ctx context.Context, rooms pb.RoomServiceClient) (*pb.TableEvent, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f.mu.Lock()
	after := f.cursor
	f.mu.Unlock()
	st, err := rooms.WatchResults(ctx, &pb.WatchResultsRequest{AfterCursor: after})
	if err != nil {
		return nil, err
	}
	r, err := st.Recv()
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cursor = r.GetEvent().GetCursor()
	f.events = append(f.events, r.GetEvent())
	return r.GetEvent(), nil
}

// TestRoomGameAcrossRestart: four players join with tickets and play a
// whole game; the server restarts in the middle with its data; the feed,
// read one event per connection, has the game's life once, with the
// players' ids and the final scores.
func TestRoomGameAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	k := newRoomKeys(t, 0)
	open := func() (config, func()) {
		st, err := store.Open[table.Action](filepath.Join(dir, "authority.db"), riichi.ActionCodec{})
		if err != nil {
			t.Fatal(err)
		}
		fd, err := feed.Open(filepath.Join(dir, "results.db"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := baseConfig()
		cfg.Store, cfg.Feed = st, fd
		return cfg, func() { st.Close() }
	}
	cfg, closeStore := open()
	e, stop := startRoomEnv(t, cfg, k)
	set := &pb.TableSettings{TurnTime: durationpb.New(time.Second), ClaimTime: durationpb.New(time.Second)}
	created := e.createReserved(t, set, reservations(4), 0)
	id := created.GetTable().GetTableId()
	fr := &feedReader{}
	if ev, err := fr.next(e.as(t), e.rooms); err != nil || ev.GetKind() != pb.TableEvent_KIND_CREATED {
		t.Fatalf("first feed event = %v, %v", ev, err)
	}
	players := make([]*player, 4)
	for i, tk := range created.GetTickets() {
		r, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk.GetTicket()})
		if err != nil {
			t.Fatalf("join with ticket %d: %v", i, err)
		}
		players[i] = &player{e: e.env, id: id, seat: r.GetSeat(), token: r.GetSeatToken()}
	}
	if ev, err := fr.next(e.as(t), e.rooms); err != nil || ev.GetKind() != pb.TableEvent_KIND_STARTED {
		t.Fatalf("second feed event = %v, %v", ev, err)
	}
	// Play until seat 0 has seen some events, then stop the server.
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Go(func() { _ = p.play(ctxT(t), 0, 0) })
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		players[0].mu.Lock()
		n := len(players[0].events)
		players[0].mu.Unlock()
		if n >= 12 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	wg.Wait()
	closeStore()
	for _, p := range players {
		if p.events[len(p.events)-1].GetGameEnded() != nil {
			t.Fatal("the game ended before the restart")
		}
	}

	cfg, closeStore = open()
	defer closeStore()
	e2, stop2 := startRoomEnv(t, cfg, k)
	defer stop2()
	for _, p := range players {
		p.e = e2.env
		wg.Go(func() {
			if err := p.play(ctxT(t), 0, 0); err != nil {
				t.Errorf("seat %d after the restart: %v", p.seat, err)
			}
		})
	}
	ev, err := fr.next(e2.as(t), e2.rooms)
	if err != nil || ev.GetKind() != pb.TableEvent_KIND_FINISHED {
		t.Fatalf("third feed event = %v, %v", ev, err)
	}
	wg.Wait()
	var end *pb.GameEnded
	for _, ev := range players[0].events {
		if g := ev.GetGameEnded(); g != nil {
			end = g
		}
	}
	if end == nil {
		t.Fatal("seat 0 saw no game end")
	}
	want := []string{"player-a", "player-b", "player-c", "player-d"}
	if !slices.Equal(ev.GetPlayerIds(), want) || !slices.Equal(ev.GetScores(), end.GetScores()) || !slices.Equal(ev.GetRanks(), end.GetRanks()) || ev.GetTableId() != id {
		t.Fatalf("finished event %v, want players %v and the game's end %v", ev, want, end)
	}
	// Nothing more for this table, also from the start: each step once.
	st, err := e2.rooms.WatchResults(e2.as(t), &pb.WatchResultsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []pb.TableEvent_Kind
	for range 3 {
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, r.GetEvent().GetKind())
	}
	if !slices.Equal(kinds, []pb.TableEvent_Kind{pb.TableEvent_KIND_CREATED, pb.TableEvent_KIND_STARTED, pb.TableEvent_KIND_FINISHED}) {
		t.Fatalf("feed from the start: %v", kinds)
	}
	ctx, cancel := context.WithTimeout(e2.as(t), 200*time.Millisecond)
	defer cancel()
	st, err = e2.rooms.WatchResults(ctx, &pb.WatchResultsRequest{AfterCursor: ev.GetCursor()})
	if err == nil {
		if r, err := st.Recv(); err == nil {
			t.Fatalf("the feed has %v after the game's end", r)
		}
	}
	exp, err := e2.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id})
	if err != nil || !slices.Equal(exp.GetPlayerIds(), want) || exp.GetPartial() {
		t.Fatalf("export: %v players %v partial %v, want %v", err, exp.GetPlayerIds(), exp.GetPartial(), want)
	}
	// The seats' player ids are in the table.
	for i, s := range e2.table(t, id).GetSeats() {
		if s.GetPlayerId() != want[i] {
			t.Fatalf("seat %d: player %q, want %q", i, s.GetPlayerId(), want[i])
		}
	}
}

// TestTicketUsedAcrossRestart: a ticket taken once stays taken after a
// restart with the data, also when its player gave the seat up.
func TestTicketUsedAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	k := newRoomKeys(t, 0)
	open := func() (config, func()) {
		st, err := store.Open[table.Action](filepath.Join(dir, "authority.db"), riichi.ActionCodec{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := baseConfig()
		cfg.Store = st
		return cfg, func() { st.Close() }
	}
	cfg, closeStore := open()
	e, stop := startRoomEnv(t, cfg, k)
	created := e.createReserved(t, nil, reservations(2), 0)
	id := created.GetTable().GetTableId()
	tk := created.GetTickets()[0].GetTicket()
	r, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.tables.LeaveTable(ctxT(t), &pb.LeaveTableRequest{TableId: id, SeatToken: r.GetSeatToken()}); err != nil {
		t.Fatal(err)
	}
	stop()
	closeStore()
	cfg, closeStore = open()
	defer closeStore()
	e2, stop2 := startRoomEnv(t, cfg, k)
	defer stop2()
	_, err = e2.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk})
	wantStatus(t, "a ticket used before the restart", err, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_USED)
	s := e2.table(t, id).GetSeats()[0]
	if !s.GetReserved() || s.GetTaken() || s.GetPlayerId() != "player-a" {
		t.Fatalf("seat 0 after the restart: %v", s)
	}
	// The other ticket still works.
	if _, err := e2.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: created.GetTickets()[1].GetTicket()}); err != nil {
		t.Fatal(err)
	}
}

// TestRoomLeaks: tickets and API keys are in no log line, no error, no
// listing, no record and not in the store's file.
func TestRoomLeaks(t *testing.T) {
	dir := t.TempDir()
	k := newRoomKeys(t, 0)
	st, err := store.Open[table.Action](filepath.Join(dir, "authority.db"), riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	fd, err := feed.Open(filepath.Join(dir, "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.DebugLevel)
	cfg := baseConfig()
	cfg.Store, cfg.Feed, cfg.Log = st, fd, zap.New(core)
	e, stop := startRoomEnv(t, cfg, k)
	// The players never play: their turns time out, and the game ends.
	set := &pb.TableSettings{FillWithBots: true, TurnTime: durationpb.New(time.Millisecond), ClaimTime: durationpb.New(time.Millisecond)}
	created := e.createReserved(t, set, reservations(2), 0)
	id := created.GetTable().GetTableId()
	secrets := []string{k.apiKey}
	var errs []string
	for _, tk := range created.GetTickets() {
		secrets = append(secrets, tk.GetTicket())
		r, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk.GetTicket()})
		if err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, r.GetSeatToken())
		_, err = e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk.GetTicket()})
		errs = append(errs, err.Error())
		_, err = e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk.GetTicket() + "x"})
		errs = append(errs, err.Error())
	}
	signed, _ := backend.SignTicket("h0", k.oldHMAC, id, 3, "u", "n", "jti-secret", time.Now().Add(time.Hour))
	secrets = append(secrets, signed)
	_, err = e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: signed})
	errs = append(errs, err.Error())
	wrong := k.apiKey[:len(k.apiKey)-2] + "zz"
	secrets = append(secrets, wrong)
	_, err = e.rooms.CloseTable(withKey(ctxT(t), wrong), &pb.CloseTableRequest{TableId: id})
	errs = append(errs, err.Error())
	if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: created.GetOwnerToken()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctxT(t), 20*time.Second)
	defer cancel()
	for {
		if e.table(t, id).GetState() == pb.TableState_TABLE_STATE_FINISHED || ctx.Err() != nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if ctx.Err() != nil {
		t.Fatal("the game did not end")
	}
	list, err := e.tables.ListTables(ctxT(t), &pb.ListTablesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	exported, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	stop()
	st.Close()
	raw, err := os.ReadFile(filepath.Join(dir, "authority.db"))
	if err != nil {
		t.Fatal(err)
	}
	feedRaw, err := os.ReadFile(filepath.Join(dir, "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	var logText strings.Builder
	for _, l := range logs.All() {
		logText.WriteString(l.Message)
		for k, v := range l.ContextMap() {
			fmt.Fprintf(&logText, " %s=%v", k, v)
		}
		logText.WriteString("\n")
	}
	places := map[string]string{
		"logs": logText.String(), "errors": strings.Join(errs, "\n"), "listing": list.String(),
		"record": exported.GetRecord(), "store": string(raw), "feed": string(feedRaw),
	}
	for where, text := range places {
		for _, s := range secrets {
			// The secret part of an opaque ticket is its tail; the table
			// id before it is no secret.
			if strings.Contains(text, s[len(s)-20:]) {
				t.Errorf("a secret (…%s) is in the %s", s[len(s)-6:], where)
			}
		}
	}
	if !strings.Contains(exported.GetRecord(), id) {
		t.Fatal("the record does not name its table: the check would find nothing")
	}
}

// TestRoomAbandon: the room service abandons a table in play: the game
// ends there, a draw; streams end with the notice; the feed says so; it
// stays finished after a restart.
func TestRoomAbandon(t *testing.T) {
	dir := t.TempDir()
	k := newRoomKeys(t, 0)
	open := func() (config, func()) {
		st, err := store.Open[table.Action](filepath.Join(dir, "authority.db"), riichi.ActionCodec{})
		if err != nil {
			t.Fatal(err)
		}
		fd, err := feed.Open(filepath.Join(dir, "results.db"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := baseConfig()
		cfg.Store, cfg.Feed = st, fd
		return cfg, func() { st.Close() }
	}
	cfg, closeStore := open()
	e, stop := startRoomEnv(t, cfg, k)
	created := e.createReserved(t, nil, reservations(4), 0)
	id := created.GetTable().GetTableId()
	var seats []*player
	for _, tk := range created.GetTickets() {
		r, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Ticket: tk.GetTicket()})
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, &player{e: e.env, id: id, seat: r.GetSeat(), token: r.GetSeatToken()})
	}
	_, err := e.rooms.CloseTable(e.as(t), &pb.CloseTableRequest{TableId: id})
	wantStatus(t, "close a table in play", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ALREADY_STARTED)
	// Seat 1 follows the table from its snapshot on.
	st, err := e.tables.StreamEvents(ctxT(t), &pb.StreamEventsRequest{TableId: id, SeatToken: seats[1].token})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := st.Recv(); err != nil || r.GetSnapshot() == nil {
		t.Fatalf("first item %v, %v; want the snapshot", r, err)
	}
	if _, err := e.rooms.CloseTable(e.as(t), &pb.CloseTableRequest{TableId: id, Abandon: true}); err != nil {
		t.Fatal(err)
	}
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("seat 1's stream: %v", err)
		}
		seats[1].events = append(seats[1].events, r.GetEvent())
	}
	last := seats[1].events[len(seats[1].events)-1]
	if last.GetSeatNotice().GetKind() != pb.SeatNotice_KIND_TABLE_ABANDONED {
		t.Fatalf("the stream ended with %v, want the abandonment", last)
	}
	_, err = e.tables.Act(ctxT(t), &pb.ActRequest{TableId: id, SeatToken: seats[0].token, RequestId: "r", Action: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}})
	wantStatus(t, "act after the abandonment", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_GAME_OVER)
	_, err = e.rooms.CloseTable(e.as(t), &pb.CloseTableRequest{TableId: id, Abandon: true})
	wantStatus(t, "abandon twice", err, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_GAME_OVER)
	fr := &feedReader{}
	var kinds []pb.TableEvent_Kind
	for range 3 {
		ev, err := fr.next(e.as(t), e.rooms)
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.GetKind())
		if ev.GetKind() == pb.TableEvent_KIND_ABANDONED && (!slices.Equal(ev.GetRanks(), []int32{1, 1, 1, 1}) || ev.GetPlayerIds()[3] != "player-d") {
			t.Fatalf("abandoned event %v", ev)
		}
	}
	if !slices.Equal(kinds, []pb.TableEvent_Kind{pb.TableEvent_KIND_CREATED, pb.TableEvent_KIND_STARTED, pb.TableEvent_KIND_ABANDONED}) {
		t.Fatalf("feed %v", kinds)
	}
	stop()
	closeStore()
	cfg, closeStore = open()
	defer closeStore()
	e2, stop2 := startRoomEnv(t, cfg, k)
	defer stop2()
	if st := e2.table(t, id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("after a restart the abandoned table is %v", st)
	}
	if n, _ := e2.srv.FeedLast(); n != 3 {
		t.Fatalf("the feed has %d events after the restart, want 3", n)
	}
}

// TestRoomKeyLimitAcrossRestart: the open tables of a key count after a
// restart too.
func TestRoomKeyLimitAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "authority.db")
	k := newRoomKeys(t, 1)
	open := func() (config, func()) {
		st, err := store.Open[table.Action](path, riichi.ActionCodec{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := baseConfig()
		cfg.Store = st
		return cfg, func() { st.Close() }
	}
	cfg, closeStore := open()
	e, stop := startRoomEnv(t, cfg, k)
	e.createReserved(t, nil, nil, 0)
	stop()
	closeStore()
	cfg, closeStore = open()
	defer closeStore()
	e2, stop2 := startRoomEnv(t, cfg, k)
	defer stop2()
	_, err := e2.rooms.CreateTable(e2.as(t), &pb.RoomServiceCreateTableRequest{})
	wantStatus(t, "a second table after a restart", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_KEY_TABLE_LIMIT)
}
