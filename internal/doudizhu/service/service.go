// Package service is the gRPC face of Dou Dizhu tables
// (doudizhu.authority.v1.DoudizhuService), as thin as package server is
// for mahjong: it checks requests with package server's checks, calls a
// host of Dou Dizhu's types (package hosting) that shares the server's
// hosting - clock, rate limits, lifetimes and the one count of open
// tables - and maps every error with package server's mapping, so the
// codes and ErrorInfo reasons are the mahjong API's.
package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	mpb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/doudizhu/hosting"
	"github.com/mahjong-authority/authority/internal/doudizhu/record"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/doudizhu/wire"
	"github.com/mahjong-authority/authority/internal/encoded"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/server"
)

// Name is the rule set's name in table metas.
const Name = "doudizhu"

// Setting bounds.
const (
	MaxBombCap = 20
	MaxDeals   = 64
)

// Config configures a Service.
type Config struct {
	// Hosting is the server's (server.Server.Hosting), shared with the
	// mahjong rule sets.
	Hosting  ruleset.Hosting
	Defaults server.Defaults
	// Store keeps the tables (DATA/doudizhu.db); nil keeps them in memory.
	Store host.Store[table.Action]
	// Cluster, when the server is a node of one, makes ListTables list
	// every node's tables.
	Cluster *cluster.Node
}

// Service implements DoudizhuService.
type Service struct {
	pb.UnimplementedDoudizhuServiceServer
	cfg Config
	h   *hosting.Host
}

// New starts the host of Dou Dizhu tables; Close stops it.
func New(cfg Config) *Service {
	s := &Service{cfg: cfg}
	hs := cfg.Hosting
	hc := host.Config[table.Action, hosting.View, table.Body]{
		Clock: hs.Clock, Log: hs.Log, Store: cfg.Store, Bot: hosting.NewBot, Codec: hosting.Codec{},
		SeatRate: hs.SeatRate, MaxTables: hs.MaxTables, Count: hs.Count, MaxSeatStreams: hs.MaxSeatStreams,
		FinishedTTL: hs.FinishedTTL, IdleTTL: hs.IdleTTL, KeepGames: hs.KeepGames,
		ForgetEvicted: cfg.Store == nil, GameFor: gameFor,
		ActionKind: func(a table.Action) string { return a.Type.String() },
		Encode:     func(e *host.Event[table.Body]) []byte { return ruleset.Encode(e, eventToPB) },
	}
	if hs.Observer != nil {
		hc.Observer = hs.Observer
	}
	if hs.Owner != nil {
		hc.Owner = hs.Owner(Name, s)
	}
	s.h = host.New(hc)
	return s
}

// Adopt takes a table over from the store (host.Host.Adopt), in a cluster.
func (s *Service) Adopt(ctx context.Context, id string) error { return s.h.Adopt(ctx, id) }

// Release gives a table up to another node (host.Host.Release).
func (s *Service) Release(id string, why error) bool { return s.h.Release(id, why) }

// Host is the service's host, for in-process tools and tests.
func (s *Service) Host() *hosting.Host { return s.h }

// Register adds the service to a gRPC server.
func (s *Service) Register(g grpc.ServiceRegistrar) { pb.RegisterDoudizhuServiceServer(g, s) }

// Recover resumes the stored tables whose match is not over.
func (s *Service) Recover(ctx context.Context) (int, error) { return s.h.Recover(ctx, gameFor) }

// Close stops the tables.
func (s *Service) Close() { s.h.Close() }

// gameFor makes the games of a stored table.
func gameFor(rec host.TableRecord) (host.NewGame[table.Action, hosting.View, table.Body], error) {
	m, err := ruleset.DecodeMeta(rec.Meta)
	if err != nil {
		return nil, err
	}
	if m.RuleSet != Name {
		return nil, fmt.Errorf("table %s: a %q table in the Dou Dizhu store", rec.ID, m.RuleSet)
	}
	set, err := settings(m)
	if err != nil {
		return nil, err
	}
	return newGame(set, m.Seed)
}

func settings(m ruleset.Meta) (*pb.TableSettings, error) {
	set := &pb.TableSettings{}
	if err := proto.Unmarshal(m.Settings, set); err != nil {
		return nil, fmt.Errorf("table settings: %w", err)
	}
	return set, nil
}

func newGame(set *pb.TableSettings, seed [32]byte) (host.NewGame[table.Action, hosting.View, table.Body], error) {
	rules := Rules(set)
	if _, err := table.New(table.Config{Rules: rules}); err != nil {
		return nil, fmt.Errorf("%w: %w", ruleset.ErrBadOption, err)
	}
	return func() (host.Game[table.Action, hosting.View, table.Body], error) {
		return hosting.NewGame(rules, seed)
	}, nil
}

