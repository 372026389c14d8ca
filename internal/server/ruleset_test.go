package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
)

// standIn is a second rule set for the server's side of the seam: Sichuan
// tables, their settings checked and stored as Sichuan's, played by
// riichi's fake engine (the Sichuan engine is not in yet). The server
// knows no game, so what it does with these tables - route them, list
// them with the others, count them, recover them - is what it does for
// any rule set.
type standIn struct {
	rc    rc
	store host.Store[table.Action]
}

func (standIn) ID() pb.RuleSet                    { return pb.RuleSet_RULE_SET_SICHUAN }
func (standIn) Check(set *pb.TableSettings) error { return sichuan.Check(set) }

func (s standIn) Open(hs ruleset.Hosting) (ruleset.Tables, error) {
	p := standInParts{riichi.New(s.rc).Parts()}
	return ruleset.NewHosted("sichuan", p, hs, host.Config[table.Action, table.View, table.Body]{Store: s.store, Codec: riichi.Codec{}}), nil
}

// standInParts play a Sichuan table as riichi tonpuu.
type standInParts struct {
	ruleset.Parts[table.Action, table.View, table.Body]
}

func (p standInParts) Game(m ruleset.Meta) (host.NewGame[table.Action, table.View, table.Body], error) {
	set, err := m.TableSettings()
	if err != nil {
		return nil, err
	}
	if _, err := sichuan.FromPB(set.GetSichuan()); err != nil {
		return nil, err
	}
	set = &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}
	if m.Settings, err = proto.Marshal(set); err != nil {
		return nil, err
	}
	return p.Parts.Game(m)
}

// twoRuleSets is a server of riichi and the Sichuan stand-in, both on
// the fake engine, each with a memory store of its own.
func twoRuleSets(riichiStore, sichuanStore host.Store[table.Action]) server.Config {
	r := rc{NewEngine: newFake(2, 8), NewWall: fakeWall, Store: riichiStore}
	return server.Config{RuleSets: []ruleset.RuleSet{riichi.New(r), standIn{rc: r, store: sichuanStore}}}
}

// TestRuleSetSettings checks the settings a table is created with: the
// rule set and its options are completed and reported, and what is not a
// hosted rule set or its own preset or option is refused with its reason.
func TestRuleSetSettings(t *testing.T) {
	riichiOnly := startEnv(t, baseConfig())
	both, stop := startStoppableEnv(t, config{Config: twoRuleSets(nil, nil)})
	t.Cleanup(stop)
	riichiFull := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_RIICHI, Rules: pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN, Options: &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}}
	tonpuu := proto.Clone(riichiFull).(*pb.TableSettings)
	tonpuu.Rules = pb.RulePreset_RULE_PRESET_TENHOU_TONPUU
	sc := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN}
	scFull := proto.Clone(sc).(*pb.TableSettings)
	if err := sichuan.Check(scFull); err != nil {
		t.Fatal(err)
	}
	scCap5 := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 5, BloodyRiver: proto.Bool(true)}}}
	scCap5Full := proto.Clone(scCap5).(*pb.TableSettings)
	if err := sichuan.Check(scCap5Full); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		e      *env
		in     *pb.TableSettings
		want   *pb.TableSettings // the rule set's part of the reported settings
		reason pb.ErrorReason    // INVALID_ARGUMENT with this reason, if set
	}{
		{"nothing set is riichi", riichiOnly, nil, riichiFull, 0},
		{"an old client's preset", riichiOnly, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}, tonpuu, 0},
		{"riichi named", both, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_RIICHI}, riichiFull, 0},
		{"sichuan defaults", both, sc, scFull, 0},
		{"sichuan options", both, scCap5, scCap5Full, 0},
		{"sichuan not hosted", riichiOnly, sc, nil, pb.ErrorReason_ERROR_REASON_UNKNOWN_RULE_SET},
		{"undefined rule set", both, &pb.TableSettings{RuleSet: 42}, nil, pb.ErrorReason_ERROR_REASON_UNKNOWN_RULE_SET},
		{"sichuan options on riichi", both, &pb.TableSettings{Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}}, nil, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"sichuan preset on riichi", both, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE}, nil, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"riichi preset on sichuan", both, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}, nil, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"riichi options on sichuan", both, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Riichi{}}, nil, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"fan cap 6", both, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 6}}}, nil, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"undefined preset", riichiOnly, &pb.TableSettings{Rules: 42}, nil, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: tc.in})
			if tc.reason != 0 {
				wantStatus(t, "CreateTable", err, codes.InvalidArgument, tc.reason)
				return
			}
			if err != nil {
				t.Fatalf("CreateTable: %v", err)
			}
			for _, got := range []*pb.Table{r.GetTable(), tc.e.table(t, r.GetTable().GetTableId())} {
				part := &pb.TableSettings{RuleSet: got.GetSettings().GetRuleSet(), Rules: got.GetSettings().GetRules()}
				switch o := got.GetSettings().GetOptions().(type) {
				case *pb.TableSettings_Riichi:
					part.Options = o
				case *pb.TableSettings_Sichuan:
					part.Options = o
				}
				if !proto.Equal(part, tc.want) {
					t.Fatalf("table reports %v, want %v", part, tc.want)
				}
			}
		})
	}
}

