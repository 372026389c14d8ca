package classical

import (
	"errors"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
	wcl "github.com/mahjong-authority/authority/internal/wire/classical"
)

func TestCheck(t *testing.T) {
	// The options say every rule of the engine's but its name.
	if n := reflect.TypeOf(ct.Rules{}).NumField(); n != 4 {
		t.Fatalf("ct.Rules has %d fields: teach ClassicalOptions the new one", n)
	}
	cl := pb.RuleSet_RULE_SET_CLASSICAL
	full := func(r ct.Rules) *pb.TableSettings {
		return &pb.TableSettings{RuleSet: cl, Rules: pb.RulePreset_RULE_PRESET_CLASSICAL_BMJA, Options: &pb.TableSettings_Classical{Classical: PB(r)}}
	}
	with := func(f func(*ct.Rules)) *pb.TableSettings {
		o := Defaults
		f(&o)
		return full(o)
	}
	opts := func(o *pb.ClassicalOptions) *pb.TableSettings {
		return &pb.TableSettings{RuleSet: cl, Options: &pb.TableSettings_Classical{Classical: o}}
	}
	mahjongtest.CheckSettings(t, Check, []mahjongtest.Settings{
		{"defaults", &pb.TableSettings{RuleSet: cl}, full(Defaults), nil},
		{"empty options", opts(&pb.ClassicalOptions{}), full(Defaults), nil},
		{"limit 2000", opts(&pb.ClassicalOptions{Limit: 2000}), with(func(r *ct.Rules) { r.Limit = 2000 }), nil},
		{"limit 500, no fishing rule, one round", opts(&pb.ClassicalOptions{Limit: 500, FishingBeforeMahJong: proto.Bool(false), Rounds: 1}),
			with(func(r *ct.Rules) { r.Limit, r.FishingFirst, r.Rounds = 500, false, 1 }), nil},
		{"limit 700", opts(&pb.ClassicalOptions{Limit: 700}), nil, ruleset.ErrBadOption},
		{"5 rounds", opts(&pb.ClassicalOptions{Rounds: 5}), nil, ruleset.ErrBadOption},
		{"sichuan options", &pb.TableSettings{RuleSet: cl, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}}, nil, ruleset.ErrBadOption},
		{"riichi preset", &pb.TableSettings{RuleSet: cl, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}, nil, ruleset.ErrBadOption},
		{"undefined preset", &pb.TableSettings{RuleSet: cl, Rules: 77}, nil, ruleset.ErrMalformed},
		{"riichi table", &pb.TableSettings{}, nil, ruleset.ErrBadOption},
	})
}

// TestClassify: the engine's refusals carry the error the server maps to
// their reason, with the engine's error kept in the chain.
func TestClassify(t *testing.T) {
	mahjongtest.CheckClassify(t, classify, ct.Action{Type: ct.Discard}, ct.Action{Type: ct.Pung},
		mahjong.Errors{BadAction: ct.ErrBadAction, Over: ct.ErrGameOver, NotToAct: ct.ErrNotToAct, Phase: ct.ErrPhase}, ct.ErrIllegal)
}

func TestActionCodec(t *testing.T) {
	w := wall.New144([32]byte{1, 2, 3})
	w.Commitment = [32]byte{9, 9}
	mahjongtest.CheckCodec(t, ActionCodec{}, []ct.Action{
		{Seat: 2, Type: ct.Discard, Tile: tile.Plain(tile.S7)},
		{Seat: 1, Type: ct.Fish},
		{Seat: 3, Type: ct.Chow, Tile: tile.Plain(tile.P3)},
		{Type: ct.Deal, Wall: &w},
		{Seat: 255, Type: 255, Tile: 255},
	}, [][]byte{nil, {1, 2, 3}, {0, 4, 0, 4}, {0, 4, 0, 0, 9}})
}

