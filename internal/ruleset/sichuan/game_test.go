package sichuan

import (
	"errors"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

// TestClassify: the engine's refusals carry the error the server maps to
// their reason, with the engine's error kept in the chain.
func TestClassify(t *testing.T) {
	mahjongtest.CheckClassify(t, classify, sc.Action{Type: sc.Discard}, sc.Action{Type: sc.Pon},
		mahjong.Errors{BadAction: sc.ErrBadAction, Over: sc.ErrMatchOver, NotToAct: sc.ErrNotToAct, Phase: sc.ErrPhase}, sc.ErrIllegal)
}

func TestActionCodec(t *testing.T) {
	w := sc.NewWall([32]byte{1, 2, 3})
	w.Commitment = [32]byte{9, 9}
	mahjongtest.CheckCodec(t, ActionCodec{}, []sc.Action{
		{Seat: 2, Type: sc.Discard, Tile: tile.Plain(tile.S7)},
		{Seat: 1, Type: sc.Exchange, Tiles: [3]tile.Tile{tile.Plain(tile.M9), 3, 4}},
		{Seat: 3, Type: sc.Void, Suit: tile.Sou},
		{Type: sc.Deal, Wall: &w},
		{Seat: 255, Type: 255, Tile: 255, Tiles: [3]tile.Tile{255, 0, 7}, Suit: 255},
	}, [][]byte{nil, {1, 2, 3}, {0, 4, 0, 0, 0, 0, 0, 4}, {0, 4, 0, 0, 0, 0, 0, 0, 9}})
}

func TestActionFromPB(t *testing.T) {
	for _, tc := range []struct {
		in   *pb.Action
		want sc.Action
		err  error
	}{
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_EXCHANGE, Tiles: "789p"}, sc.Action{Seat: 2, Type: sc.Exchange, Tiles: [3]tile.Tile{tile.Plain(tile.P7), tile.Plain(tile.P8), tile.Plain(tile.P9)}}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_VOID, Suit: pb.SichuanSuit_SICHUAN_SUIT_MAN}, sc.Action{Seat: 2, Type: sc.Void, Suit: tile.Man}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "3s"}, sc.Action{Seat: 2, Type: sc.Discard, Tile: tile.Plain(tile.S3)}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}, sc.Action{Seat: 2, Type: sc.Pass}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_VOID, Suit: 1, Tile: "1m"}, sc.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_SICHUAN_EXCHANGE, Tiles: "789p", Suit: 2}, sc.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "3s", Tsumogiri: true}, sc.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS, Suit: 3}, sc.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "34m"}, sc.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "5z"}, sc.Action{}, ruleset.ErrBadTile},
		{nil, sc.Action{}, ruleset.ErrMalformed},
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
	f.Add(int32(100), "", "123m", int32(0), false)
	f.Add(int32(101), "", "", int32(3), false)
	f.Add(int32(1), "9p", "", int32(0), true)
	f.Fuzz(func(t *testing.T, typ int32, tl, tls string, suit int32, tg bool) {
		in := &pb.Action{Type: pb.ActionType(typ), Tile: tl, Tiles: tls, Suit: pb.SichuanSuit(suit), Tsumogiri: tg}
		a, err := actionFromPB(in, 1)
		if err != nil {
			if a != (sc.Action{}) {
				t.Fatalf("actionFromPB(%v) = %+v with error %v", in, a, err)
			}
			return
		}
		if back, err := actionFromPB(wsc.ActionToPB(a), 1); err != nil || back != a {
			t.Fatalf("round trip of %+v = %+v, %v", a, back, err)
		}
	})
}

// TestGame plays a two-hand match through the adapter with the host's
// defaults for every seat (timeouts, exchange and void included): walls
// come from the table seed with their commitments, the seat to act is
// told its options, every discard and added kan is marked for the dwell,
// the exchange and void choices are marked simultaneous, and the match's
// record verifies; snapshots at each hand boundary restore a game that
// goes on identically.
func TestGame(t *testing.T) {
	rules := Defaults
	rules.Hands = 2
	p := New(Standard()).Parts()
	newGame := mahjongtest.NewGame(t, p, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: PB(rules)}})
	entropy := [][]byte{[]byte("e0"), nil, nil, []byte("e3")}
	hg, _ := newGame()
	hg.(*game).Seed("t-9", entropy)
	phase := sc.Phase(0) // before the step
	hg, _ = mahjongtest.Play(t, hg, 10000, func(a sc.Action, outs []host.Out[sc.Body]) Game {
		g := hg.(*game)
		if want := a.Type == sc.Discard || a.Type == sc.AddedKan; (mahjongtest.Dwells(outs) == 1) != want || mahjongtest.Dwells(outs) > 1 {
			t.Fatalf("%v: %d dwell marks", a, mahjongtest.Dwells(outs))
		}
		// The announcements of a choice every seat makes at once, and
		// nothing else, leave the others' decisions standing; the step of
		// the last choice ends with events that do not.
		for _, o := range outs {
			_, chose := o.Body.(sc.ExchangeChosen)
			_, void := o.Body.(sc.VoidChosen)
			if o.Simultaneous != (chose || void) {
				t.Fatalf("%v: %T marked simultaneous %t", a, o.Body, o.Simultaneous)
			}
		}
		now := g.Engine().Phase()
		if a.Type == sc.Exchange || a.Type == sc.Void {
			if last := outs[len(outs)-1]; (now == phase) != last.Simultaneous {
				t.Fatalf("%v: phase %v after it, last event %T marked simultaneous %t", a, now, last.Body, last.Simultaneous)
			}
		}
		phase = now
		if now == sc.Turn {
			last := outs[len(outs)-1]
			if o, ok := last.Body.(sc.TurnOffer); !ok || !last.To.Private || !g.Engine().Waiting(o.Seat) {
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
	if r.Partial || r.ServerSeed == "" || len(r.Rounds) != 2 {
		t.Fatalf("Record = %+v", r)
	}
	rep, err := rsc.Verify(r)
	if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed {
		t.Fatalf("Verify = %+v, %v, %v", rep, err, rep.Err())
	}
}
