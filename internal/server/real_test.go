package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/servertest"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// TestRealBotTable runs a table of four bots on the real engine to the end
// and follows it as a spectator.
func TestRealBotTable(t *testing.T) {
	e := startEnv(t, riichiConfig())
	id, owner := e.create(t, &pb.TableSettings{FillWithBots: true, Seed: seed(1)})
	evs := e.spectateGame(t, id, owner)
	last := evs[len(evs)-1]
	sum, wins := 0, 0
	for _, s := range last.GetGameEnded().GetScores() {
		sum += int(s)
	}
	for _, ev := range evs {
		if ev.GetWon() != nil {
			wins++
		}
	}
	if sum != 100000 {
		t.Errorf("final scores sum to %d, want 100000", sum)
	}
	if wins == 0 {
		t.Errorf("efficient bots played a whole game without a win")
	}
	t.Logf("%d public events, %d wins, final %v", len(evs), wins, last.GetGameEnded().GetScores())
}

func seed(b byte) []byte {
	s := make([]byte, 32)
	s[0] = b
	return s
}

// simple plays a seat over gRPC on the real engine knowing only its
// events: it discards what it draws (always legal), wins by ron when
// offered and passes every other claim.
func (p *player) simple(ctx context.Context, afterSeq uint64) error {
	st, err := p.e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: afterSeq})
	if err != nil {
		return err
	}
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("seat %d recv: %w", p.seat, err)
		}
		if s := r.GetSnapshot(); s != nil {
			p.snap = s // a standing offer follows as the next event
		} else {
			p.events = append(p.events, r.GetEvent())
		}
		act, seq := servertest.Take(p.seat, &p.drawn, r)
		if act != nil {
			if p.gate != nil {
				<-p.gate
			}
			if _, err := p.e.tables.Act(ctx, &pb.ActRequest{TableId: p.id, SeatToken: p.token, LastSeq: seq, RequestId: uuid.NewString(), Action: act}); err != nil {
				return fmt.Errorf("seat %d %v at %d: %w", p.seat, act, seq, err)
			}
			p.acts++
		}
	}
}

