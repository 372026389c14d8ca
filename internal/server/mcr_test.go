package server_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset"
	rsmcr "github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// mcrConfig is a server that hosts riichi and Chinese Official tables
// with the real parts, in memory.
func mcrConfig() config {
	return config{Config: server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard()), rsmcr.New(rsmcr.Config{})}}}
}

// mcrSettings are the settings of an MCR table of the given length.
func mcrSettings(hands uint32, s []byte) *pb.TableSettings {
	return &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Seed: s, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: hands}}}
}

// mcrChoice is what the test's MCR player plays from its options: a win
// when offered, else in its turn the last discard offered, else a pass.
func mcrChoice(opts []*pb.Action) *pb.Action {
	var pick *pb.Action
	for _, o := range opts {
		switch o.GetType() {
		case pb.ActionType_ACTION_TYPE_TSUMO, pb.ActionType_ACTION_TYPE_RON:
			return o
		case pb.ActionType_ACTION_TYPE_DISCARD:
			pick = o
		}
	}
	if pick == nil {
		return &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
	}
	return pick
}

// playMCR plays an MCR seat over gRPC knowing only what it receives, as
// player.play does for riichi, with mcrChoice.
func (p *player) playMCR(ctx context.Context, afterSeq uint64, stopAfter int) error {
	return p.playWith(ctx, afterSeq, stopAfter, func(r *pb.StreamEventsResponse) (*pb.Action, uint64) {
		if s := r.GetSnapshot(); s != nil {
			return nil, s.GetSeq() // a standing offer follows as the next event
		}
		ev := r.GetEvent()
		var act *pb.Action
		if o := ev.GetTurnOffer(); o != nil && o.GetSeat() == p.seat {
			act = mcrChoice(o.GetOptions())
		}
		if o := ev.GetClaimOffer(); o != nil && o.GetSeat() == p.seat {
			act = mcrChoice(o.GetOptions())
		}
		return act, ev.GetSeq()
	})
}

// checkMCRPrivacy adds to checkPrivacy what only MCR tables have: another
// seat's concealed kong is face down, and a snapshot shows no other
// seat's tiles.
func checkMCRPrivacy(t *testing.T, seat uint32, from uint64, snap *pb.Snapshot, evs []*pb.Event) {
	t.Helper()
	checkPrivacy(t, seat, from, snap, evs)
	for _, ev := range evs {
		if c := ev.GetCalled(); c != nil && c.GetSeat() != seat && c.GetMeld().GetType() == pb.MeldType_MELD_TYPE_CLOSED_KAN && c.GetMeld().GetTiles() != "" {
			t.Errorf("seat %d sees seat %d's concealed kong %s", seat, c.GetSeat(), c.GetMeld().GetTiles())
		}
	}
	if v := snap.GetView(); v != nil {
		for o, sv := range v.GetSeats() {
			for _, m := range sv.GetMelds() {
				if uint32(o) != seat && m.GetType() == pb.MeldType_MELD_TYPE_CLOSED_KAN && m.GetTiles() != "" && v.GetPhase() != pb.Phase_PHASE_BETWEEN_ROUNDS {
					t.Errorf("seat %d's snapshot shows seat %d's concealed kong", seat, o)
				}
			}
		}
	}
}

// spectateMCR starts a table and follows it as a spectator to the end of
// its game, checking that nothing private reaches the spectator.
func (e *env) spectateMCR(t *testing.T, id, owner string) []*pb.Event {
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
	if len(evs) == 0 || evs[len(evs)-1].GetMcrGameEnded() == nil {
		t.Fatalf("the spectator's last event is not mcr_game_ended (%d events)", len(evs))
	}
	for _, ev := range evs {
		if ev.GetDealt() != nil || ev.GetClaimOffer() != nil || ev.GetTurnOffer() != nil || ev.GetDrew().GetTile() != "" {
			t.Fatalf("spectator received private event %v", ev)
		}
		if m := ev.GetCalled().GetMeld(); m.GetType() == pb.MeldType_MELD_TYPE_CLOSED_KAN && m.GetTiles() != "" {
			t.Fatalf("spectator sees a concealed kong: %v", ev)
		}
	}
	return evs
}

// exportMCR exports a table's native record and verifies it.
func (e *env) exportMCR(t *testing.T, id string, wantPartial bool) *rmcr.Game {
	t.Helper()
	r, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: pb.RecordFormat_RECORD_FORMAT_NATIVE})
	if err != nil {
		t.Fatalf("ExportGame: %v", err)
	}
	g, err := rmcr.Decode(bytes.TrimSpace([]byte(r.GetRecord())))
	if err != nil {
		t.Fatal(err)
	}
	if g.Partial != wantPartial {
		t.Fatalf("record partial = %v, want %v", g.Partial, wantPartial)
	}
	if g.Partial && (g.ServerSeed != "" || len(g.Entropy) != 0) {
		t.Fatalf("a partial record reveals seeds: %q %v", g.ServerSeed, g.Entropy)
	}
	rep, err := rmcr.Verify(g)
	if err != nil || rep.Err() != nil || !rep.Replayed {
		t.Fatalf("Verify: %+v, %v", rep, err)
	}
	if !g.Partial && !rep.Chain {
		t.Fatalf("the seed chain of a finished game was not checked: %s", rep.ChainMsg)
	}
	return g
}

