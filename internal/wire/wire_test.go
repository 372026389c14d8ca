package wire_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wire"
)

func one(s string) tile.Tile { return tile.MustParse(s)[0] }

// testActions has every action type a seat may send, red fives and
// tsumogiri included.
var testActions = []table.Action{
	{Seat: 2, Type: table.Discard, Tile: one("0p")},
	{Seat: 2, Type: table.Discard, Tile: one("7z"), Tsumogiri: true},
	{Seat: 2, Type: table.Riichi, Tile: one("9s"), Tsumogiri: true},
	{Seat: 2, Type: table.Chi, Tiles: [2]tile.Tile{one("4m"), one("0m")}},
	{Seat: 2, Type: table.Pon, Tiles: [2]tile.Tile{one("1z"), one("1z")}},
	{Seat: 2, Type: table.ClosedKan, Tile: one("3p")},
	{Seat: 2, Type: table.AddedKan, Tile: one("5s")},
	{Seat: 2, Type: table.OpenKan},
	{Seat: 2, Type: table.Ron},
	{Seat: 2, Type: table.Tsumo},
	{Seat: 2, Type: table.Pass},
	{Seat: 2, Type: table.NineTerminals},
}

// otherRuleSets is where the numbers of other rule sets' action types and
// events start in the API (docs/rule-sets.md).
const otherRuleSets = 100

func TestActionRoundTrip(t *testing.T) {
	types := map[table.ActionType]bool{}
	for _, a := range testActions {
		w := wire.ActionToPB(a)
		got, err := wire.ActionFromPB(w, 2)
		if err != nil || got != a {
			t.Errorf("ActionFromPB(ActionToPB(%v)) = %v, %v (wire %v); want it back", a, got, err, w)
		}
		types[a.Type] = true
	}
	// Every riichi action type of the API, and no other, has a table type
	// (the values from 100 are other rule sets', docs/rule-sets.md).
	for n := range pb.ActionType_name {
		typ, ok := wire.ActionType(pb.ActionType(n))
		if want := n != 0 && n < otherRuleSets; ok != want || ok && !types[typ] {
			t.Errorf("ActionType(%v) = %v, %v; want a type covered by this test: %v", pb.ActionType(n), typ, ok, want)
		}
	}
	if _, ok := wire.ActionType(99); ok {
		t.Errorf("ActionType(99) is known")
	}
}

