package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/servertest"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

func scTiles(s string) []tile.Tile { return tile.MustParse(s) }

// sichuanBoardView is a view of seat 1 in the middle of a bloody battle:
// void suits revealed, the exchange made, a kan paid, and seat 3 out of
// play after its win.
func sichuanBoardView() sc.View {
	v := sc.View{
		Seat: 1, Phase: sc.Turn, Index: 2, Dealer: 3, WallLeft: 31, ToAct: 1,
		Scores: [4]int{-5, 9, -12, 8}, Tiles: scTiles("2345m678p"), Drawn: scTiles("9p")[0], HasDrawn: true,
		Direction: sc.Across, Gave: [3]tile.Tile(scTiles("129s")), Got: [3]tile.Tile(scTiles("345m")), Chose: true,
		Void: tile.Sou, VoidSet: true, Revealed: true,
	}
	v.Seats[0] = sc.SeatView{Discards: []sc.DiscardView{{Tile: scTiles("1p")[0]}, {Tile: scTiles("9m")[0], Called: true}}, HandSize: 10, Void: tile.Pin, Score: -5}
	v.Seats[1] = sc.SeatView{Discards: []sc.DiscardView{{Tile: scTiles("1s")[0]}}, HandSize: 11,
		Melds: []sc.Meld{{Type: sc.MeldClosedKan, Kind: tile.P5, From: 1}}, Void: tile.Sou, Score: 9, KanMoney: 6}
	v.Seats[2] = sc.SeatView{Discards: []sc.DiscardView{{Tile: scTiles("7m")[0]}}, HandSize: 10,
		Melds: []sc.Meld{{Type: sc.MeldPon, Kind: tile.S3, From: 0}}, Void: tile.Man, Score: -12}
	v.Seats[3] = sc.SeatView{Discards: []sc.DiscardView{{Tile: scTiles("4s")[0]}}, HandSize: 13, Won: scTiles("9m"), Left: true, Void: tile.Pin, Score: 8}
	v.Legal = []sc.Action{{Seat: 1, Type: sc.Discard, Tile: scTiles("2m")[0]}, {Seat: 1, Type: sc.Tsumo}, {Seat: 1, Type: sc.Discard, Tile: scTiles("9p")[0]}}
	return v
}

// TestSichuanRenderGolden pins the Sichuan board, prompt and event lines.
func TestSichuanRenderGolden(t *testing.T) {
	n := &names{viewer: 1, name: [4]string{"ann", "", "bot", "bot"}}
	v := sichuanBoardView()
	var b strings.Builder
	b.WriteString(renderSichuanPrompt(&v, n, sc.Default, ""))
	ev := func(body sc.Body) { b.WriteString(sichuanEventLines(scEvent{Body: body}, n)) }
	ev(sc.HandStarted{Index: 2, Dealer: 3, Scores: [4]int{-5, 9, -12, 8}})
	ev(sc.ExchangeChosen{Seat: 0})
	ev(sc.ExchangeChosen{Seat: 1, Tiles: [3]tile.Tile(scTiles("129s")), Known: true})
	ev(sc.Exchanged{Direction: sc.Across})
	ev(sc.ExchangeReceived{Seat: 1, Gave: [3]tile.Tile(scTiles("129s")), Got: [3]tile.Tile(scTiles("345m")), From: 3})
	ev(sc.VoidChosen{Seat: 2})
	ev(sc.VoidChosen{Seat: 1, Suit: tile.Sou, Known: true})
	ev(sc.VoidsRevealed{Voids: [4]tile.Suit{tile.Pin, tile.Sou, tile.Man, tile.Pin}})
	ev(sc.Called{Seat: 1, Meld: sc.Meld{Type: sc.MeldClosedKan, Kind: tile.P5, From: 1}})
	ev(sc.KanPaid{Seat: 1, Type: sc.MeldClosedKan, Deltas: [4]int{-2, 6, -2, -2}})
	ev(sc.Won{Seat: 3, From: 0, WinTile: scTiles("9m")[0], Hand: scTiles("11m234p567p789p"), Fan: 1, Fans: []sc.Fan{{Name: "qing yi se", Fan: 2}}, Value: 2, Deltas: [4]int{-2, 0, 0, 2}, Left: true})
	ev(sc.KanTransferred{Seat: 1, To: 0, Units: 6})
	ev(sc.HandEnded{Kind: sc.EndWallEmpty, HuaZhu: [4]bool{false, false, true, false}, Ready: [4]bool{true, false, false, false},
		Hands: [4][]tile.Tile{scTiles("23m"), scTiles("1234m"), scTiles("5m1s"), nil}, HuaZhuPay: [4]int{8, 8, -16, 0}, ReadyPay: [4]int{4, -4, 0, 0},
		Refunds: [4]int{0, -6, 6, 0}, Deltas: [4]int{10, -2, -10, 2}, Scores: [4]int{5, 7, -22, 10}})
	ev(sc.MatchEnded{Scores: [4]int{5, 7, -22, 10}, Ranks: [4]int{3, 2, 4, 1}})
	golden(t, "sichuan_board.txt", b.String())
	for _, want := range []string{"void p", "out of play", "kan money +6", "exchange across", "+9 units", "hua zhu"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("board has no %q", want)
		}
	}
}