// TestMCRBotTable runs an MCR table of four bots to the end, follows it as
// a spectator, and verifies its exported record: walls against their
// seeds and commitments, the seed chain and a replay through the engine.
func TestMCRBotTable(t *testing.T) {
	e := startEnv(t, mcrConfig())
	set := mcrSettings(4, seed(3))
	set.FillWithBots = true
	id, owner := e.create(t, set)
	tb := e.table(t, id)
	if tb.GetSettings().GetRuleSet() != pb.RuleSet_RULE_SET_MCR || tb.GetSettings().GetRules() != pb.RulePreset_RULE_PRESET_MCR || tb.GetSettings().GetMcr().GetHands() != 4 {
		t.Fatalf("settings %v", tb.GetSettings())
	}
	evs := e.spectateMCR(t, id, owner)
	flowers, wins, sum := 0, 0, 0
	for _, ev := range evs {
		if ev.GetMcrFlowerSetAside() != nil {
			flowers++
		}
		if w := ev.GetMcrWon(); w != nil {
			wins++
			if len(w.GetFans()) == 0 || w.GetTotal()-w.GetFlowers() < 8 {
				t.Errorf("a win below the minimum: %v", w)
			}
		}
	}
	for _, s := range evs[len(evs)-1].GetMcrGameEnded().GetScores() {
		sum += int(s)
	}
	if flowers == 0 || sum != 0 {
		t.Errorf("%d flowers set aside, scores sum to %d", flowers, sum)
	}
	g := e.exportMCR(t, id, false)
	if len(g.Hands) != 4 {
		t.Errorf("record of %d hands, want 4", len(g.Hands))
	}
	t.Logf("%d public events, %d flowers, %d wins, final %v", len(evs), flowers, wins, evs[len(evs)-1].GetMcrGameEnded().GetScores())
}

