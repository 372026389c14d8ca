package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	grpcmd "google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// The room service (docs/rooms.md): its calls need an API key when the
// server holds keys; it reserves seats and hands out join tickets, and
// follows every table's life in the results feed.

// The errors of the room service's calls.
var (
	ErrKeyTableLimit    = errors.New("the API key has as many open tables as it may create")
	ErrTicketWrongTable = errors.New("the ticket is for another table")
)

// APIKeyHeader is the metadata key of the room service's API key.
const APIKeyHeader = "x-api-key"

// Tickets.
const (
	DefaultTicketTTL = 10 * time.Minute
	maxTicketTTL     = 24 * time.Hour
	maxTicketLen     = 2048
	ticketPrefix     = "tkt1."
)

// rooms is the server's room-service state: the open tables each API key
// created, for its limit.
type rooms struct {
	mu    sync.Mutex
	open  map[string]int    // key name -> open tables it created
	owner map[string]string // table id -> key name
}

type callerKey struct{}

// caller is the room service that made the call, if the server holds keys.
func caller(ctx context.Context) (backend.Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(backend.Caller)
	return c, ok
}

// needsKey reports whether a method is the room service's.
func needsKey(method string) bool {
	return strings.HasPrefix(method, "/"+pb.RoomService_ServiceDesc.ServiceName+"/") ||
		method == pb.TableService_CreateTable_FullMethodName
}

// authenticate is the auth interceptor's function: with keys, the room
// service's methods need one. Neither the key nor anything of it is ever
// logged or sent back.
func (s *Server) authenticate(ctx context.Context) (context.Context, error) {
	method, _ := grpc.Method(ctx)
	if !s.cfg.Keys.Enabled() && !s.cfg.ClientCerts || !needsKey(method) {
		return ctx, nil
	}
	var key string
	if v := grpcmd.ValueFromIncomingContext(ctx, APIKeyHeader); len(v) > 0 {
		key = v[0]
	}
	if c, ok := certCaller(ctx); ok && s.cfg.ClientCerts && key == "" {
		return context.WithValue(ctx, callerKey{}, c), nil
	}
	c, err := backend.Caller{}, error(backend.ErrMissingKey)
	switch {
	case s.cfg.Keys.Enabled():
		c, err = s.cfg.Keys.Check(key)
	case key != "":
		err = backend.ErrWrongKey // client certificates only: no key is right
	}
	if err != nil {
		s.cfg.Log.Info("room-service call refused", zap.String("method", method), zap.String("why", err.Error()))
		return nil, toStatus(fmt.Errorf("%s: %w", method, err))
	}
	return context.WithValue(ctx, callerKey{}, c), nil
}

// certCaller is the room service of a verified client certificate: the
// TLS layer checked it against --client-ca (tls.VerifyClientCertIfGiven),
// so a chain is there only when it verified. The certificate's subject
// names the caller (logs, limits); such a caller has no table limit.
func certCaller(ctx context.Context) (backend.Caller, bool) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return backend.Caller{}, false
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(ti.State.VerifiedChains) == 0 || len(ti.State.VerifiedChains[0]) == 0 {
		return backend.Caller{}, false
	}
	return backend.Caller{Name: "cert:" + ti.State.VerifiedChains[0][0].Subject.CommonName}, true
}

// authStream is the streams' interceptor of authentication (a unary
// call's is in unaryChain).
func (s *Server) authStream() grpc.StreamServerInterceptor {
	return auth.StreamServerInterceptor(s.authenticate)
}

// takeTable counts a table the caller is about to create against its
// key's limit; done gives the place back if the creation failed.
func (s *Server) takeTable(ctx context.Context) (name string, done func(id string, err error), err error) {
	c, ok := caller(ctx)
	if !ok {
		return "", func(string, error) {}, nil
	}
	r := &s.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.MaxTables > 0 && r.open[c.Name] >= c.MaxTables {
		return "", nil, fmt.Errorf("key %q: %d open: %w", c.Name, r.open[c.Name], ErrKeyTableLimit)
	}
	r.open[c.Name]++
	return c.Name, func(id string, err error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if err != nil {
			r.open[c.Name]--
			return
		}
		r.owner[id] = c.Name
	}, nil
}

// recount counts, after a recovery, the open tables each API key created
// (ruleset.Meta.Creator), for the keys' limits.
func (s *Server) recount() {
	r := &s.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range s.sets {
		infos, _ := h.tables.List(host.ListQuery{States: []host.State{host.Waiting, host.Playing}})
		for _, in := range infos {
			m, err := ruleset.DecodeMeta(in.Meta)
			if err != nil || m.Creator == "" {
				continue
			}
			if _, ok := r.owner[in.ID]; !ok {
				r.owner[in.ID] = m.Creator
				r.open[m.Creator]++
			}
		}
	}
}

// releaseTable gives a finished or closed table's place back to its key.
func (s *Server) releaseTable(id string) {
	r := &s.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	if name, ok := r.owner[id]; ok {
		delete(r.owner, id)
		r.open[name]--
	}
}

