package server

import (
	"context"
	"encoding/json"
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
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wire"
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

var presets = map[pb.RulePreset]table.Rules{
	pb.RulePreset_RULE_PRESET_UNSPECIFIED:    table.TenhouHanchan,
	pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN: table.TenhouHanchan,
	pb.RulePreset_RULE_PRESET_TENHOU_TONPUU:  table.TenhouTonpuu,
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
	set := req.GetSettings()
	if set == nil {
		set = &pb.TableSettings{}
	}
	if _, ok := presets[set.GetRules()]; !ok {
		return nil, fieldError("settings.rules", fmt.Errorf("%v: %w", set.GetRules(), ErrMalformed))
	}
	d := t.s.cfg.Defaults
	hs := host.Settings{Seats: table.NumSeats, FillWithBots: set.GetFillWithBots()}
	var err error
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
	m := tableMeta{Seeded: len(set.GetSeed()) > 0}
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
	// The settings as given, without the seed, and the commitment to the
	// seed are the table's description; the seed never leaves the server
	// before the game is over.
	m.Commitment = fair.SeedCommitment(m.Seed)
	given := proto.Clone(set).(*pb.TableSettings)
	given.Seed = nil
	if m.Settings, err = proto.Marshal(given); err != nil {
		return nil, err
	}
	newGame, err := t.s.gameFor(m)
	if err != nil {
		return nil, err
	}
	meta, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	info, owner, err := t.s.host.Create(ctx, hs, meta, newGame)
	if err != nil {
		return nil, err
	}
	return &pb.CreateTableResponse{Table: tableToPB(info), OwnerToken: owner}, nil
}

// tableMeta is what the server keeps of a table beside the host's record,
// stored with it: enough to make its game again after a restart.
type tableMeta struct {
	Settings   []byte   `json:"settings"`   // pb.TableSettings as the creator sent them, without the seed
	Seed       [32]byte `json:"seed"`       // the server seed, chosen or drawn; secret until the game is over
	Seeded     bool     `json:"seeded"`     // the creator chose the seed
	Commitment [32]byte `json:"commitment"` // fair.SeedCommitment of Seed, published
}

func decodeMeta(b []byte) (tableMeta, error) {
	var m tableMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("table meta: %w", err)
	}
	return m, nil
}

// gameFor makes the games of a table: the engine for its rule preset, and
// walls from its seed.
func (s *Server) gameFor(m tableMeta) (host.NewGame[table.Action, table.View, table.Body], error) {
	set := &pb.TableSettings{}
	if err := proto.Unmarshal(m.Settings, set); err != nil {
		return nil, fmt.Errorf("table settings: %w", err)
	}
	rules, ok := presets[set.GetRules()]
	if !ok {
		return nil, fieldError("settings.rules", fmt.Errorf("%v: %w", set.GetRules(), ErrMalformed))
	}
	newEngine, restore, newWall, seed, obs := s.cfg.NewEngine, s.cfg.RestoreEngine, s.cfg.NewWall, m.Seed, s.cfg.Observer
	return func() (Game, error) {
		eng, err := newEngine(table.Config{Rules: rules})
		if err != nil {
			return nil, err
		}
		g := makeGame(eng, restore, newWall, rules, seed)
		g.obs = obs
		return g, nil
	}, nil
}

// rulesName names the rule preset of a table's meta, for metrics.
func rulesName(meta []byte) string {
	set := &pb.TableSettings{}
	m, err := decodeMeta(meta)
	if err == nil {
		err = proto.Unmarshal(m.Settings, set)
	}
	r := set.GetRules()
	switch {
	case err != nil:
		return "invalid"
	case r == pb.RulePreset_RULE_PRESET_UNSPECIFIED:
		r = pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN
	}
	return strings.ToLower(strings.TrimPrefix(r.String(), "RULE_PRESET_"))
}

// tableToPB describes a table; the seed is left out.
func tableToPB(in host.Info) *pb.Table {
	set := &pb.TableSettings{}
	m, _ := decodeMeta(in.Meta) // written by create; cannot fail
	_ = proto.Unmarshal(m.Settings, set)
	seeded := m.Seeded
	set.Seed = nil
	s := in.Settings
	set.TurnTime = durationpb.New(s.TurnTime)
	set.ClaimTime = durationpb.New(s.ClaimTime)
	set.SpectatorDelay = durationpb.New(s.SpectatorDelay)
	set.DisconnectGrace = durationpb.New(s.DisconnectGrace)
	set.RoundPause = durationpb.New(s.RoundPause)
	set.ClaimDwell = durationpb.New(s.ClaimDwell)
	if set.Rules == pb.RulePreset_RULE_PRESET_UNSPECIFIED {
		set.Rules = pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN
	}
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
		out.Seats = append(out.Seats, &pb.SeatInfo{Seat: uint32(i), Taken: st.Taken, Name: st.Name, Bot: st.Bot, Connected: st.Connected})
	}
	return out
}