func TestParseSichuanAnswer(t *testing.T) {
	v := sichuanBoardView()
	for _, tc := range []struct {
		in   string
		want sc.ActionType
		ok   bool
	}{{"1", sc.Tsumo, true}, {"tsumo", sc.Tsumo, true}, {"9p", sc.Discard, true}, {"3s", 0, false}, {"p", 0, false}, {"7", 0, false}} {
		a, err := parseSichuanAnswer(tc.in, &v)
		if (err == nil) != tc.ok || tc.ok && a.Type != tc.want {
			t.Errorf("parseSichuanAnswer(%q) = %v, %v", tc.in, a, err)
		}
	}
	v = sc.View{Seat: 0, Phase: sc.ChoosingVoid}
	for su := tile.Man; su <= tile.Sou; su++ {
		v.Legal = append(v.Legal, sc.Action{Type: sc.Void, Suit: su})
	}
	if a, err := parseSichuanAnswer("p", &v); err != nil || a.Suit != tile.Pin {
		t.Errorf("void p = %v, %v", a, err)
	}
	v = sc.View{Seat: 0, Phase: sc.Exchanging, Tiles: scTiles("1199m2p34567s")}
	c := tile.CountsOf(v.Tiles)
	v.Legal = sc.AppendExchanges(nil, 0, &c)
	if a, err := parseSichuanAnswer("919m", &v); err != nil || a.Tiles != [3]tile.Tile(scTiles("199m")) {
		t.Errorf("exchange 919m = %v, %v", a, err)
	}
	if _, err := parseSichuanAnswer("12p", &v); err == nil {
		t.Error("an exchange of two tiles was taken")
	}
}