// TestActionFromPBErrors checks what a refusal means: a bad tile or a
// malformed message.
func TestActionFromPBErrors(t *testing.T) {
	for _, tc := range []struct {
		in   *pb.Action
		want error
	}{
		{nil, wire.ErrMalformed},
		{&pb.Action{Type: 99, Tile: "1m"}, wire.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD}, wire.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "12m"}, wire.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_RIICHI, Tile: "1f"}, wire.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CLOSED_KAN, Tile: "x"}, wire.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "4m"}, wire.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PON, Tiles: "777z"}, wire.ErrBadTile},
	} {
		if got, err := wire.ActionFromPB(tc.in, 1); !errors.Is(err, tc.want) || got != (table.Action{}) {
			t.Errorf("ActionFromPB(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	// Fields a type does not use are the caller's to refuse.
	in := &pb.Action{Type: pb.ActionType_ACTION_TYPE_TSUMO, Tile: "1m", Tiles: "x", Tsumogiri: true}
	if got, err := wire.ActionFromPB(in, 1); err != nil || got != (table.Action{Seat: 1, Type: table.Tsumo}) {
		t.Errorf("ActionFromPB(%v) = %v, %v; want a plain tsumo", in, got, err)
	}
}

func meld(typ judge.MeldType, tiles string, from table.Seat, called, added string) table.Meld {
	m := table.Meld{From: from}
	m.Type = typ
	copy(m.Tiles[:], tile.MustParse(tiles))
	if called != "" {
		m.Called = one(called)
	}
	if added != "" {
		m.Added = one(added)
	}
	return m
}

func scores(a, b, c, d int) [table.NumSeats]int { return [table.NumSeats]int{a, b, c, d} }

// testBodies has every body type of package table, in the shapes the
// engine gives them: hands and meld tiles sorted (the wire sorts them), no
// tile in the public copy of a draw, none in ron and open kan offers.
var testBodies = []table.Body{
	table.RoundStarted{RoundWind: tile.WindSouth, Number: 3, Dealer: 2, Honba: 1, RiichiSticks: 2, Scores: scores(23000, 31000, 18000, 26000), Dora: one("3p"), WallLeft: 70, Index: 9, Commitment: [32]byte{1, 2, 3}},
	table.RoundStarted{RoundWind: tile.WindEast, Number: 1, Scores: scores(25000, 25000, 25000, 25000), Dora: one("0s"), WallLeft: 70},
	table.Dealt{Seat: 1, Hand: tile.MustParse("1234m0p6p789s1122z")},
	table.Drew{Seat: 3, Tile: one("5m"), Known: true, Rinshan: true, WallLeft: 12},
	table.Drew{Seat: 3, WallLeft: 12},
	table.Discarded{Seat: 0, Tile: one("0m"), Tsumogiri: true, Riichi: true},
	table.Discarded{Seat: 1, Tile: one("7z")},
	table.Fishing{Seat: 2, Shanten: 0, Waits: tile.SetOf(tile.M1, tile.M4, tile.Chun), Furiten: true},
	table.Fishing{Seat: 2, Shanten: 3},
	table.ClaimOffer{Seat: 1, Options: []table.Action{
		{Seat: 1, Type: table.Ron}, {Seat: 1, Type: table.Pon, Tiles: [2]tile.Tile{one("5p"), one("0p")}},
		{Seat: 1, Type: table.OpenKan}, {Seat: 1, Type: table.Chi, Tiles: [2]tile.Tile{one("6p"), one("4p")}},
	}},
	table.TurnOffer{Seat: 0, Options: []table.Action{
		{Seat: 0, Type: table.Tsumo}, {Seat: 0, Type: table.Discard, Tile: one("1m"), Tsumogiri: true},
		{Seat: 0, Type: table.Riichi, Tile: one("9m")}, {Seat: 0, Type: table.ClosedKan, Tile: one("2z")},
		{Seat: 0, Type: table.AddedKan, Tile: one("0s")}, {Seat: 0, Type: table.NineTerminals},
	}},
	table.RiichiAccepted{Seat: 3, Scores: scores(25000, 25000, 25000, 24000), RiichiSticks: 1},
	table.Called{Seat: 1, Meld: meld(judge.Chi, "34m0m", 0, "3m", ""), Scores: scores(1, 2, 3, 4)},
	table.Called{Seat: 2, Meld: meld(judge.Pon, "777z", 0, "7z", ""), Scores: scores(1, 2, 3, 4)},
	table.Called{Seat: 2, Meld: meld(judge.OpenKan, "9999s", 3, "9s", ""), Scores: scores(1, 2, 3, 4)},
	table.Called{Seat: 2, Meld: meld(judge.AddedKan, "0555p", 1, "5p", "0p"), Scores: scores(1, 2, 3, 4)},
	table.Called{Seat: 2, Meld: meld(judge.ClosedKan, "1111z", 2, "1z", ""), Scores: scores(1, 2, 3, 4)},
	table.DoraRevealed{Indicator: one("9p")},
	table.Won{
		Seat: 1, From: 3, Hand: tile.MustParse("23m456p678s99s"), WinTile: one("1m"),
		Melds: []table.Meld{meld(judge.Pon, "777z", 0, "7z", "")},
		Ura:   tile.MustParse("8s2z"), Han: 3, Fu: 40, Points: 7700,
		Yaku:   []judge.YakuHan{{Yaku: judge.Riichi, Han: 1}, {Yaku: judge.YakuhaiChun, Han: 1}, {Yaku: judge.Dora, Han: 1}},
		Limit:  judge.LimitNone,
		Deltas: scores(0, 7700, 0, -7700),
	},
	table.Won{
		Seat: 0, From: 0, Tsumo: true, Hand: tile.MustParse("19m19p19s1234567z"), WinTile: one("1z"),
		Han: 13, Yakuman: 1, Yaku: []judge.YakuHan{{Yaku: judge.Kokushi, Han: 13}}, Limit: judge.Yakuman,
		Points: 48000, Deltas: scores(48000, -16000, -16000, -16000), Pao: 2, PaoSet: true,
	},
	table.RoundEnded{
		Kind: table.EndExhaustive, Deltas: scores(1500, -1500, 1500, -1500), Scores: scores(26500, 23500, 26500, 23500),
		Tenpai: [table.NumSeats]bool{true, false, true, false}, Hands: [table.NumSeats][]tile.Tile{tile.MustParse("123m456p789s1122z"), nil, tile.MustParse("11m"), nil},
		RiichiSticks: 1, Honba: 2, WallSeed: [32]byte{31: 9}, GameOver: true,
	},
	table.RoundEnded{Kind: table.EndTripleRon, Scores: scores(25000, 25000, 25000, 25000)},
	table.GameEnded{Scores: scores(40000, 30000, 20000, 10000), Ranks: scores(1, 2, 3, 4)},
}

// TestBodyRoundTrip converts every event body to the wire and back, and
// checks that every game event of the API is among them.
func TestBodyRoundTrip(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	cases := map[protoreflect.Name]bool{}
	for i, b := range testBodies {
		e, err := wire.EventToPB(uint64(i+1), at, b)
		if err != nil {
			t.Fatalf("EventToPB(%#v) = %v", b, err)
		}
		if e.GetSeq() != uint64(i+1) || !e.GetTime().AsTime().Equal(at) {
			t.Errorf("EventToPB(%d, %v, %T) = seq %d at %v", i+1, at, b, e.GetSeq(), e.GetTime().AsTime())
		}
		got, err := wire.BodyFromPB(e)
		if err != nil || !reflect.DeepEqual(got, b) {
			t.Errorf("BodyFromPB(EventToPB(%#v)) = %#v, %v (wire %v); want it back", b, got, err, e)
		}
		cases[e.ProtoReflect().WhichOneof(e.ProtoReflect().Descriptor().Oneofs().ByName("body")).Name()] = true
	}
	fields := (&pb.Event{}).ProtoReflect().Descriptor().Oneofs().ByName("body").Fields()
	for i := range fields.Len() {
		if fields.Get(i).Number() >= otherRuleSets {
			continue // another rule set's event
		}
		if name := fields.Get(i).Name(); !cases[name] && name != "seat_notice" {
			t.Errorf("no test body has the wire form %s", name)
		}
	}
	if _, err := wire.EventToPB(1, at, nil); err == nil {
		t.Errorf("EventToPB of a nil body: no error")
	}
	if _, err := wire.BodyFromPB(&pb.Event{Body: &pb.Event_SeatNotice{SeatNotice: &pb.SeatNotice{}}}); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("BodyFromPB of a seat notice = %v, want ErrMalformed", err)
	}
}

// TestEventToPBAllocs pins what converting the most frequent events costs
// in allocations: the server converts every event it sends. A discard, a
// draw or a shanten notice (without waits) is one allocation (the event,
// its time, body and oneof wrapper together); an offer adds its list of
// options and their messages (two), whatever their number, the tiles
// named without an allocation.
func TestEventToPBAllocs(t *testing.T) {
	at := time.Unix(1_700_000_000, 5)
	offer := []table.Action{
		{Seat: 1, Type: table.Discard, Tile: one("0p")},
		{Seat: 1, Type: table.Riichi, Tile: one("9s"), Tsumogiri: true},
		{Seat: 1, Type: table.Tsumo},
	}
	for _, c := range []struct {
		body table.Body
		want float64
	}{
		{table.Discarded{Seat: 1, Tile: one("5m"), Tsumogiri: true}, 1},
		{table.Drew{Seat: 1, Tile: one("7z"), Known: true, WallLeft: 40}, 1},
		{table.Fishing{Seat: 1, Shanten: 2}, 1},
		{table.TurnOffer{Seat: 1, Options: offer}, 3},
		{table.ClaimOffer{Seat: 2, Options: offer[2:]}, 3},
	} {
		if n := testing.AllocsPerRun(100, func() {
			if _, err := wire.EventToPB(7, at, c.body); err != nil {
				t.Fatal(err)
			}
		}); n != c.want {
			t.Errorf("EventToPB(%T) allocates %v times, want %v", c.body, n, c.want)
		}
	}
}

// TestMarshalEvent: MarshalEvent encodes exactly as proto.Marshal of
// EventToPB's message, offers of every length one after another
// included (their messages are reused), and an offer costs one
// allocation, its encoding.
func TestMarshalEvent(t *testing.T) {
	at := time.Unix(1_700_000_000, 5)
	long := []table.Action{
		{Seat: 1, Type: table.Discard, Tile: one("0p")},
		{Seat: 1, Type: table.Riichi, Tile: one("9s"), Tsumogiri: true},
		{Seat: 1, Type: table.ClosedKan, Tile: one("1z")},
		{Seat: 1, Type: table.Tsumo},
	}
	bodies := []table.Body{
		table.TurnOffer{Seat: 1, Options: long},
		table.ClaimOffer{Seat: 2, Options: []table.Action{{Seat: 2, Type: table.Pon, Tiles: [2]tile.Tile{one("5m"), one("5m")}}, {Seat: 2, Type: table.Pass}}},
		table.TurnOffer{Seat: 3, Options: long[:1]},
		table.ClaimOffer{Seat: 0},
		table.Discarded{Seat: 1, Tile: one("5m"), Tsumogiri: true},
		table.Drew{Seat: 1, Tile: one("7z"), Known: true, WallLeft: 40},
		table.GameEnded{Scores: [4]int{1, 2, 3, 4}},
	}
	for _, seq := range []uint64{0, 9} {
		for _, b := range bodies {
			ev, err := wire.EventToPB(seq, at, b)
			if err != nil {
				t.Fatal(err)
			}
			want, err := proto.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			got, err := wire.MarshalEvent(seq, at, b)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("MarshalEvent(%d, %+v) = %x, %v, want %x", seq, b, got, err, want)
			}
		}
	}
	if _, err := wire.MarshalEvent(1, at, nil); err == nil {
		t.Error("MarshalEvent of a body without a wire form: no error")
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := wire.MarshalEvent(7, at, bodies[0]); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("MarshalEvent(TurnOffer) allocates %v times, want 1", n)
	}
}

