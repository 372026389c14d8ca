package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/servertest"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// TestMCRBoard: the board shows every seat's wind, flowers, pond and
// melds, a concealed kong of another seat face down, the viewer's hand
// and drawn tile.
func TestMCRBoard(t *testing.T) {
	v := tmcr.View{Seat: 1, Phase: tmcr.Turn, Hand: 5, Round: tile.WindSouth, Dealer: 2, ToAct: 1,
		Winds: [4]tile.Wind{tile.WindWest, tile.WindNorth, tile.WindEast, tile.WindSouth}, WallLeft: 57,
		Tiles: tile.MustParse("123m456p789s1122z"), Drawn: tile.MustParse("5s")[0], HasDrawn: true}
	v.Seats[0] = tmcr.SeatView{Flowers: tile.MustParse("3f7f"), Score: 24, Discards: []tmcr.DiscardView{{Tile: tile.MustParse("1z")[0]}, {Tile: tile.MustParse("9m")[0], Called: true}},
		Melds: []tmcr.Meld{{Type: tmcr.MeldClosedKan, From: 0, Hidden: true}}}
	v.Seats[3] = tmcr.SeatView{Melds: []tmcr.Meld{{Type: tmcr.MeldChi, Kind: tile.MustParse("3p")[0].Kind(), Called: tile.MustParse("4p")[0].Kind(), From: 2}}, Score: -24}
	got := renderMCRBoard(&v, &names{viewer: 1, name: [4]string{"ann", "", "bob", ""}})
	for _, want := range []string{
		"== South round, hand 6 | wall 57 ==",
		"  West  S0 ann             24",
		"      flowers 3f 7f",
		"      pond    1z (9m)",
		"kong (concealed)",
		"> North S1 (you)",
		"chow 345p (4p from S2)",
		"  your hand  123m 456p 789s 1122z   drew 5s",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("board has no %q:\n%s", want, got)
		}
	}
}

// TestMCRWinLines: a win shows every fan with its points, the total with
// and without flowers, and the payments.
func TestMCRWinLines(t *testing.T) {
	w := tmcr.Won{Seat: 2, From: 0, WinTile: tile.MustParse("5p")[0], Hand: tile.MustParse("123m456p789s11z5p"), Flowers: 2, Total: 20,
		Fans:   []tmcr.Fan{{Name: "mixed_straight", Count: 1, Points: 8}, {Name: "all_types", Count: 1, Points: 6}, {Name: "single_wait", Count: 1, Points: 1}, {Name: "flower_tiles", Count: 2, Points: 2}},
		Deltas: [4]int{-28, -8, 44, -8}, Scores: [4]int{-28, -8, 44, -8}}
	got := mcrEventLines(mcrEvent{Body: w}, &names{viewer: 2})
	for _, want := range []string{"you wins on 5p from S0!", "mixed straight", "all types", "single wait", "flower tiles                  2 x 1   =   2", "total", "20   (18 without flowers)", "payments: S0 -28, S1 -8, you +44, S3 -8"} {
		if !strings.Contains(got, want) {
			t.Errorf("win lines have no %q:\n%s", want, got)
		}
	}
}

// TestMCRParseAnswer reads the answers a player types.
func TestMCRParseAnswer(t *testing.T) {
	x := func(s string) tile.Tile { return tile.MustParse(s)[0] }
	v := &tmcr.View{Seat: 0, Phase: tmcr.Turn, HasDrawn: true, Drawn: x("7s"), Legal: []tmcr.Action{
		{Type: tmcr.Discard, Tile: x("1m")}, {Type: tmcr.Discard, Tile: x("7s")}, {Type: tmcr.Tsumo}, {Type: tmcr.ClosedKan, Tile: x("2z")},
	}}
	cs := mcrChoices(v)
	for in, want := range map[string]tmcr.Action{
		"1": {Type: tmcr.Tsumo}, "h": {Type: tmcr.Tsumo}, "t": {Type: tmcr.Discard, Tile: x("7s")}, "1m": {Type: tmcr.Discard, Tile: x("1m")},
		"2": {Type: tmcr.ClosedKan, Tile: x("2z")}, "3": {Type: tmcr.Discard, Tile: x("7s")},
	} {
		if got, err := parseMCRAnswer(in, cs, v); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"9", "p", "5z", "x"} {
		if _, err := parseMCRAnswer(in, cs, v); err == nil {
			t.Errorf("%q was taken", in)
		}
	}
}