// TestPlaySichuanWholeGame plays `tablectl play --rules sichuan` against a
// real server to the end of the match, answering every prompt as the
// answerer does: pass a claim, else the first choice.
func TestPlaySichuanWholeGame(t *testing.T) {
	addr := servertest.Start(t, servertest.Standard()).Addr
	in, feed := io.Pipe()
	out := &answerer{answers: make(chan string, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range out.answers {
			if _, err := io.WriteString(feed, s); err != nil {
				return
			}
		}
	}()
	var errOut bytes.Buffer
	err := run([]string{"play", "--addr", addr, "--rules", "sichuan", "--seed", "sichuan test", "--round-pause", "1ms"}, in, out, &errOut)
	close(out.answers)
	feed.Close()
	<-done
	text := out.buf.String()
	if err != nil {
		t.Fatalf("play: %v\nstderr %s\nstdout tail %s", err, errOut.String(), tail(text, 2000))
	}
	for _, want := range []string{"Choose three tiles", "Choose your void suit", "Void suits:", "Your turn. You may:", "=== hand 8", "The match is over"} {
		if !strings.Contains(text, want) {
			t.Errorf("output has no %q:\n%s", want, tail(text, 2000))
		}
	}
	if out.prompts < 50 {
		t.Errorf("%d prompts, want a whole match's", out.prompts)
	}
	if strings.Contains(text, "refused") {
		t.Errorf("the server refused an answer:\n%s", text)
	}
	if os.Getenv("SHOW_PLAY") != "" {
		t.Log(text)
	}
}

// TestSichuanBotsWatchAndRecords: `bots --rules sichuan` plays whole
// matches with its JSON summary; `watch` follows a Sichuan table of server
// bots; its record passes `verify`, `replay --rules sichuan` and `export`
// from stdin, and a changed record fails `verify`.
func TestSichuanBotsWatchAndRecords(t *testing.T) {
	addr := servertest.Start(t, servertest.Standard()).Addr
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--tables", "2", "--games", "1", "--rules", "sichuan", "--seed", "sichuan", "--progress", "100ms")
	if err != nil || sum.Games != 2 || sum.Errors != 0 || sum.Rounds != 16 || sum.Actions < 200 {
		t.Fatalf("bots: %+v, %v\n%s", sum, err, stderr)
	}

	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, owner, err := c.CreateTable(ctx, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, FillWithBots: true, Seed: make([]byte, 32),
		Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.StartTable(ctx, tb.GetTableId(), owner); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"watch", "--addr", addr, "--table", tb.GetTableId()}, nil, &out, &errOut); err != nil {
		t.Fatalf("watch: %v (%s)", err, errOut.String())
	}
	for _, want := range []string{"=== hand 1", "Void suits:", "void ", "units", "The match is over"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("watch output has no %q:\n%s", want, tail(out.String(), 1500))
		}
	}
	if strings.Contains(out.String(), "Your tiles") {
		t.Error("a spectator was shown a hand")
	}

	var rec bytes.Buffer
	if err := run([]string{"export", "--addr", addr, "--table", tb.GetTableId()}, nil, &rec, &errOut); err != nil {
		t.Fatalf("export: %v (%s)", err, errOut.String())
	}
	out.Reset()
	if err := run([]string{"verify"}, bytes.NewReader(rec.Bytes()), &out, &errOut); err != nil || !strings.Contains(out.String(), ": ok: 2 rounds") {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := run([]string{"replay", "--rules", "sichuan"}, bytes.NewReader(rec.Bytes()), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var o replay.Outcome
	if err := json.Unmarshal(out.Bytes(), &o); err != nil || !o.OK || len(o.Rounds) != 2 || o.FinalScores == nil {
		t.Fatalf("replay: %s, %v", out.String(), err)
	}
	out.Reset()
	if err := run([]string{"export"}, bytes.NewReader(rec.Bytes()), &out, &errOut); err != nil || out.String() != rec.String() {
		t.Fatalf("export from stdin: %v\n%s\nwant\n%s", err, out.String(), rec.String())
	}
	if err := run([]string{"export", "--format", "tenhou"}, bytes.NewReader(rec.Bytes()), &out, &errOut); err == nil {
		t.Error("a Sichuan record was exported as tenhou.net/6")
	}
	var g map[string]any
	if err := json.Unmarshal(rec.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	g["rounds"].([]any)[1].(map[string]any)["result"].(map[string]any)["deltas"].([]any)[0] = 99.0
	bad, _ := json.Marshal(g)
	out.Reset()
	if err := run([]string{"verify"}, bytes.NewReader(bad), &out, &errOut); err == nil || !strings.Contains(out.String(), "FAILED") {
		t.Fatalf("verify of a changed record: %v\n%s", err, out.String())
	}
}