// TestRealFourClientsPrivacy plays a whole east-only game on the real
// engine with four gRPC clients and a claim dwell after every discard, and
// checks every event each seat received: never another seat's concealed
// tiles or an unrevealed wall tile, and numbers without gaps.
func TestRealFourClientsPrivacy(t *testing.T) {
	e := startEnv(t, riichiConfig())
	id, _ := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(7), ClaimDwell: durationpb.New(time.Millisecond)})
	players := make([]*player, 4)
	var before uint64
	for i := range players {
		if i == 3 {
			// The fourth join starts the game: every seat follows from
			// before it, so that each sees every event of the game. Until
			// then every event is public, so the spectators' number is
			// every seat's.
			before = e.table(t, id).GetLastSeq()
		}
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		wg.Go(func() { errs[i] = p.simple(ctxT(t), before) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var s7 [32]byte
	copy(s7[:], seed(7))
	for _, p := range players {
		checkPrivacy(t, p.seat, before, p.snap, p.events)
		checkAgainstWalls(t, s7, id, table.TenhouTonpuu.Aka, p.seat, p.events)
		if p.events[len(p.events)-1].GetGameEnded() == nil {
			t.Errorf("seat %d did not see the game end", p.seat)
		}
	}
	if st := e.table(t, id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("state %v, want finished", st)
	}
}

// TestRealRefusedRequests is TestRefusedRequests on the real engine.
func TestRealRefusedRequests(t *testing.T) { testRefusedRequests(t, riichiConfig()) }

// checkAgainstWalls replays what one seat received against the walls the
// table's seeds give (fair.TableSeed of the server seed and every seat's
// entropy "xyz", fair.RoundSeed, wall.New): each round's commitment, index
// and revealed seed, its deal and its own
// draws must be exactly its wall positions, every other draw must reach it
// without the tile, and the dora indicators it sees must be the revealed
// positions. Together with checkPrivacy this proves the seat was sent no
// other seat's concealed tile and no unrevealed wall tile.
func checkAgainstWalls(t *testing.T, seed [32]byte, tableID string, aka bool, seat uint32, evs []*pb.Event) {
	t.Helper()
	xyz := []byte("xyz")
	tableSeed := fair.TableSeed(seed, [fair.Seats][]byte{xyz, xyz, xyz, xyz})
	var roundSeed [32]byte
	var (
		w               wall.Wall
		round           uint32
		dealer          uint32
		draws, rinshans int
		indicators      int
	)
	for _, ev := range evs {
		switch {
		case ev.GetRoundStarted() != nil:
			rs := ev.GetRoundStarted()
			roundSeed = fair.RoundSeed(tableSeed, round)
			w = wall.New(roundSeed, aka)
			if c := fair.Commit(roundSeed, tableID, round); !bytes.Equal(rs.GetCommitment(), c[:]) || rs.GetIndex() != round {
				t.Fatalf("seat %d round %d: commitment %x index %d, want %x %d", seat, round, rs.GetCommitment(), rs.GetIndex(), c, round)
			}
			round++
			dealer, draws, rinshans, indicators = rs.GetDealer(), 0, 0, 1
			if want := w.Tiles[wall.DoraPos(0)].String(); rs.GetDora() != want {
				t.Fatalf("seat %d round %d: dora indicator %s, wall has %s", seat, round, rs.GetDora(), want)
			}
		case ev.GetRoundEnded() != nil:
			if got := ev.GetRoundEnded().GetWallSeed(); !bytes.Equal(got, roundSeed[:]) {
				t.Fatalf("seat %d round %d: revealed seed %x, want %x", seat, round, got, roundSeed)
			}
		case ev.GetDealt() != nil:
			off := int((seat + 4 - dealer) % 4)
			var want []tile.Tile
			for n := range 13 {
				want = append(want, w.Tiles[wall.DealPos(off, n)])
			}
			if got := ev.GetDealt().GetHand(); got != tile.Format(want) {
				t.Fatalf("seat %d round %d: dealt %s, its wall positions hold %s", seat, round, got, tile.Format(want))
			}
		case ev.GetDrew() != nil:
			d := ev.GetDrew()
			if d.GetTile() == "" {
				if d.GetRinshan() {
					rinshans++
				} else {
					draws++
				}
				continue
			}
			if d.GetSeat() != seat {
				t.Fatalf("seat %d received seat %d's draw %s", seat, d.GetSeat(), d.GetTile())
			}
			pos := wall.LivePos(draws - 1)
			if d.GetRinshan() {
				pos = wall.RinshanPos(rinshans - 1)
			}
			if want := w.Tiles[pos].String(); d.GetTile() != want {
				t.Fatalf("seat %d round %d: drew %s, wall position %d holds %s", seat, round, d.GetTile(), pos, want)
			}
		case ev.GetDoraRevealed() != nil:
			if want := w.Tiles[wall.DoraPos(indicators)].String(); ev.GetDoraRevealed().GetIndicator() != want {
				t.Fatalf("seat %d: kan dora %s, wall has %s", seat, ev.GetDoraRevealed().GetIndicator(), want)
			}
			indicators++
		}
	}
	if round == 0 {
		t.Fatalf("seat %d saw no round", seat)
	}
}

// TestRealResumeAfterDisconnect is TestResumeAfterDisconnect on the real
// engine, over a whole east-only game.
func TestRealResumeAfterDisconnect(t *testing.T) {
	testResume(t, riichiConfig(), &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(3)})
}

// TestRealDisconnectedSeatGetsABot leaves seat 0 without a stream: after
// the grace period a bot plays it, and when its player connects it plays
// again; the game goes on to its end.
func TestRealDisconnectedSeatGetsABot(t *testing.T) {
	cfg := riichiConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e := startEnv(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(5), DisconnectGrace: durationpb.New(10 * time.Second)})
	players := make([]*player, 4)
	for i := range players {
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	// The others hold their moves until seat 0's player is back, so that
	// the game cannot end before.
	gate := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players[1:] {
		p.gate = gate
		wg.Go(func() { errs[i+1] = p.simple(ctxT(t), 0) })
	}
	// Seat 0 is the first dealer: nothing moves until a bot takes it.
	// seats reads the seats for require.Eventually, which runs it in a
	// goroutine of its own (no t.Fatal there): none on an error.
	seats := func() []*pb.SeatInfo {
		r, err := e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: id})
		if err != nil || len(r.GetTable().GetSeats()) != 4 {
			return make([]*pb.SeatInfo, 4)
		}
		return r.GetTable().GetSeats()
	}
	require.Eventually(t, func() bool {
		s := seats()
		return s[1].GetConnected() && s[2].GetConnected() && s[3].GetConnected()
	}, 10*time.Second, time.Millisecond, "seats 1 to 3 connect")
	if got := e.table(t, id).GetSeats()[0]; got.GetBot() {
		t.Fatalf("seat 0 is a bot before the grace period ended")
	}
	clk.Advance(10 * time.Second)
	require.Eventually(t, func() bool { return seats()[0].GetBot() },
		10*time.Second, time.Millisecond, "a bot takes seat 0 after the grace")
	// The player comes back while the game runs.
	wg.Go(func() { errs[0] = players[0].simple(ctxT(t), 0) })
	require.Eventually(t, func() bool { return !seats()[0].GetBot() },
		10*time.Second, time.Millisecond, "seat 0's player is back")
	close(gate)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var took, returned bool
	for _, ev := range players[1].events {
		if n := ev.GetSeatNotice(); n.GetSeat() == 0 {
			took = took || n.GetKind() == pb.SeatNotice_KIND_BOT_TOOK_OVER
			returned = returned || n.GetKind() == pb.SeatNotice_KIND_PLAYER_RETURNED
		}
	}
	if !took || !returned {
		t.Fatalf("seat 1 saw bot took over %v, player returned %v; want both", took, returned)
	}
	if players[0].acts == 0 {
		t.Fatal("seat 0's player did not play after returning")
	}
	if st := e.table(t, id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("state %v, want finished", st)
	}
}