var lifeKinds = map[host.LifeKind]pb.TableEvent_Kind{
	host.LifeCreated:   pb.TableEvent_KIND_CREATED,
	host.LifeStarted:   pb.TableEvent_KIND_STARTED,
	host.LifeFinished:  pb.TableEvent_KIND_FINISHED,
	host.LifeClosed:    pb.TableEvent_KIND_CLOSED,
	host.LifeDamaged:   pb.TableEvent_KIND_DAMAGED,
	host.LifeAbandoned: pb.TableEvent_KIND_ABANDONED,
}

// life puts a step of a table's life in the results feed.
func (s *Server) life(l ruleset.Life) {
	e := &pb.TableEvent{Kind: lifeKinds[l.Kind], TableId: l.Info.ID, Time: timestamppb.New(l.At)}
	for _, st := range l.Info.Seats {
		e.PlayerIds = append(e.PlayerIds, st.PlayerID)
	}
	if m, err := ruleset.DecodeMeta(l.Info.Meta); err == nil {
		if set, err := m.TableSettings(); err == nil {
			e.RuleSet = set.GetRuleSet()
		}
	}
	if end := l.Final.GetGameEnded(); end != nil && l.Kind == host.LifeFinished {
		e.Scores, e.Ranks = end.GetScores(), end.GetRanks()
	}
	if l.Kind == host.LifeAbandoned {
		for range l.Info.Seats {
			e.Ranks = append(e.Ranks, 1) // a draw
		}
	}
	if _, err := s.feed.Append(e); err != nil {
		s.cfg.Log.Error("results feed: event lost", zap.String("table", e.TableId), zap.Stringer("kind", e.Kind), zap.Error(err))
	}
	switch l.Kind {
	case host.LifeFinished, host.LifeClosed, host.LifeDamaged, host.LifeAbandoned:
		s.releaseTable(l.Info.ID)
	}
}

type roomService struct {
	pb.UnimplementedRoomServiceServer
	s *Server
}

// checkPlayerID bounds a player id like a name, and wants one.
func checkPlayerID(field, id string) error {
	if id == "" {
		return fieldError(field, fmt.Errorf("empty: %w", ErrMalformed))
	}
	if err := checkName(id); err != nil {
		return fieldError(field, err)
	}
	return nil
}

// ticketTTL reads a request's ticket_ttl.
func ticketTTL(d *durationpb.Duration) (time.Duration, error) {
	return duration("ticket_ttl", d, DefaultTicketTTL, maxTicketTTL)
}

// newTicket issues the opaque ticket of a table's seat: its table and seat
// in the clear (they are no secret, and they let a ticket for another
// table be told from a forged one), then 24 random bytes. The server keeps
// only its hash.
func newTicket(tableID string, seat int) (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("ticket: %w", err)
	}
	return ticketPrefix + tableID + "." + strconv.Itoa(seat) + "." + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// reservations checks a request's reservations and issues their tickets.
func (s *Server) reservations(tableID string, in []*pb.Reservation, ttl time.Duration) ([]host.Reservation, []*pb.Ticket, error) {
	exp := s.cfg.Clock.Now().Add(ttl)
	seen := map[uint32]bool{}
	var rs []host.Reservation
	var ts []*pb.Ticket
	for i, r := range in {
		f := fmt.Sprintf("reservations[%d]", i)
		if r == nil || seen[r.GetSeat()] || r.GetSeat() > 63 {
			return nil, nil, fieldError(f+".seat", fmt.Errorf("missing, twice or out of range: %w", ErrMalformed))
		}
		seen[r.GetSeat()] = true
		if err := checkPlayerID(f+".player_id", r.GetPlayerId()); err != nil {
			return nil, nil, err
		}
		if err := checkName(r.GetName()); err != nil {
			return nil, nil, fieldError(f, err)
		}
		tk, err := newTicket(tableID, int(r.GetSeat()))
		if err != nil {
			return nil, nil, err
		}
		rs = append(rs, host.Reservation{Seat: int(r.GetSeat()), PlayerID: r.GetPlayerId(), Name: r.GetName(), TicketHash: host.TicketHash(tk), Expires: exp})
		ts = append(ts, &pb.Ticket{Seat: r.GetSeat(), PlayerId: r.GetPlayerId(), Ticket: tk, ExpireTime: timestamppb.New(exp)})
	}
	return rs, ts, nil
}

func (r *roomService) CreateTable(ctx context.Context, req *pb.RoomServiceCreateTableRequest) (*pb.RoomServiceCreateTableResponse, error) {
	resp, err := r.create(ctx, req)
	return resp, toStatus(err)
}

func (r *roomService) create(ctx context.Context, req *pb.RoomServiceCreateTableRequest) (*pb.RoomServiceCreateTableResponse, error) {
	ttl, err := ticketTTL(req.GetTicketTtl())
	if err != nil {
		return nil, err
	}
	// Checked before the table exists; the tickets, which name it, are
	// issued once the host drew its id.
	if _, _, err := r.s.reservations("", req.GetReservations(), ttl); err != nil {
		return nil, err
	}
	var tickets []*pb.Ticket
	var terr error
	out, err := r.s.table.createWith(ctx, &pb.CreateTableRequest{Settings: req.GetSettings()}, func(id string) []host.Reservation {
		var rs []host.Reservation
		rs, tickets, terr = r.s.reservations(id, req.GetReservations(), ttl)
		return rs
	})
	if err == nil {
		err = terr
	}
	if err != nil {
		return nil, err
	}
	return &pb.RoomServiceCreateTableResponse{Table: out.GetTable(), OwnerToken: out.GetOwnerToken(), Tickets: tickets}, nil
}