func TestActionFromPB(t *testing.T) {
	for _, tc := range []struct {
		in   *pb.Action
		want ct.Action
		err  error
	}{
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "3s"}, ct.Action{Seat: 2, Type: ct.Discard, Tile: tile.Plain(tile.S3)}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CLASSICAL_FISH}, ct.Action{Seat: 2, Type: ct.Fish}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tile: "4m"}, ct.Action{Seat: 2, Type: ct.Chow, Tile: tile.Plain(tile.M4)}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_RON}, ct.Action{Seat: 2, Type: ct.MahJong}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}, ct.Action{Seat: 2, Type: ct.Pass}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS, Tile: "1m"}, ct.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "34m"}, ct.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "3s", Tsumogiri: true}, ct.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "3s"}, ct.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "1f"}, ct.Action{}, ruleset.ErrBadTile},
		{nil, ct.Action{}, ruleset.ErrMalformed},
	} {
		got, err := actionFromPB(tc.in, 2)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("actionFromPB(%v) = %+v, %v; want %+v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// FuzzActionFromPB: what the server accepts survives the trip back to the
// wire.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(400), "", "", false)
	f.Add(int32(3), "7p", "", false)
	f.Add(int32(1), "9p", "", true)
	f.Fuzz(func(t *testing.T, typ int32, tl, tls string, tg bool) {
		in := &pb.Action{Type: pb.ActionType(typ), Tile: tl, Tiles: tls, Tsumogiri: tg}
		a, err := actionFromPB(in, 1)
		if err != nil {
			if a != (ct.Action{}) {
				t.Fatalf("actionFromPB(%v) = %+v with error %v", in, a, err)
			}
			return
		}
		back, err := actionFromPB(wcl.ActionToPB(a, in.GetType() == pb.ActionType_ACTION_TYPE_RON), 1)
		if err != nil || back.Type != a.Type || (a.Type != ct.Fish && a.Type != ct.Pass && back.Tile != a.Tile) {
			t.Fatalf("round trip of %+v = %+v, %v", a, back, err)
		}
	})
}

// TestGame plays a whole game through the adapter with the host's
// defaults for every seat: walls come from the table seed with their
// commitments, the seat to act is told its options, every discard and
// added kong is marked for the dwell, and the game's record verifies;
// snapshots at each hand boundary restore a game that goes on
// identically.
func TestGame(t *testing.T) {
	rules := Defaults
	rules.Rounds = 1
	p := New(Standard()).Parts()
	newGame := mahjongtest.NewGame(t, p, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: PB(rules)}})
	entropy := [][]byte{[]byte("e0"), nil, nil, []byte("e3")}
	hg, _ := newGame()
	hg.(*game).Seed("t-9", entropy)
	hg, _ = mahjongtest.Play(t, hg, 20000, func(a ct.Action, outs []host.Out[ct.Body]) Game {
		g := hg.(*game)
		for _, o := range outs {
			if _, ok := o.Body.(ct.ClaimOffer); ok && !o.Offer {
				t.Fatalf("%v: a claim offer not marked as an offer", a)
			}
		}
		if want := a.Type == ct.Discard || a.Type == ct.AddedKong; (mahjongtest.Dwells(outs) == 1) != want || mahjongtest.Dwells(outs) > 1 {
			t.Fatalf("%v: %d dwell marks", a, mahjongtest.Dwells(outs))
		}
		if g.Engine().Phase() == ct.Turn {
			last := outs[len(outs)-1]
			if o, ok := last.Body.(ct.TurnOffer); !ok || !last.To.Private || !last.Offer || !g.Engine().Waiting(o.Seat) {
				t.Fatalf("%v: last event %+v, want the turn offer of the seat to act", a, last)
			}
		}
		if g.Boundary() {
			hg = mahjongtest.Restored(t, hg, newGame, "t-9", entropy)
		}
		return hg
	})
	rr, err := p.Record(hg)
	if err != nil {
		t.Fatal(err)
	}
	r := rr.(gameRecord).g
	if r.Partial || r.ServerSeed == "" || len(r.Rounds) == 0 {
		t.Fatalf("Record = %+v", r)
	}
	rep, err := rcl.Verify(r)
	if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed {
		t.Fatalf("Verify = %+v, %v, %v", rep, err, rep.Err())
	}
}