func (t *tableService) GetTable(ctx context.Context, req *pb.GetTableRequest) (*pb.GetTableResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, toStatus(err)
	}
	in, err := t.s.host.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.GetTableResponse{Table: tableToPB(in)}, nil
}

func (t *tableService) JoinTable(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	r, err := t.join(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) join(ctx context.Context, req *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, err
	}
	if err := checkName(req.GetName()); err != nil {
		return nil, err
	}
	if len(req.GetEntropy()) > maxEntropy {
		return nil, fieldError("entropy", fmt.Errorf("%d bytes, at most %d: %w", len(req.GetEntropy()), maxEntropy, ErrMalformed))
	}
	seat, token, err := t.s.host.Join(ctx, req.GetTableId(), req.GetName(), req.GetEntropy())
	if err != nil {
		return nil, err
	}
	in, err := t.s.host.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, err
	}
	t.s.cfg.Log.Info("joined", zap.String("table", in.ID), zap.Int("seat", seat))
	return &pb.JoinTableResponse{Seat: uint32(seat), SeatToken: token, Table: tableToPB(in)}, nil
}

func (t *tableService) LeaveTable(ctx context.Context, req *pb.LeaveTableRequest) (*pb.LeaveTableResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, toStatus(err)
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return nil, toStatus(err)
	}
	if err := t.s.host.Leave(ctx, req.GetTableId(), req.GetSeatToken()); err != nil {
		return nil, toStatus(err)
	}
	return &pb.LeaveTableResponse{}, nil
}

func (t *tableService) StartTable(ctx context.Context, req *pb.StartTableRequest) (*pb.StartTableResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, toStatus(err)
	}
	if err := checkToken("token", req.GetToken()); err != nil {
		return nil, toStatus(err)
	}
	if err := t.s.host.Start(ctx, req.GetTableId(), req.GetToken()); err != nil {
		return nil, toStatus(err)
	}
	in, err := t.s.host.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.StartTableResponse{Table: tableToPB(in)}, nil
}

func (t *tableService) StreamEvents(req *pb.StreamEventsRequest, stream pb.TableService_StreamEventsServer) error {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return toStatus(err)
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return toStatus(err)
	}
	err := t.s.host.Follow(stream.Context(), req.GetTableId(), req.GetSeatToken(), req.GetAfterSeq(),
		func(it host.Item[table.View, table.Body]) error {
			var resp pb.StreamEventsResponse
			if it.Snapshot != nil {
				resp.Item = &pb.StreamEventsResponse_Snapshot{Snapshot: &pb.Snapshot{Seq: it.Snapshot.Seq, View: wire.ViewToPB(it.Snapshot.View)}}
			} else {
				e, err := eventToPB(it.Event)
				if err != nil {
					return err
				}
				resp.Item = &pb.StreamEventsResponse_Event{Event: e}
			}
			return stream.Send(&resp)
		})
	return toStatus(err)
}

func (t *tableService) Act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	r, err := t.act(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) act(ctx context.Context, req *pb.ActRequest) (*pb.ActResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, err
	}
	if err := checkID("request_id", req.GetRequestId()); err != nil {
		return nil, err
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return nil, err
	}
	// Check the action whole before asking the table anything.
	if _, err := actionFromPB(req.GetAction(), 0); err != nil {
		return nil, err
	}
	seat, err := t.s.host.Seat(ctx, req.GetTableId(), req.GetSeatToken())
	if err != nil {
		return nil, err
	}
	a, err := actionFromPB(req.GetAction(), table.Seat(seat))
	if err != nil {
		return nil, err
	}
	seq, err := t.s.host.Act(ctx, req.GetTableId(), host.Request[table.Action]{
		Token: req.GetSeatToken(), LastSeq: req.GetLastSeq(), RequestID: req.GetRequestId(), Action: a,
	})
	if err != nil {
		return nil, err
	}
	return &pb.ActResponse{Seq: seq}, nil
}

func (t *tableService) Spectate(req *pb.SpectateRequest, stream pb.TableService_SpectateServer) error {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return toStatus(err)
	}
	err := t.s.host.Watch(stream.Context(), req.GetTableId(), req.GetAfterSeq(), func(e *host.Event[table.Body]) error {
		ev, err := eventToPB(e)
		if err != nil {
			return err
		}
		return stream.Send(&pb.SpectateResponse{Event: ev})
	})
	return toStatus(err)
}