// BenchmarkMarshalEvent encodes a turn's events as the server shares
// them: a draw, its turn offer, a discard, a shanten notice and a claim
// offer.
func BenchmarkMarshalEvent(b *testing.B) {
	at := time.Unix(1_700_000_000, 5)
	opts := make([]table.Action, 0, 15)
	for _, s := range []string{"1m", "2m", "4p", "5p", "0p", "7s", "8s", "9s", "1z", "1z", "5z", "6z", "7z", "3m"} {
		opts = append(opts, table.Action{Seat: 1, Type: table.Discard, Tile: one(s)})
	}
	opts = append(opts, table.Action{Seat: 1, Type: table.Tsumo})
	turn := []table.Body{
		table.Drew{Seat: 1, Tile: one("3m"), Known: true, WallLeft: 50},
		table.TurnOffer{Seat: 1, Options: opts},
		table.Discarded{Seat: 1, Tile: one("1z")},
		table.Fishing{Seat: 1, Shanten: 1},
		table.ClaimOffer{Seat: 2, Options: []table.Action{{Seat: 2, Type: table.Pon, Tiles: [2]tile.Tile{one("1z"), one("1z")}}, {Seat: 2, Type: table.Pass}}},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range turn {
			if _, err := wire.MarshalEvent(0, at, body); err != nil {
				b.Fatal(err)
			}
		}
	}
}
