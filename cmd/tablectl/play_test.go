package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/servertest"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "play", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (rerun with -update and review the diff):\n%s", path, got)
	}
}

func tt(s string) []tile.Tile { return tile.MustParse(s) }
func t1(s string) tile.Tile   { return tile.MustParse(s)[0] }

func meldOf(typ judge.MeldType, tiles string, from table.Seat, called string) table.Meld {
	m := table.Meld{Meld: judge.Meld{Type: typ}, From: from, Called: t1(called)}
	copy(m.Tiles[:], tt(tiles))
	return m
}

// boardView is a made-up view with something of everything: riichi, a
// called discard, melds of every kind, dora, sticks, a drawn tile.
func boardView() table.View {
	v := table.View{
		Seat: 0, Phase: table.Turn, RoundWind: tile.WindSouth, Number: 3, Dealer: 2, Honba: 1, RiichiSticks: 2,
		Scores: [4]int{23000, 31000, 18000, 26000}, Dora: tt("3p7z"), WallLeft: 41, ToAct: 0,
		Hand: tt("234m406p5789s112z"), Drawn: t1("6s"), HasDrawn: true,
	}
	v.Seats[0] = table.SeatView{Discards: []table.DiscardView{{Tile: t1("9m")}, {Tile: t1("1p"), Tsumogiri: true}, {Tile: t1("4z")}}, HandSize: 14, Score: 23000}
	v.Seats[1] = table.SeatView{Discards: []table.DiscardView{{Tile: t1("1z")}, {Tile: t1("3m"), Called: true}, {Tile: t1("8p"), Riichi: true}, {Tile: t1("2s"), Tsumogiri: true}}, HandSize: 13, Riichi: true, Score: 31000}
	added := meldOf(judge.AddedKan, "0555s", 3, "5s")
	added.Added = t1("0s")
	v.Seats[2] = table.SeatView{Discards: []table.DiscardView{{Tile: t1("9s")}, {Tile: t1("6z")}}, HandSize: 7,
		Melds: []table.Meld{meldOf(judge.Chi, "345m", 1, "3m"), added}, Score: 18000}
	v.Seats[3] = table.SeatView{Discards: []table.DiscardView{{Tile: t1("7p")}, {Tile: t1("1s")}}, HandSize: 10,
		Melds: []table.Meld{meldOf(judge.ClosedKan, "7777z", 3, "7z")}, Score: 26000}
	for _, x := range tt("234m406p5789s12z") {
		v.Legal = append(v.Legal, table.Action{Type: table.Discard, Tile: x})
	}
	v.Legal = append(v.Legal,
		table.Action{Type: table.Discard, Tile: t1("6s"), Tsumogiri: true},
		table.Action{Type: table.Riichi, Tile: t1("2z")},
		table.Action{Type: table.Riichi, Tile: t1("6s"), Tsumogiri: true},
		table.Action{Type: table.Tsumo})
	return v
}

// TestRenderGolden pins the board and the prompts.
func TestRenderGolden(t *testing.T) {
	n := &names{viewer: 0, name: [4]string{"me", "Aki", "bot", "bot"}}
	v := boardView()
	var b strings.Builder
	b.WriteString(renderPrompt(&v, n, &table.Fishing{Shanten: 1}, 0, ""))
	b.WriteString("\n")
	v.Phase, v.ToAct, v.HasDrawn = table.ClaimWindow, 3, false
	v.Seats[3].Discards = append(v.Seats[3].Discards, table.DiscardView{Tile: t1("5p")})
	v.Legal = []table.Action{
		{Type: table.Ron}, {Type: table.Chi, Tiles: [2]tile.Tile{t1("4p"), t1("6p")}},
		{Type: table.Chi, Tiles: [2]tile.Tile{t1("6p"), t1("7p")}}, {Type: table.Pass},
	}
	b.WriteString(renderPrompt(&v, n, &table.Fishing{Shanten: 0, Waits: tile.SetOf(tile.P5, tile.P8), Furiten: true}, t1("5p"), "S3 discarded 5p"))
	b.WriteString("\n")
	w := boardView()
	w.Seat, w.Hand, w.HasDrawn, w.Legal = client.Spectator, nil, false, nil
	b.WriteString(renderBoard(&w, &names{viewer: client.Spectator}, nil))
	golden(t, "board.txt", b.String())
}