// Rules are the engine's rules of checked settings.
func Rules(set *pb.TableSettings) table.Rules {
	r := table.Classic
	if set.GetBidding() == pb.Bidding_BIDDING_CALL_ROB {
		r = table.CallRob
	}
	r.BombCap, r.Deals = int(set.GetBombCap()), int(set.GetDeals())
	return r
}

// Check validates a table's rules and completes them in place.
func Check(set *pb.TableSettings) error {
	if _, ok := pb.Bidding_name[int32(set.GetBidding())]; !ok {
		return server.FieldError("settings.bidding", fmt.Errorf("%v: %w", set.GetBidding(), ruleset.ErrMalformed))
	}
	if set.Bidding == pb.Bidding_BIDDING_UNSPECIFIED {
		set.Bidding = pb.Bidding_BIDDING_POINTS
	}
	if set.GetBombCap() > MaxBombCap {
		return server.FieldError("settings.bomb_cap", fmt.Errorf("%d, at most %d: %w", set.GetBombCap(), MaxBombCap, ruleset.ErrBadOption))
	}
	if set.GetDeals() > MaxDeals {
		return server.FieldError("settings.deals", fmt.Errorf("%d, at most %d: %w", set.GetDeals(), MaxDeals, ruleset.ErrBadOption))
	}
	if set.Deals == 0 {
		set.Deals = 1
	}
	return nil
}

func (s *Service) CreateTable(ctx context.Context, req *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	r, err := s.create(ctx, req)
	return r, server.ToStatus(err)
}

func (s *Service) create(ctx context.Context, req *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	set := &pb.TableSettings{}
	if req.GetSettings() != nil {
		set = proto.Clone(req.GetSettings()).(*pb.TableSettings)
	}
	if err := Check(set); err != nil {
		return nil, err
	}
	d := s.cfg.Defaults
	hs := host.Settings{Seats: table.NumSeats, FillWithBots: set.GetFillWithBots()}
	var err error
	for _, f := range []struct {
		name     string
		in       *durationpb.Duration
		out      *time.Duration
		def, max time.Duration
	}{
		{"settings.turn_time", set.GetTurnTime(), &hs.TurnTime, d.TurnTime, server.MaxTimer},
		{"settings.spectator_delay", set.GetSpectatorDelay(), &hs.SpectatorDelay, d.SpectatorDelay, server.MaxTimer},
		{"settings.disconnect_grace", set.GetDisconnectGrace(), &hs.DisconnectGrace, d.DisconnectGrace, server.MaxTimer},
		{"settings.round_pause", set.GetRoundPause(), &hs.RoundPause, d.RoundPause, server.MaxRoundPause},
	} {
		if *f.out, err = server.Duration(f.name, f.in, f.def, f.max); err != nil {
			return nil, err
		}
	}
	m := ruleset.Meta{RuleSet: Name, Seeded: len(set.GetSeed()) > 0}
	switch len(set.GetSeed()) {
	case 0:
		if m.Seed, err = server.RandomSeed(); err != nil {
			return nil, err
		}
	case 32:
		copy(m.Seed[:], set.GetSeed())
	default:
		return nil, server.FieldError("settings.seed", fmt.Errorf("want 32 bytes, have %d: %w", len(set.GetSeed()), ruleset.ErrMalformed))
	}
	// As for mahjong: the settings without the seed and the commitment to
	// the seed describe the table; the seed stays secret until the match
	// is over.
	m.Commitment = fair.SeedCommitment(m.Seed)
	set.Seed = nil
	if m.Settings, err = proto.Marshal(set); err != nil {
		return nil, err
	}
	ng, err := newGame(set, m.Seed)
	if err != nil {
		return nil, err
	}
	meta, err := m.Encode()
	if err != nil {
		return nil, err
	}
	info, owner, err := s.h.Create(ctx, hs, meta, ng)
	if err != nil {
		return nil, err
	}
	return &pb.CreateTableResponse{Table: TableToPB(info), OwnerToken: owner}, nil
}

// TableToPB describes a table; the seed is left out.
func TableToPB(in host.Info) *pb.Table {
	m, _ := ruleset.DecodeMeta(in.Meta) // written by create
	set, err := settings(m)
	if err != nil {
		set = &pb.TableSettings{}
	}
	set.Seed = nil
	st := in.Settings
	set.TurnTime = durationpb.New(st.TurnTime)
	set.SpectatorDelay = durationpb.New(st.SpectatorDelay)
	set.DisconnectGrace = durationpb.New(st.DisconnectGrace)
	set.RoundPause = durationpb.New(st.RoundPause)
	out := &pb.Table{
		TableId: in.ID, Settings: set, State: mpb.TableState(in.State), LastSeq: in.LastSeq,
		CreateTime: timestamppb.New(in.Created), Seeded: m.Seeded, SeedCommitment: m.Commitment[:],
	}
	for i, st := range in.Seats {
		out.Seats = append(out.Seats, &mpb.SeatInfo{Seat: uint32(i), Taken: st.Taken, Name: st.Name, Bot: st.Bot, Connected: st.Connected})
	}
	return out
}

