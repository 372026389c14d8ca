package mcr

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func TestCheck(t *testing.T) {
	ok := []struct {
		in   *pb.TableSettings
		want uint32
	}{
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR}, 16},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Rules: pb.RulePreset_RULE_PRESET_MCR, Options: &pb.TableSettings_Mcr{}}, 16},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: 1}}}, 1},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: 7}}}, 7},
	}
	for _, tc := range ok {
		if err := Check(tc.in); err != nil {
			t.Fatalf("Check(%v): %v", tc.in, err)
		}
		if tc.in.GetRules() != pb.RulePreset_RULE_PRESET_MCR || tc.in.GetMcr().GetHands() != tc.want {
			t.Errorf("completed %v, want %d hands", tc.in, tc.want)
		}
		again := proto.Clone(tc.in).(*pb.TableSettings)
		if err := Check(again); err != nil || !proto.Equal(again, tc.in) {
			t.Errorf("checking completed settings changed them: %v, %v", again, err)
		}
	}
	bad := []struct {
		in   *pb.TableSettings
		want error
	}{
		{&pb.TableSettings{}, ruleset.ErrBadOption},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: 17}}}, ruleset.ErrBadOption},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Rules: pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE}, ruleset.ErrBadOption},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Sichuan{}}, ruleset.ErrBadOption},
		{&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Rules: pb.RulePreset(99)}, ruleset.ErrMalformed},
	}
	for _, tc := range bad {
		if err := Check(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("Check(%v) = %v, want %v", tc.in, err, tc.want)
		}
	}
}

func TestActionCodec(t *testing.T) {
	w := wall.New144([32]byte{1})
	w.Commitment = [32]byte{2}
	mahjongtest.CheckCodec(t, ActionCodec{}, []tbl.Action{
		{Type: tbl.Deal, Wall: &w},
		{Seat: 2, Type: tbl.Discard, Tile: tile.MustParse("7z")[0]},
		{Seat: 1, Type: tbl.Chi, Tile: tile.MustParse("4p")[0], Run: tile.MustParse("3p")[0].Kind()},
		{Seat: 3, Type: tbl.Pass},
	}, [][]byte{{0, 2, 3, 0, 4}})
}

// TestConvertRefusesUnusedFields: a client's action must leave empty the
// fields its type does not use.
func TestConvertRefusesUnusedFields(t *testing.T) {
	for _, a := range []*pb.Action{
		nil,
		{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m", Tsumogiri: true},
		{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1m", Tiles: "23m"},
		{Type: pb.ActionType_ACTION_TYPE_PON, Run: "1m"},
		{Type: pb.ActionType_ACTION_TYPE_PASS, Tile: "1m"},
		{Type: pb.ActionType_ACTION_TYPE_TSUMO, Tile: "1m"},
		{Type: pb.ActionType_ACTION_TYPE_NINE_TERMINALS},
	} {
		if _, err := actionFromPB(a, 0); !errors.Is(err, ruleset.ErrMalformed) {
			t.Errorf("%v: %v, want ErrMalformed", a, err)
		}
	}
	if a, err := actionFromPB(&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Run: "3s", Tile: "4s"}, 1); err != nil || a.Type != tbl.Chi || a.Seat != 1 {
		t.Errorf("chi: %v, %v", a, err)
	}
}

// TestGameSnapshot plays a two-hand game through the adapter, snapshots it
// after the first hand and restores it into a new game that plays on the
// same.
func TestGameSnapshot(t *testing.T) {
	rules := tbl.Rules{Name: "mcr", Hands: 2}
	newG := func() *game {
		eng, err := tbl.New(tbl.Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(eng, rules, [32]byte{7}, nil)
		g.Seed("t1", [][]byte{{1}, nil, nil, {4}})
		return g
	}
	g := newG()
	bot := &TableBot{}
	var snap []byte
	step := func(g *game) {
		p := g.Pending()
		var a tbl.Action
		if p.Kind == host.WaitSystem {
			a = g.Default(host.System)
		} else {
			var err error
			if a, err = bot.Act(p.Seats[0], g.View(p.Seats[0])); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := g.Apply(a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	}
	for !g.Over() {
		step(g)
		if g.Boundary() && snap == nil {
			var err error
			if snap, err = g.AppendSnapshot(nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := newG()
	if err := h.Restore(snap); err != nil {
		t.Fatal(err)
	}
	bot = &TableBot{}
	for !h.Over() {
		step(h)
	}
	if scores(h) != scores(g) {
		t.Errorf("restored game ends %v, the original %v", scores(h), scores(g))
	}
	rec, err := parts{}.Record(h)
	if err != nil {
		t.Fatal(err)
	}
	if r := rec.(gameRecord).g; r.Partial || r.ServerSeed == "" || len(r.Hands) != 2 {
		t.Errorf("record after the game: partial %v, %d hands", r.Partial, len(r.Hands))
	}
	if err := h.Restore(snap[:len(snap)-2]); err == nil {
		t.Error("a cut snapshot restores")
	}
}

func scores(g *game) [tbl.NumSeats]int { return g.Engine().(*tbl.Table).Scores() }