func (r *roomService) ReserveSeat(ctx context.Context, req *pb.ReserveSeatRequest) (*pb.ReserveSeatResponse, error) {
	resp, err := r.reserve(ctx, req)
	return resp, toStatus(err)
}

func (r *roomService) reserve(ctx context.Context, req *pb.ReserveSeatRequest) (*pb.ReserveSeatResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, err
	}
	ttl, err := ticketTTL(req.GetTicketTtl())
	if err != nil {
		return nil, err
	}
	rs, ts, err := r.s.reservations(id, []*pb.Reservation{req.GetReservation()}, ttl)
	if err != nil {
		return nil, err
	}
	if _, err := route(r.s, id, func(t ruleset.Tables) (struct{}, error) { return struct{}{}, t.Reserve(ctx, id, rs[0]) }); err != nil {
		return nil, err
	}
	return &pb.ReserveSeatResponse{Ticket: ts[0]}, nil
}

func (r *roomService) CloseTable(ctx context.Context, req *pb.CloseTableRequest) (*pb.CloseTableResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, toStatus(err)
	}
	abandon := req.GetAbandon()
	_, err := route(r.s, id, func(t ruleset.Tables) (struct{}, error) {
		err := t.CloseWaiting(ctx, id)
		if abandon && errors.Is(err, host.ErrAlreadyStarted) {
			err = t.Abandon(ctx, id)
		}
		return struct{}{}, err
	})
	if err != nil {
		return nil, toStatus(err)
	}
	r.s.cfg.Log.Info("table closed by the room service", zap.String("table", id), zap.Bool("abandon", abandon))
	return &pb.CloseTableResponse{}, nil
}

func (r *roomService) WatchResults(req *pb.WatchResultsRequest, stream grpc.ServerStreamingServer[pb.WatchResultsResponse]) error {
	last, err := r.s.feed.Last()
	if err != nil {
		return toStatus(fmt.Errorf("%w: %v", host.ErrUnavailable, err))
	}
	if req.GetAfterCursor() > last {
		return toStatus(fieldError("after_cursor", &host.SeqAheadError{Seq: req.GetAfterCursor(), Newest: last}))
	}
	err = r.s.feed.Watch(stream.Context(), req.GetAfterCursor(), func(e *pb.TableEvent) error {
		return stream.Send(&pb.WatchResultsResponse{Event: e})
	})
	if errors.Is(err, feed.ErrClosed) {
		err = fmt.Errorf("results feed: %w", host.ErrClosed)
	}
	return toStatus(err)
}

// pass checks a join ticket for table id: an opaque one the server issued
// (its hash is checked by the table) or one the room service signed.
func (s *Server) pass(tableID, ticket string) (host.Pass, error) {
	if len(ticket) > maxTicketLen {
		return host.Pass{}, fieldError("ticket", fmt.Errorf("%d bytes: %w", len(ticket), ErrMalformed))
	}
	if rest, ok := strings.CutPrefix(ticket, ticketPrefix); ok {
		parts := strings.Split(rest, ".")
		if len(parts) != 3 {
			return host.Pass{}, fieldError("ticket", host.ErrTicketInvalid)
		}
		seat, err := strconv.Atoi(parts[1])
		if err != nil || seat < 0 {
			return host.Pass{}, fieldError("ticket", host.ErrTicketInvalid)
		}
		if parts[0] != tableID {
			return host.Pass{}, fieldError("ticket", ErrTicketWrongTable)
		}
		h := host.TicketHash(ticket)
		return host.Pass{Seat: seat, ID: "o:" + hex.EncodeToString(h[:16]), Hash: h}, nil
	}
	if !backend.Signed(ticket) {
		return host.Pass{}, fieldError("ticket", host.ErrTicketInvalid)
	}
	c, err := s.cfg.Keys.VerifyTicket(ticket)
	if err != nil {
		return host.Pass{}, fieldError("ticket", err)
	}
	if c.TableID != tableID {
		return host.Pass{}, fieldError("ticket", ErrTicketWrongTable)
	}
	if err := checkPlayerID("ticket.sub", c.Subject); err != nil {
		return host.Pass{}, err
	}
	if err := checkName(c.Name); err != nil {
		return host.Pass{}, fieldError("ticket", err)
	}
	if len(c.ID) > maxIDLen {
		return host.Pass{}, fieldError("ticket.jti", fmt.Errorf("%d bytes: %w", len(c.ID), ErrMalformed))
	}
	return host.Pass{Seat: *c.Seat, ID: "j:" + c.ID, Signed: true, PlayerID: c.Subject, Name: c.Name, Expires: c.ExpiresAt.Time}, nil
}