func (s *Service) ListTables(ctx context.Context, req *pb.ListTablesRequest) (*pb.ListTablesResponse, error) {
	q, page, err := server.ParseList(req.GetPageSize(), req.GetPageToken(), req.GetOrder(), req.GetStates())
	if err != nil {
		return nil, server.ToStatus(err)
	}
	infos, more := s.h.List(q)
	out := &pb.ListTablesResponse{Tables: make([]*pb.Table, len(infos)), NextPageToken: page(infos, more)}
	for i, in := range infos {
		out.Tables[i] = TableToPB(in)
	}
	if c := s.cfg.Cluster; c != nil && !c.Forwarded(ctx) {
		out.Tables, out.NextPageToken = server.ClusterPage(ctx, c, s.cfg.Hosting.Log, q, page, out.Tables, more,
			func(tb *pb.Table) host.ListKey {
				return host.ListKey{Created: tb.GetCreateTime().AsTime(), ID: tb.GetTableId()}
			},
			func(ctx context.Context, cc grpc.ClientConnInterface) ([]*pb.Table, bool, error) {
				r, err := pb.NewDoudizhuServiceClient(cc).ListTables(ctx, req)
				return r.GetTables(), r.GetNextPageToken() != "", err
			})
	}
	return out, nil
}

func (s *Service) GetTable(ctx context.Context, req *pb.GetTableRequest) (*pb.GetTableResponse, error) {
	if err := server.CheckID("table_id", req.GetTableId()); err != nil {
		return nil, server.ToStatus(err)
	}
	in, err := s.h.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, server.ToStatus(err)
	}
	return &pb.GetTableResponse{Table: TableToPB(in)}, nil
}

func (s *Service) JoinTable(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	r, err := s.join(ctx, req)
	return r, server.ToStatus(err)
}

func (s *Service) join(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	id := req.GetTableId()
	if err := server.CheckID("table_id", id); err != nil {
		return nil, err
	}
	if err := server.CheckName(req.GetName()); err != nil {
		return nil, err
	}
	if len(req.GetEntropy()) > server.MaxEntropy {
		return nil, server.FieldError("entropy", fmt.Errorf("%d bytes, at most %d: %w", len(req.GetEntropy()), server.MaxEntropy, ruleset.ErrMalformed))
	}
	seat, token, err := s.h.Join(ctx, id, req.GetName(), req.GetEntropy())
	if err != nil {
		return nil, err
	}
	in, err := s.h.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return &pb.JoinTableResponse{Seat: uint32(seat), SeatToken: token, Table: TableToPB(in)}, nil
}

func (s *Service) LeaveTable(ctx context.Context, req *pb.LeaveTableRequest) (*pb.LeaveTableResponse, error) {
	if err := checkTable(req.GetTableId(), "seat_token", req.GetSeatToken()); err != nil {
		return nil, server.ToStatus(err)
	}
	if err := s.h.Leave(ctx, req.GetTableId(), req.GetSeatToken()); err != nil {
		return nil, server.ToStatus(err)
	}
	return &pb.LeaveTableResponse{}, nil
}

func checkTable(id, field, token string) error {
	if err := server.CheckID("table_id", id); err != nil {
		return err
	}
	return server.CheckToken(field, token)
}

func (s *Service) StartTable(ctx context.Context, req *pb.StartTableRequest) (*pb.StartTableResponse, error) {
	if err := checkTable(req.GetTableId(), "token", req.GetToken()); err != nil {
		return nil, server.ToStatus(err)
	}
	if err := s.h.Start(ctx, req.GetTableId(), req.GetToken()); err != nil {
		return nil, server.ToStatus(err)
	}
	in, err := s.h.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, server.ToStatus(err)
	}
	return &pb.StartTableResponse{Table: TableToPB(in)}, nil
}