// TestMCRPlayWholeGame plays `tablectl play --rules mcr` against a real
// server to the end of a one-hand game.
func TestMCRPlayWholeGame(t *testing.T) {
	addr := servertest.Start(t, servertest.RiichiAndMCR()).Addr
	for _, seed := range []string{"mcr 1", "mcr 2", "mcr 3"} {
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
		err := run([]string{"play", "--addr", addr, "--rules", "mcr", "--hands", "1", "--seed", seed, "--round-pause", "1ms"}, in, out, &errOut)
		close(out.answers)
		feed.Close()
		<-done
		text := out.buf.String()
		if err != nil {
			t.Fatalf("play: %v\nstderr %s\nstdout tail %s", err, errOut.String(), tail(text, 2000))
		}
		for _, want := range []string{"Chinese Official table", "You may:", "your hand", "flowers ", "=== East round, hand 1: dealer", "Hand over", "=== Game over ===", "table points"} {
			if !strings.Contains(text, want) {
				t.Errorf("output has no %q:\n%s", want, tail(text, 2000))
			}
		}
		if strings.Contains(text, "refused") {
			t.Errorf("the server refused an answer:\n%s", text)
		}
	}
}

// TestMCRWatchExportVerify follows an MCR table of bots with `watch`, then
// exports its record and verifies it with `verify`, and finds a changed
// record.
func TestMCRWatchExportVerify(t *testing.T) {
	addr := servertest.Start(t, servertest.RiichiAndMCR()).Addr
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	set := mcrSettings(3)
	set.FillWithBots, set.Seed = true, make([]byte, 32)
	tb, owner, err := c.CreateTable(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.StartTable(ctx, tb.GetTableId(), owner); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"watch", "--addr", addr, "--table", tb.GetTableId(), "--board"}, nil, &out, &errOut); err != nil {
		t.Fatalf("watch: %v (%s)", err, errOut.String())
	}
	text := out.String()
	for _, want := range []string{"Watching table", "=== East round, hand 1", "flowers ", "set aside", "pond", "=== Game over ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("watch output has no %q:\n%s", want, tail(text, 1500))
		}
	}
	if strings.Contains(text, "your hand") {
		t.Error("a spectator was shown a hand")
	}

	var rec bytes.Buffer
	if err := run([]string{"export", "--addr", addr, "--table", tb.GetTableId(), "--format", "native"}, nil, &rec, &errOut); err != nil {
		t.Fatalf("export: %v (%s)", err, errOut.String())
	}
	if !strings.Contains(rec.String(), `"variant":"mcr"`) {
		t.Fatalf("record %s", tail(rec.String(), 300))
	}
	var rep bytes.Buffer
	if err := run([]string{"verify"}, bytes.NewReader(rec.Bytes()), &rep, &errOut); err != nil || !strings.Contains(rep.String(), "ok: 3 rounds") || !strings.Contains(rep.String(), "replay agrees") {
		t.Fatalf("verify: %v\n%s", err, rep.String())
	}
	var again bytes.Buffer
	if err := run([]string{"export", "--rules", "mcr"}, bytes.NewReader(rec.Bytes()), &again, &errOut); err != nil || again.String() != rec.String() {
		t.Fatalf("export of the record from stdin: %v\n%s", err, again.String())
	}
	if err := run([]string{"export", "--rules", "mcr", "--format", "tenhou"}, bytes.NewReader(rec.Bytes()), &again, &errOut); err == nil {
		t.Error("an MCR record exported as tenhou.net/6")
	}
	bad := strings.Replace(rec.String(), `"result":{"kind":"`, `"result":{"kind":"x`, 1)
	rep.Reset()
	if err := run([]string{"verify", "--rules", "mcr"}, strings.NewReader(bad), &rep, &errOut); err == nil || !strings.Contains(rep.String(), "FAILED") {
		t.Fatalf("verify of a changed record: %v\n%s", err, rep.String())
	}
}

// TestMCRBots runs `tablectl bots --rules mcr`: every game ends, without
// an error.
func TestMCRBots(t *testing.T) {
	addr := servertest.Start(t, servertest.RiichiAndMCR()).Addr
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--tables", "2", "--games", "2", "--rules", "mcr", "--hands", "2", "--seed", "mcr", "--progress", "100ms")
	if err != nil {
		t.Fatalf("bots: %v\n%s", err, stderr)
	}
	if sum.Tables != 2 || sum.Games != 4 || sum.Errors != 0 || sum.Rounds != 8 || sum.Actions < 100 {
		t.Errorf("summary %+v: want 2 tables, 4 games of 2 hands, no error", sum)
	}
	if _, _, err := runBotsOnErr(t, "--rules", "mcr", "--hands", "17"); err != errUsage {
		t.Errorf("--hands 17 = %v, want a usage error", err)
	}
	_ = pb.RuleSet_RULE_SET_MCR
}

// runBotsOnErr runs `tablectl bots` for its error alone.
func runBotsOnErr(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(append([]string{"bots"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), err
}
