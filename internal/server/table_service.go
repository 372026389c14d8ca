package server

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Request limits: everything a client sends is bounded before it touches a
// table.
const (
	maxIDLen      = 64 // table ids, request ids
	maxNameLen    = 64
	maxTokenLen   = 128
	maxEntropy    = 64
	maxTimer      = 10 * time.Minute
	maxRoundPause = time.Minute
)

type tableService struct {
	pb.UnimplementedTableServiceServer
	s *Server
}

// duration reads an optional duration, bounded by max; zero takes def.
func duration(field string, d *durationpb.Duration, def, max time.Duration) (time.Duration, error) {
	if d == nil {
		return def, nil
	}
	if err := d.CheckValid(); err != nil {
		return 0, fieldError(field, fmt.Errorf("%v: %w", err, ErrMalformed))
	}
	v := d.AsDuration()
	switch {
	case v < 0 || v > max:
		return 0, fieldError(field, fmt.Errorf("%v not in [0, %v]: %w", v, max, ErrMalformed))
	case v == 0:
		return def, nil
	}
	return v, nil
}

func checkID(field, id string) error {
	if id == "" || len(id) > maxIDLen {
		return fieldError(field, fmt.Errorf("want 1 to %d bytes, have %d: %w", maxIDLen, len(id), ErrMalformed))
	}
	return nil
}

// checkName bounds a player's name and keeps it printable: every client
// shows it to the other players, and tablectl prints it to a terminal,
// where control characters (escape sequences, newlines, bidi overrides)
// would rewrite what they see.
func checkName(name string) error {
	if len(name) > maxNameLen {
		return fieldError("name", fmt.Errorf("%d bytes, at most %d: %w", len(name), maxNameLen, ErrMalformed))
	}
	if !utf8.ValidString(name) {
		return fieldError("name", fmt.Errorf("not UTF-8: %w", ErrMalformed))
	}
	if i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return fieldError("name", fmt.Errorf("unprintable %U at byte %d: %w", r, i, ErrMalformed))
	}
	return nil
}

func checkToken(field, tok string) error {
	if len(tok) > maxTokenLen {
		return fieldError(field, fmt.Errorf("%d bytes: %w", len(tok), ErrMalformed))
	}
	return nil
}