// TestMCRFourClientsPrivacy plays MCR hands with four gRPC clients and a
// claim dwell, and checks every event and snapshot each seat received:
// never another seat's concealed tiles, replacement draws or offers.
func TestMCRFourClientsPrivacy(t *testing.T) {
	e := startEnv(t, mcrConfig())
	set := mcrSettings(2, seed(5))
	set.ClaimDwell = durationpb.New(time.Millisecond)
	id, _ := e.create(t, set)
	players := make([]*player, 4)
	var before uint64
	for i := range players {
		if i == 3 {
			before = e.table(t, id).GetLastSeq()
		}
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		wg.Go(func() { errs[i] = p.playMCR(ctxT(t), before, 0) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	replacements := 0
	for _, p := range players {
		checkMCRPrivacy(t, p.seat, before, p.snap, p.events)
		if p.events[len(p.events)-1].GetMcrGameEnded() == nil {
			t.Errorf("seat %d did not see the game end", p.seat)
		}
		for _, ev := range p.events {
			if d := ev.GetDrew(); d.GetRinshan() && d.GetSeat() == p.seat && d.GetTile() != "" {
				replacements++
			}
		}
	}
	if replacements == 0 {
		t.Error("no seat drew a replacement in two hands")
	}
	e.exportMCR(t, id, false)

	// A snapshot of a finished table, for each seat: its own view only.
	for _, p := range players {
		p.snap, p.events = nil, nil
		if err := p.playMCR(ctxT(t), 0, 0); err != nil {
			t.Fatal(err)
		}
		if p.snap.GetView().GetSeat() != p.seat || p.snap.GetView().GetMcr() == nil {
			t.Errorf("seat %d's snapshot: %v", p.seat, p.snap.GetView())
		}
		checkMCRPrivacy(t, p.seat, p.snap.GetSeq(), p.snap, p.events)
	}
}

// TestMCRResume drops a seat's stream mid-game and resumes it with
// after_seq: the two parts together are what a stream that never dropped
// received, and a snapshot taken mid-game shows only the seat's tiles.
func TestMCRResume(t *testing.T) {
	e := startEnv(t, mcrConfig())
	id, _ := e.create(t, mcrSettings(1, seed(8)))
	players := make([]*player, 4)
	for i := range players {
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
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
		if i != 1 {
			wg.Go(func() { errs[i] = p.playMCR(ctxT(t), 0, 0) })
		}
	}
	p := players[1]
	if err := p.playMCR(ctxT(t), 0, 25); err != nil {
		t.Fatal(err)
	}
	first := len(p.events)
	lastSeq := p.events[first-1].GetSeq()
	// A second stream from a snapshot, mid-game.
	snap := e.snapshotOf(t, id, p.token)
	if v := snap.GetView(); v.GetSeat() != 1 || v.GetMcr() == nil || len(v.GetMcr().GetWinds()) != 4 || v.GetHand() == "" {
		t.Errorf("mid-game snapshot %v", v)
	}
	checkMCRPrivacy(t, 1, snap.GetSeq(), snap, nil)
	if err := p.playMCR(ctxT(t), lastSeq, 0); err != nil {
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
	// Both streams started from snapshots; compare what both cover.
	w := witness.events
	var got []*pb.Event
	for _, ev := range p.events {
		if ev.GetSeq() > witness.snap.GetSeq() {
			got = append(got, ev)
		}
	}
	for len(w) > 0 && w[0].GetSeq() <= p.snap.GetSeq() {
		w = w[1:]
	}
	if len(got) != len(w) {
		t.Fatalf("resumed stream has %d events, the witness %d", len(got), len(w))
	}
	for i := range got {
		if !proto.Equal(got[i], w[i]) {
			t.Fatalf("event %d: resumed %v, witness %v", i, got[i], w[i])
		}
	}
	checkMCRPrivacy(t, 1, p.snap.GetSeq(), p.snap, p.events)
}

// TestMCRTimers: a seat whose player never acts is played by the timers
// (the drawn tile, a pass; never a win) and the game ends.
func TestMCRTimers(t *testing.T) {
	e := startEnv(t, mcrConfig())
	set := mcrSettings(1, seed(11))
	set.FillWithBots, set.TurnTime, set.ClaimTime = true, durationpb.New(5*time.Millisecond), durationpb.New(5*time.Millisecond)
	id, owner := e.create(t, set)
	seat, tok := e.join(t, id)
	silent := &player{e: e, id: id, seat: seat, token: tok}
	done := make(chan error, 1)
	opened := make(chan struct{})
	go func() { done <- silent.recordOnly(ctxT(t), opened) }()
	<-opened
	if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	timeouts := 0
	for _, ev := range silent.events {
		if n := ev.GetSeatNotice(); n.GetKind() == pb.SeatNotice_KIND_TIMED_OUT && n.GetSeat() == seat {
			timeouts++
		}
	}
	if timeouts == 0 || silent.events[len(silent.events)-1].GetMcrGameEnded() == nil {
		t.Fatalf("%d timeouts; last event %v", timeouts, silent.events[len(silent.events)-1])
	}
	e.exportMCR(t, id, false)
}

// TestMCRRefused: bad settings and bad actions on an MCR table are refused
// with their reasons and change nothing.
func TestMCRRefused(t *testing.T) {
	e := startEnv(t, mcrConfig())
	for _, tc := range []struct {
		name string
		set  *pb.TableSettings
	}{
		{"17 hands", mcrSettings(17, nil)},
		{"riichi options", &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}}},
		{"riichi preset", &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Rules: pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN}},
		{"mcr preset for riichi", &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_MCR}},
		{"mcr options for riichi", &pb.TableSettings{Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{}}}},
	} {
		_, err := e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: tc.set})
		wantStatus(t, tc.name, err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION)
	}

	id, _ := e.create(t, mcrSettings(1, seed(2)))
	var toks [4]string
	for i := range toks {
		_, toks[i] = e.join(t, id)
	}
	before := e.table(t, id).GetLastSeq()
	var seqs [4]uint64
	dealer := -1
	for s := range toks {
		if len(e.snapshotOf(t, id, toks[s]).GetView().GetLegal()) > 0 {
			dealer = s
		}
		seqs[s] = e.newestSeq(t, id, toks[s])
	}
	act := func(s int, a *pb.Action) error {
		_, err := e.tables.Act(ctxT(t), &pb.ActRequest{TableId: id, SeatToken: toks[s], LastSeq: seqs[s], RequestId: uuid.NewString(), Action: a})
		return err
	}
	if dealer < 0 {
		t.Fatal("no seat to act after the deal")
	}
	other := (dealer + 1) % 4
	wantStatus(t, "out of turn", act(other, &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m"}), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN)
	wantStatus(t, "flower", act(dealer, &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1f"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE)
	wantStatus(t, "riichi", act(dealer, &pb.Action{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "1m"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	wantStatus(t, "run on a discard", act(dealer, &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m", Run: "1m"}), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	if got := e.table(t, id).GetLastSeq(); got != before {
		t.Errorf("refused actions moved the table from %d to %d", before, got)
	}
}