// TestRenderGameGolden pins the event lines of a whole seeded game (calls,
// wins, draws) and the boards of seat 0's first decisions, built by the
// client's tracker.
func TestRenderGameGolden(t *testing.T) {
	eng, err := table.New(table.Config{Rules: table.TenhouTonpuu})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 calls at random, the others play for wins.
	bots := [4]bot.Bot{bot.NewRandom(40), bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
	tr := client.NewTracker(0)
	n := &names{viewer: 0}
	var b strings.Builder
	var ws [32]byte
	boards := 0
	for steps := 0; eng.Phase() != table.GameOver; steps++ {
		if steps > 5000 {
			t.Fatal("game too long")
		}
		var a table.Action
		if eng.Phase() == table.BetweenRounds {
			binary.LittleEndian.PutUint32(ws[:], uint32(steps))
			w := wall.New(ws, true)
			a = table.Action{Type: table.Deal, Wall: &w}
		} else {
			for s := range table.Seat(4) {
				if eng.Waiting(s) {
					v := eng.View(s)
					a, _ = bots[s].Act(&v)
					if s == 0 {
						tr.Answered()
					}
					break
				}
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) > 0 && eng.Phase() == table.Turn && len(eng.Legal(0)) > 0 {
			evs = append(evs, table.Event{To: table.Only(0), Body: table.TurnOffer{Seat: 0, Options: eng.Legal(0)}})
		}
		for _, e := range evs {
			if !e.To.Sees(0) {
				continue
			}
			if err := tr.Apply(e.Body); err != nil {
				t.Fatal(err)
			}
			b.WriteString(eventLines(client.Event{Body: e.Body}, n))
		}
		if v := tr.View(); len(v.Legal) > 0 && boards < 3 {
			boards++
			b.WriteString(renderPrompt(v, n, tr.Fishing(), tr.ClaimTile(), "the last discard"))
		}
	}
	out := b.String()
	for _, want := range []string{"wins by", "yaku", "Round over", "Game over", "discard"} {
		if !strings.Contains(out, want) {
			t.Errorf("the game's lines have no %q", want)
		}
	}
	golden(t, "game.txt", out)
}

func TestParseAnswer(t *testing.T) {
	v := boardView()
	cs := choices(&v, 0)
	for _, c := range []struct {
		in   string
		want table.Action
	}{
		{"1", table.Action{Type: table.Tsumo}},
		{"t", table.Action{Type: table.Discard, Tile: t1("6s"), Tsumogiri: true}},
		{"6s", table.Action{Type: table.Discard, Tile: t1("6s"), Tsumogiri: true}},
		{"0p", table.Action{Type: table.Discard, Tile: t1("0p")}},
		{"5p", table.Action{Type: table.Discard, Tile: t1("0p")}},
		{"4m", table.Action{Type: table.Discard, Tile: t1("4m")}},
		{"riichi 2z", table.Action{Type: table.Riichi, Tile: t1("2z")}},
		{"r 6s", table.Action{Type: table.Riichi, Tile: t1("6s"), Tsumogiri: true}},
		{"tsumo", table.Action{Type: table.Tsumo}},
	} {
		got, err := parseAnswer(c.in, cs, &v)
		if err != nil || got != c.want {
			t.Errorf("parseAnswer(%q) = %v, %v, want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"0", "99", "p", "ron", "9p", "riichi 4m", "hello", "riichi"} {
		if got, err := parseAnswer(in, cs, &v); err == nil {
			t.Errorf("parseAnswer(%q) = %v, want an error", in, got)
		}
	}
}

// answerer plays the human of `tablectl play` in tests: it reads the
// output, and at each prompt answers tsumogiri when the drawn tile may be
// discarded, pass when a claim may be passed, and the first choice
// otherwise.
type answerer struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	answers  chan string
	prompts  int
	lastSeen int
}

func (a *answerer) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.buf.Write(p)
	out := a.buf.String()
	if !strings.HasSuffix(out, "> ") {
		return len(p), nil
	}
	block := out[a.lastSeen:]
	a.lastSeen = len(out)
	a.prompts++
	switch {
	case strings.Contains(block, "(drawn)"):
		a.answers <- "t\n"
	case strings.Contains(block, ") pass"):
		a.answers <- "p\n"
	default:
		a.answers <- "1\n"
	}
	return len(p), nil
}

// TestPlayWholeGame plays `tablectl play` against a real server to the end
// of an east-only game, answering every prompt through its input.
func TestPlayWholeGame(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
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
	err := run([]string{"play", "--addr", addr, "--rules", "tonpuu", "--seed", "play test", "--round-pause", "1ms"}, in, out, &errOut)
	close(out.answers)
	feed.Close()
	<-done
	text := out.buf.String()
	if err != nil {
		t.Fatalf("play: %v\nstderr %s\nstdout tail %s", err, errOut.String(), tail(text, 2000))
	}
	if out.prompts < 20 {
		t.Errorf("%d prompts, want a whole game's", out.prompts)
	}
	for _, want := range []string{"You may:", "your hand", "pond", "=== East 1: dealer", "Round over", "=== Game over ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("output has no %q:\n%s", want, tail(text, 2000))
		}
	}
	if os.Getenv("SHOW_PLAY") != "" {
		t.Log(text)
	}
	if strings.Contains(text, "refused") {
		t.Errorf("the server refused an answer:\n%s", text)
	}
}

// TestPlayInputEnds stops with an error when the input ends.
func TestPlayInputEnds(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	var out, errOut bytes.Buffer
	err := run([]string{"play", "--addr", addr, "--rules", "tonpuu"}, strings.NewReader("hello\n"), &out, &errOut)
	if err != errInputEnded {
		t.Fatalf("play with one bad answer = %v, want errInputEnded", err)
	}
	if !strings.Contains(out.String(), `"hello" is neither a choice nor a tile`) {
		t.Errorf("no complaint about the bad answer:\n%s", tail(out.String(), 1000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// TestWatch follows a table of four server bots to its end.
func TestWatch(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, owner, err := c.CreateTable(ctx, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, FillWithBots: true, Seed: make([]byte, 32)})
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
	text := out.String()
	for _, want := range []string{"Watching table", "=== East 1", "pond", "S1 bot", "=== Game over ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("watch output has no %q:\n%s", want, tail(text, 1500))
		}
	}
	if strings.Contains(text, "your hand") {
		t.Error("a spectator was shown a hand")
	}
	if err := run([]string{"watch", "--addr", addr}, nil, &out, &errOut); err != errUsage {
		t.Errorf("watch without --table = %v, want a usage error", err)
	}
}

// TestNamesArePrintable shows names with control characters (from a server
// that lets them through) escaped, so that no name can rewrite the
// terminal of the player who reads it.
func TestNamesArePrintable(t *testing.T) {
	evil := "x\x1b[2J\ny\u202e"
	n := tableNames(&pb.Table{Seats: []*pb.SeatInfo{{Name: evil}, {}, {}, {}}}, 3)
	n.learn(client.Event{Notice: &pb.SeatNotice{Kind: pb.SeatNotice_KIND_JOINED, Seat: 1, Name: evil}})
	for s := range table.Seat(2) {
		got := n.of(s)
		if strings.ContainsFunc(got, func(r rune) bool { return !unicode.IsPrint(r) }) {
			t.Errorf("seat %d is shown as %q", s, got)
		}
		if want := `S` + strconv.Itoa(int(s)) + ` x\x1b[2J\ny\u202e`; got != want {
			t.Errorf("seat %d is shown as %q, want %q", s, got, want)
		}
	}
}