func (t *tableService) CreateTable(ctx context.Context, req *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	r, err := t.create(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) create(ctx context.Context, req *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	return t.createWith(ctx, req, nil)
}

// createWith creates a table with the seats resv reserves (resv may be nil),
// counted against the API key's limit of the room service that asks.
func (t *tableService) createWith(ctx context.Context, req *pb.CreateTableRequest, resv func(id string) []host.Reservation) (*pb.CreateTableResponse, error) {
	set := &pb.TableSettings{}
	if req.GetSettings() != nil {
		set = proto.Clone(req.GetSettings()).(*pb.TableSettings)
	}
	if _, ok := pb.RuleSet_name[int32(set.GetRuleSet())]; !ok {
		return nil, fieldError("settings.rule_set", fmt.Errorf("%v: %w", set.GetRuleSet(), ErrUnknownRuleSet))
	}
	rs, err := t.s.ruleSet(set.GetRuleSet())
	if err != nil {
		return nil, err
	}
	if err := rs.rs.Check(set); err != nil {
		return nil, err
	}
	d := t.s.cfg.Defaults
	hs := host.Settings{FillWithBots: set.GetFillWithBots()}
	for _, f := range []struct {
		name     string
		in       *durationpb.Duration
		out      *time.Duration
		def, max time.Duration
	}{
		{"settings.turn_time", set.GetTurnTime(), &hs.TurnTime, d.TurnTime, maxTimer},
		{"settings.claim_time", set.GetClaimTime(), &hs.ClaimTime, d.ClaimTime, maxTimer},
		{"settings.spectator_delay", set.GetSpectatorDelay(), &hs.SpectatorDelay, d.SpectatorDelay, maxTimer},
		{"settings.disconnect_grace", set.GetDisconnectGrace(), &hs.DisconnectGrace, d.DisconnectGrace, maxTimer},
		{"settings.round_pause", set.GetRoundPause(), &hs.RoundPause, d.RoundPause, maxRoundPause},
	} {
		if *f.out, err = duration(f.name, f.in, f.def, f.max); err != nil {
			return nil, err
		}
	}
	// Unset, the claim dwell takes the default; an explicit zero is kept
	// (bot load tests switch it off).
	hs.ClaimDwell = d.ClaimDwell
	if cd := set.GetClaimDwell(); cd != nil {
		if hs.ClaimDwell, err = duration("settings.claim_dwell", cd, 0, maxTimer); err != nil {
			return nil, err
		}
	}
	m := ruleset.Meta{Seeded: len(set.GetSeed()) > 0}
	switch len(set.GetSeed()) {
	case 0:
		if m.Seed, err = randomSeed(); err != nil {
			return nil, err
		}
	case 32:
		copy(m.Seed[:], set.GetSeed())
	default:
		return nil, fieldError("settings.seed", fmt.Errorf("want 32 bytes, have %d: %w", len(set.GetSeed()), ErrMalformed))
	}
	// The settings as checked (the rule set, its preset and options
	// complete), without the seed, and the commitment to the seed are
	// the table's description; the seed never leaves the server before
	// the game is over.
	m.Commitment = fair.SeedCommitment(m.Seed)
	set.Seed = nil
	if m.Settings, err = proto.Marshal(set); err != nil {
		return nil, err
	}
	creator, done, err := t.s.takeTable(ctx)
	if err != nil {
		return nil, err
	}
	m.Creator = creator
	info, owner, err := rs.tables.CreateReserved(ctx, hs, m, resv)
	done(info.ID, err)
	if err != nil {
		return nil, err
	}
	return &pb.CreateTableResponse{Table: t.s.tableToPB(info), OwnerToken: owner}, nil
}

// tableToPB describes a table; the seed is left out. The settings are
// those stored, completed by the table's rule set (a table stored before
// rule sets is riichi with its preset).
func (s *Server) tableToPB(in host.Info) *pb.Table {
	m, _ := ruleset.DecodeMeta(in.Meta) // written by create; cannot fail
	set, err := m.TableSettings()
	if err != nil {
		set = &pb.TableSettings{}
	}
	if rs, err := s.ruleSet(set.GetRuleSet()); err == nil {
		_ = rs.rs.Check(set) // checked at creation: completes a table stored before rule sets
	}
	seeded := m.Seeded
	set.Seed = nil
	st := in.Settings
	set.TurnTime = durationpb.New(st.TurnTime)
	set.ClaimTime = durationpb.New(st.ClaimTime)
	set.SpectatorDelay = durationpb.New(st.SpectatorDelay)
	set.DisconnectGrace = durationpb.New(st.DisconnectGrace)
	set.RoundPause = durationpb.New(st.RoundPause)
	set.ClaimDwell = durationpb.New(st.ClaimDwell)
	out := &pb.Table{
		TableId:        in.ID,
		Settings:       set,
		State:          pb.TableState(in.State),
		LastSeq:        in.LastSeq,
		CreateTime:     timestamppb.New(in.Created),
		Seeded:         seeded,
		SeedCommitment: m.Commitment[:],
	}
	for i, st := range in.Seats {
		out.Seats = append(out.Seats, &pb.SeatInfo{Seat: uint32(i), Taken: st.Taken, Name: st.Name, Bot: st.Bot, Connected: st.Connected,
			PlayerId: st.PlayerID, Reserved: st.Reserved})
	}
	return out
}

// get describes table id.
func (s *Server) get(ctx context.Context, id string) (*pb.Table, error) {
	in, err := route(s, id, func(t ruleset.Tables) (host.Info, error) { return t.Get(ctx, id) })
	if err != nil {
		return nil, err
	}
	return s.tableToPB(in), nil
}

func (t *tableService) GetTable(ctx context.Context, req *pb.GetTableRequest) (*pb.GetTableResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, toStatus(err)
	}
	tb, err := t.s.get(ctx, req.GetTableId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.GetTableResponse{Table: tb}, nil
}

func (t *tableService) JoinTable(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	r, err := t.join(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) join(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, err
	}
	if err := checkName(req.GetName()); err != nil {
		return nil, err
	}
	if len(req.GetEntropy()) > maxEntropy {
		return nil, fieldError("entropy", fmt.Errorf("%d bytes, at most %d: %w", len(req.GetEntropy()), maxEntropy, ErrMalformed))
	}
	type joined struct {
		seat  int
		token string
		in    host.Info
	}
	var pass *host.Pass
	if tk := req.GetTicket(); tk != "" {
		p, err := t.s.pass(id, tk)
		if err != nil {
			return nil, err
		}
		pass = &p
	}
	j, err := route(t.s, id, func(tb ruleset.Tables) (joined, error) {
		var seat int
		var token string
		var err error
		if pass != nil {
			seat = pass.Seat
			token, err = tb.JoinPass(ctx, id, *pass, req.GetEntropy())
		} else {
			seat, token, err = tb.Join(ctx, id, req.GetName(), req.GetEntropy())
		}
		if err != nil {
			return joined{}, err
		}
		in, err := tb.Get(ctx, id)
		return joined{seat, token, in}, err
	})
	if err != nil {
		return nil, err
	}
	t.s.cfg.Log.Info("joined", zap.String("table", id), zap.Int("seat", j.seat))
	return &pb.JoinTableResponse{Seat: uint32(j.seat), SeatToken: j.token, Table: t.s.tableToPB(j.in)}, nil
}

func (t *tableService) LeaveTable(ctx context.Context, req *pb.LeaveTableRequest) (*pb.LeaveTableResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, toStatus(err)
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return nil, toStatus(err)
	}
	_, err := route(t.s, id, func(tb ruleset.Tables) (struct{}, error) {
		return struct{}{}, tb.Leave(ctx, id, req.GetSeatToken())
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.LeaveTableResponse{}, nil
}

func (t *tableService) StartTable(ctx context.Context, req *pb.StartTableRequest) (*pb.StartTableResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, toStatus(err)
	}
	if err := checkToken("token", req.GetToken()); err != nil {
		return nil, toStatus(err)
	}
	in, err := route(t.s, id, func(tb ruleset.Tables) (host.Info, error) {
		if err := tb.Start(ctx, id, req.GetToken()); err != nil {
			return host.Info{}, err
		}
		return tb.Get(ctx, id)
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.StartTableResponse{Table: t.s.tableToPB(in)}, nil
}

func (t *tableService) StreamEvents(req *pb.StreamEventsRequest, stream pb.TableService_StreamEventsServer) error {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return toStatus(err)
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return toStatus(err)
	}
	_, err := route(t.s, id, func(tb ruleset.Tables) (struct{}, error) {
		// SendMsg, not Send: an event comes encoded (package encoded).
		return struct{}{}, tb.Follow(stream.Context(), id, req.GetSeatToken(), req.GetAfterSeq(), func(m proto.Message) error { return stream.SendMsg(m) })
	})
	return toStatus(err)
}

func (t *tableService) Act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	r, err := t.act(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	seq, err := t.actSeq(ctx, req)
	if err != nil {
		return nil, err
	}
	return &pb.ActResponse{Seq: seq}, nil
}

// actSeq is act's work, with the seat's newest seq for the response: a
// Multiplex answer is written from the seq alone, with no ActResponse.
func (t *tableService) actSeq(ctx context.Context, req *pb.ActRequest) (uint64, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return 0, err
	}
	if err := checkID("request_id", req.GetRequestId()); err != nil {
		return 0, err
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return 0, err
	}
	r := ruleset.ActRequest{Token: req.GetSeatToken(), RequestID: req.GetRequestId(), LastSeq: req.GetLastSeq(), Action: req.GetAction()}
	return route(t.s, id, func(tb ruleset.Tables) (uint64, error) { return tb.Act(ctx, id, r) })
}

func (t *tableService) Spectate(req *pb.SpectateRequest, stream pb.TableService_SpectateServer) error {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return toStatus(err)
	}
	_, err := route(t.s, id, func(tb ruleset.Tables) (struct{}, error) {
		return struct{}{}, tb.Watch(stream.Context(), id, req.GetAfterSeq(), func(m proto.Message) error { return stream.SendMsg(m) })
	})
	return toStatus(err)
}

func (t *tableService) ExportGame(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	r, err := t.export(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) export(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, err
	}
	format := req.GetFormat()
	if format == pb.RecordFormat_RECORD_FORMAT_UNSPECIFIED {
		format = pb.RecordFormat_RECORD_FORMAT_NATIVE
	}
	if _, ok := pb.RecordFormat_name[int32(format)]; !ok {
		return nil, fieldError("format", fmt.Errorf("%v: %w", format, ErrMalformed))
	}
	return route(t.s, id, func(tb ruleset.Tables) (*pb.ExportGameResponse, error) { return tb.Export(ctx, id, format) })
}
