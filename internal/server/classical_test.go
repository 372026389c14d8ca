package server_test

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	"github.com/mahjong-authority/authority/internal/client"
	cclassical "github.com/mahjong-authority/authority/internal/client/classical"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	wcl "github.com/mahjong-authority/authority/internal/wire/classical"
)

// classicalConfig is a server hosting riichi and classical tables with the
// real parts, as the authority binary does.
func classicalConfig() config {
	return config{Config: server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard()), classical.New(classical.Standard())}}}
}

// classicalSettings are the settings of a classical table of rounds wind
// rounds.
func classicalSettings(rounds uint32) *pb.TableSettings {
	return &pb.TableSettings{
		RuleSet: pb.RuleSet_RULE_SET_CLASSICAL,
		Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{Rounds: rounds}},
	}
}

// TestClassicalBotTable runs a classical table of four bots to the end
// through the server, followed by a spectator who sees nothing private
// and is told every fishing announcement, and checks the exported
// record: it verifies in full (walls, commitments, the seed chain, the
// replay through the engine).
func TestClassicalBotTable(t *testing.T) {
	e := startEnv(t, classicalConfig())
	set := classicalSettings(1)
	set.FillWithBots, set.Seed = true, seed(7)
	id, owner := e.create(t, set)
	got := e.table(t, id).GetSettings()
	if got.GetRuleSet() != pb.RuleSet_RULE_SET_CLASSICAL || got.GetRules() != pb.RulePreset_RULE_PRESET_CLASSICAL_BMJA ||
		got.GetClassical().GetLimit() != 1000 || !got.GetClassical().GetFishingBeforeMahJong() || got.GetClassical().GetRounds() != 1 {
		t.Fatalf("table settings %v", got)
	}
	evs := e.spectateGame(t, id, owner)
	wins, fishing, hands := 0, 0, 0
	for _, ev := range evs {
		if ev.GetDealt() != nil || ev.GetClaimOffer() != nil || ev.GetTurnOffer() != nil || ev.GetDrew().GetTile() != "" {
			t.Fatalf("public stream carries a secret: %v", ev)
		}
		if ev.GetClassicalFishing() != nil {
			fishing++
		}
		if h := ev.GetClassicalHandEnded(); h != nil {
			hands++
			if h.GetKind() == pb.ClassicalHandEndKind_CLASSICAL_HAND_END_KIND_MAH_JONG {
				wins++
			}
			if len(h.GetLines()) != 4 || len(h.GetHands()) != 4 || len(h.GetWallSeed()) != 32 {
				t.Fatalf("hand ended without every score line, hand and the seed: %v", h)
			}
		}
		if _, err := wcl.BodyFromPB(ev); err != nil && ev.GetSeatNotice() == nil {
			t.Fatalf("event %v: %v", ev, err)
		}
	}
	if wins == 0 || fishing == 0 {
		t.Errorf("a round of bots: %d wins, %d fishing announcements", wins, fishing)
	}
	r, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: pb.RecordFormat_RECORD_FORMAT_NATIVE})
	if err != nil {
		t.Fatal(err)
	}
	g, err := rcl.Decode([]byte(r.GetRecord()))
	if err != nil {
		t.Fatal(err)
	}
	if g.Partial || len(g.Rounds) != hands || g.ServerSeed == "" || len(g.Entropy) != 4 {
		t.Fatalf("record: partial %t, %d hands of %d, server seed %q", g.Partial, len(g.Rounds), hands, g.ServerSeed)
	}
	rep, err := rcl.Verify(g)
	if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed || rep.Verified != hands {
		t.Fatalf("Verify = %+v, %v, %v", rep, err, rep.Err())
	}
	for _, f := range []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI} {
		_, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: f})
		wantStatus(t, "export "+f.String(), err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	}
}

// TestClassicalSettingsRefused: options out of range, another rule set's
// options or preset are refused before any table exists.
func TestClassicalSettingsRefused(t *testing.T) {
	e := startEnv(t, classicalConfig())
	for name, set := range map[string]*pb.TableSettings{
		"limit 700":                   {RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{Limit: 700}}},
		"5 rounds":                    {RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{Rounds: 5}}},
		"sichuan options":             {RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}},
		"riichi preset":               {RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Rules: pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN},
		"classical options on riichi": {Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{}}},
	} {
		_, err := e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: set})
		wantStatus(t, name, err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION)
	}
}

// TestClassicalPrivacy plays a classical table with four remote clients,
// each a bot acting on the view its client keeps from its own stream:
// every game ends, no seat receives another seat's dealt hand, drawn tile
// or offers, and no client sees anything that does not fit its view.
func TestClassicalPrivacy(t *testing.T) {
	srv := servertest.Start(t, classicalConfig().server())
	addr := srv.Addr
	ctx := ctxT(t)
	set := classicalSettings(1)
	set.Seed = seed(3)
	admin, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	tb, _, err := admin.CreateTable(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	id := tb.GetTableId()
	var wg sync.WaitGroup
	errs := make(chan error, ct.NumSeats)
	var seats [ct.NumSeats]client.Seat
	clients := make([]*client.Client, ct.NumSeats)
	for s := range clients {
		c, err := client.Dial(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients[s] = c
		if seats[s], err = c.JoinTable(ctx, id, fmt.Sprint("p", s), []byte{byte(s)}); err != nil {
			t.Fatal(err)
		}
	}
	for s := range clients {
		wg.Go(func() {
			me := ct.Seat(seats[s].Seat)
			sess := cclassical.Follow(clients[s], seats[s], client.Options{})
			defer sess.Close()
			for {
				u, err := sess.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					errs <- fmt.Errorf("seat %d: %w", me, err)
					return
				}
				switch b := u.Event.Body.(type) {
				case ct.Dealt:
					if b.Seat != me {
						errs <- fmt.Errorf("seat %d received seat %d's hand", me, b.Seat)
						return
					}
				case ct.Drew:
					if b.Known && b.Seat != me {
						errs <- fmt.Errorf("seat %d saw seat %d's draw", me, b.Seat)
						return
					}
				case ct.ClaimOffer:
					if b.Seat != me {
						errs <- fmt.Errorf("seat %d received seat %d's offer", me, b.Seat)
						return
					}
				case ct.TurnOffer:
					if b.Seat != me {
						errs <- fmt.Errorf("seat %d received seat %d's offer", me, b.Seat)
						return
					}
				}
				if a, ok := (botc.Efficient{}).Act(sess.View()); ok {
					if _, err := sess.Act(ctx, a); err != nil {
						errs <- fmt.Errorf("seat %d: %v: %w", me, a, err)
						return
					}
				}
			}
			if st := sess.Stats(); st.Faults != 0 {
				errs <- fmt.Errorf("seat %d: %d inconsistencies", me, st.Faults)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, err := admin.GetTable(ctx, id)
	if err != nil || got.GetState() != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("table %v after the game: %v", got.GetState(), err)
	}
}