func (s *Service) StreamEvents(req *pb.StreamEventsRequest, stream pb.DoudizhuService_StreamEventsServer) error {
	id := req.GetTableId()
	if err := checkTable(id, "seat_token", req.GetSeatToken()); err != nil {
		return server.ToStatus(err)
	}
	err := s.h.Follow(stream.Context(), id, req.GetSeatToken(), req.GetAfterSeq(), func(it host.Item[hosting.View, table.Body]) error {
		var resp pb.StreamEventsResponse
		if sn := it.Snapshot; sn != nil {
			v := &sn.View
			var o *table.Offer
			if v.HasOffer {
				o = &v.Offer
			}
			resp.Item = &pb.StreamEventsResponse_Snapshot{Snapshot: &pb.Snapshot{Seq: sn.Seq, View: wire.ViewToPB(&v.View, o), TimeLeft: ruleset.TimeLeft(sn.Left)}}
		} else {
			if it.Wire != nil {
				return stream.SendMsg(encoded.Numbered(newStreamEventsResponse, streamEventField, it.Event.Seq, it.Wire))
			}
			e, err := eventToPB(it.Event)
			if err != nil {
				return err
			}
			resp.Item = &pb.StreamEventsResponse_Event{Event: e}
		}
		return stream.Send(&resp)
	})
	return server.ToStatus(err)
}

// The messages that carry an event to a viewer and the number of the
// field that holds it: each viewer's seq is spliced in front of the
// encoding of the rest of the event, made once for all its viewers
// (package encoded, as the mahjong rule sets do).
var (
	streamEventField   = (&pb.StreamEventsResponse{}).ProtoReflect().Descriptor().Fields().ByName("event").Number()
	spectateEventField = (&pb.SpectateResponse{}).ProtoReflect().Descriptor().Fields().ByName("event").Number()
)

func newStreamEventsResponse() proto.Message { return &pb.StreamEventsResponse{} }
func newSpectateResponse() proto.Message     { return &pb.SpectateResponse{} }

func eventToPB(e *host.Event[table.Body]) (*pb.Event, error) {
	if n := e.Notice; n != nil {
		return &pb.Event{Seq: e.Seq, Time: timestamppb.New(e.At), Body: &pb.Event_SeatNotice{SeatNotice: ruleset.NoticeToPB(n)}}, nil
	}
	return wire.EventToPB(e.Seq, e.At, e.Body)
}

func (s *Service) Act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	r, err := s.act(ctx, req)
	return r, server.ToStatus(err)
}

func (s *Service) act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	id := req.GetTableId()
	if err := checkTable(id, "seat_token", req.GetSeatToken()); err != nil {
		return nil, err
	}
	if err := server.CheckID("request_id", req.GetRequestId()); err != nil {
		return nil, err
	}
	// The action is checked whole before the table is asked anything.
	if _, err := actionFromPB(req.GetAction(), 0); err != nil {
		return nil, err
	}
	seat, err := s.h.Seat(ctx, id, req.GetSeatToken())
	if err != nil {
		return nil, err
	}
	a, err := actionFromPB(req.GetAction(), table.Seat(seat))
	if err != nil {
		return nil, err
	}
	seq, err := s.h.Act(ctx, id, host.Request[table.Action]{Token: req.GetSeatToken(), LastSeq: req.GetLastSeq(), RequestID: req.GetRequestId(), Action: a})
	if err != nil {
		return nil, err
	}
	return &pb.ActResponse{Seq: seq}, nil
}

func actionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	out, err := wire.ActionFromPB(a, seat)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ruleset.ErrMalformed, err)
	}
	return out, nil
}

func (s *Service) Spectate(req *pb.SpectateRequest, stream pb.DoudizhuService_SpectateServer) error {
	id := req.GetTableId()
	if err := server.CheckID("table_id", id); err != nil {
		return server.ToStatus(err)
	}
	err := s.h.WatchEncoded(stream.Context(), id, req.GetAfterSeq(), func(e *host.Event[table.Body], wire []byte) error {
		if wire != nil {
			return stream.SendMsg(encoded.Numbered(newSpectateResponse, spectateEventField, e.Seq, wire))
		}
		ev, err := eventToPB(e)
		if err != nil {
			return err
		}
		return stream.Send(&pb.SpectateResponse{Event: ev})
	})
	return server.ToStatus(err)
}

func (s *Service) ExportGame(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	r, err := s.export(ctx, req)
	return r, server.ToStatus(err)
}

func (s *Service) export(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	id := req.GetTableId()
	if err := server.CheckID("table_id", id); err != nil {
		return nil, err
	}
	in, err := s.h.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	var names [3]string
	for i := range min(len(in.Seats), len(names)) {
		names[i] = in.Seats[i].Name
	}
	// The record is taken in a call into the table, written outside it.
	var rec record.Record
	err = s.h.Inspect(ctx, id, func(g host.Game[table.Action, hosting.View, table.Body]) error {
		hg, ok := g.(*hosting.Game)
		if !ok {
			return fmt.Errorf("table %s keeps no record", id)
		}
		var err error
		rec, err = hg.Record(names)
		return err
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	// One line, as records are kept and checked (tablectl verify).
	if err := json.NewEncoder(&buf).Encode(&rec); err != nil {
		return nil, err
	}
	return &pb.ExportGameResponse{Record: buf.String(), Partial: !rec.Over, Deals: uint32(len(rec.Deals))}, nil
}