// TestTwoRuleSets hosts riichi and Sichuan tables on one server: each
// table is played, listed, counted and stored with its own rule set, and
// comes back after a restart.
func TestTwoRuleSets(t *testing.T) {
	rStore, sStore := host.NewMemoryStore[table.Action](), host.NewMemoryStore[table.Action]()
	cfg := twoRuleSets(rStore, sStore)
	cfg.MaxTables = 3
	e, stop := startStoppableEnv(t, config{Config: cfg})
	sc := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Seed: make([]byte, 32), Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: 2}}}
	r1, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
	s1, _ := e.create(t, sc)
	r2, _ := e.create(t, nil)
	// MaxTables bounds the tables of both rule sets together.
	_, err := e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: sc})
	wantStatus(t, "a fourth table", err, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_TABLES)

	// Each store holds its own rule set's tables, the rule set recorded.
	if got := sStore.Tables(); len(got) != 1 || got[0] != s1 {
		t.Fatalf("sichuan store holds %v, want [%s]", got, s1)
	}
	if got := rStore.Tables(); len(got) != 2 {
		t.Fatalf("riichi store holds %v, want 2 tables", got)
	}
	rec, _, _, err := sStore.LoadTable(context.Background(), s1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ruleset.DecodeMeta(rec.Meta)
	if err != nil {
		t.Fatal(err)
	}
	set, err := m.TableSettings()
	if m.RuleSet != "sichuan" || err != nil || set.GetRuleSet() != pb.RuleSet_RULE_SET_SICHUAN || set.GetSichuan().GetHands() != 2 || set.GetSichuan().GetFanCap() != 3 {
		t.Fatalf("stored meta %s with settings %v (%v): want the sichuan rule set and its options", m.RuleSet, set, err)
	}

	// ListTables merges both hosts' tables, newest first, page by page.
	var ids []string
	tok := ""
	for {
		r, err := e.tables.ListTables(ctxT(t), &pb.ListTablesRequest{PageSize: 1, PageToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range r.GetTables() {
			ids = append(ids, tb.GetTableId())
		}
		if tok = r.GetNextPageToken(); tok == "" {
			break
		}
	}
	if want := []string{r2, s1, r1}; !equalIDs(ids, want) {
		t.Fatalf("listed %v, want %v", ids, want)
	}

	// The Sichuan table plays to its end through the server.
	players := make([]*player, 4)
	for i := range players {
		seat, tok := e.join(t, s1)
		players[i] = &player{e: e, id: s1, seat: seat, token: tok}
	}
	errs := make(chan error, 4)
	for _, p := range players {
		go func() { errs <- p.play(ctxT(t), 0, 0) }()
	}
	for range players {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if st := e.table(t, s1).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("sichuan table %v, want finished", st)
	}
	if _, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: s1}); err != nil {
		t.Fatalf("ExportGame: %v", err)
	}

	// A restart recovers each table into its rule set's host.
	stop()
	e2 := startEnv(t, config{Config: twoRuleSets(rStore, sStore)})
	for _, id := range []string{r1, s1, r2} {
		tb := e2.table(t, id)
		want := pb.RuleSet_RULE_SET_RIICHI
		if id == s1 {
			want = pb.RuleSet_RULE_SET_SICHUAN
		}
		if tb.GetSettings().GetRuleSet() != want {
			t.Errorf("table %s after the restart: %v, want %v", id, tb.GetSettings().GetRuleSet(), want)
		}
	}
	_, err = e2.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: "no-such-table"})
	wantStatus(t, "GetTable of no table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND)
}

func equalIDs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTableStoredBeforeRuleSets recovers a table whose stored description
// predates rule sets (settings with a preset only, no rule set in the
// meta): it is riichi, and is described with the rule set and options
// filled in.
func TestTableStoredBeforeRuleSets(t *testing.T) {
	st := host.NewMemoryStore[table.Action]()
	raw, err := proto.Marshal(&pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU})
	if err != nil {
		t.Fatal(err)
	}
	meta, err := ruleset.Meta{Settings: raw}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(meta), "rule_set") {
		t.Fatalf("meta %s is not of the old form", meta)
	}
	rec := host.TableRecord{ID: "old-table", Settings: host.Settings{Seats: 4}, Meta: meta, Created: time.Now()}
	if err := st.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig()
	cfg.Store = st
	e := startEnv(t, cfg)
	got := e.table(t, "old-table").GetSettings()
	if got.GetRuleSet() != pb.RuleSet_RULE_SET_RIICHI || got.GetRules() != pb.RulePreset_RULE_PRESET_TENHOU_TONPUU || got.GetRiichi() == nil {
		t.Fatalf("old table described as %v", got)
	}
	// It plays as riichi: four seats join and it starts.
	for range 4 {
		e.join(t, "old-table")
	}
	if st := e.table(t, "old-table").GetState(); st != pb.TableState_TABLE_STATE_PLAYING {
		t.Fatalf("old table %v after four joins, want playing", st)
	}
}

// TestNewRefusesRuleSets checks the list of rule sets a server is given:
// at least one, each once.
func TestNewRefusesRuleSets(t *testing.T) {
	r := riichi.New(rc{NewEngine: newFake(1, 4), NewWall: fakeWall})
	for _, sets := range [][]ruleset.RuleSet{nil, {r, r}, {riichi.New(rc{})}} {
		if s, err := server.New(server.Config{RuleSets: sets}); err == nil {
			s.Close()
			t.Errorf("server.New with rule sets %v: no error", sets)
		}
	}
}
