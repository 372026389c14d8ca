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
	"syscall"
	"testing"
	"time"
	"unicode"

	"google.golang.org/protobuf/types/known/durationpb"

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

// TestRefusedAnswerSaysWhy names the reason an answer is refused: a tile
// not held, a discard after riichi, kuikae after a call, a claim to pass
// that is not there, a discard during a claim window.
func TestRefusedAnswerSaysWhy(t *testing.T) {
	v := boardView()
	// After a chi of 3m with 45m: no draw, and 3m and 6m may not go.
	called := boardView()
	called.HasDrawn, called.Drawn, called.Hand = false, 0, tt("2336m406p5789s11z")
	called.Legal = nil
	for _, x := range tt("2m0p4p6p5s7s8s9s1z") {
		called.Legal = append(called.Legal, table.Action{Type: table.Discard, Tile: x})
	}
	riichi := boardView()
	riichi.Seats[0].Riichi = true
	riichi.Legal = []table.Action{{Type: table.Discard, Tile: t1("6s"), Tsumogiri: true}, {Type: table.Tsumo}}
	claim := boardView()
	claim.Phase, claim.ToAct, claim.HasDrawn = table.ClaimWindow, 3, false
	claim.Legal = []table.Action{{Type: table.Pon, Tiles: [2]tile.Tile{t1("1z"), t1("1z")}}, {Type: table.Pass}}
	for _, c := range []struct {
		name, in string
		v        table.View
		want     string
	}{
		{"not held", "9p", v, "you have no 9p"},
		{"kuikae", "3m", called, "kuikae"},
		{"kuikae other end", "6m", called, "kuikae"},
		{"riichi", "2m", riichi, "after riichi you may discard only the tile you drew (6s)"},
		{"no claim", "p", v, "no claim to pass"},
		{"claim window", "1z", claim, "answer the claim"},
		{"not offered", "ron", v, `"ron" is not among your choices now`},
	} {
		_, err := parseAnswer(c.in, choices(&c.v, t1("1z")), &c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: parseAnswer(%q) = %v, want an error saying %q", c.name, c.in, err, c.want)
		}
	}
}

// TestPaymentAddsUp shows a win's payment in one line whose parts add up
// to what the winner receives, sticks and honba included.
func TestPaymentAddsUp(t *testing.T) {
	n := &names{viewer: 0}
	for _, c := range []struct {
		w    table.Won
		want string
	}{
		{table.Won{Seat: 3, From: 1, Deltas: [4]int{0, -8000, 0, 10000}}, "S1 8000 + 2 riichi sticks 2000 = S3 +10000"},
		{table.Won{Seat: 1, Tsumo: true, Deltas: [4]int{-2100, 9300, -4100, -2100}}, "you 2100 + S2 4100 + S3 2100 + 1 riichi stick 1000 = S1 +9300"},
		{table.Won{Seat: 2, From: 0, Deltas: [4]int{-3900, 0, 3900, 0}}, "you 3900 = S2 +3900"},
		// Pao: the liable seat pays half of a ron.
		{table.Won{Seat: 1, From: 2, Deltas: [4]int{0, 32000, -16000, -16000}}, "S2 16000 + S3 16000 = S1 +32000"},
	} {
		if got := payment(c.w, n); got != c.want {
			t.Errorf("payment(%v) = %q, want %q", c.w.Deltas, got, c.want)
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
	case strings.Contains(block, "Start it now"):
		a.answers <- "y\n"
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

// TestPlayInterrupted leaves the game at once on Ctrl-C at the prompt,
// and the seat goes to a bot at once.
func TestPlayInterrupted(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	in, feed := io.Pipe()
	defer feed.Close()
	out := &promptWatcher{prompt: make(chan struct{}, 1)}
	var errOut bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"play", "--addr", addr, "--rules", "tonpuu", "--seed", "interrupt"}, in, out, &errOut)
	}()
	select {
	case <-out.prompt:
	case err := <-done:
		t.Fatalf("play ended before its first prompt: %v\n%s", err, errOut.String())
	case <-time.After(20 * time.Second):
		t.Fatal("no prompt")
	}
	start := time.Now()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("play after Ctrl-C = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("play did not leave on Ctrl-C")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("play took %v to leave", d)
	}
	text := out.String()
	if !strings.Contains(text, "You left the table; a bot plays your seat from now on.") {
		t.Fatalf("no word of leaving:\n%s", tail(text, 1000))
	}
	id := strings.Fields(strings.TrimPrefix(text[strings.Index(text, "Table "):], "Table "))[0]
	id = strings.TrimSuffix(id, ":")
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tb, err := c.GetTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range tb.GetSeats() {
		if !si.GetBot() {
			t.Errorf("seat %d is not played by a bot after the player left: %v", si.GetSeat(), si)
		}
	}
}

// promptWatcher is an output that tells when a prompt is shown.
type promptWatcher struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prompt chan struct{}
}

func (w *promptWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.HasSuffix(w.buf.String(), "> ") {
		select {
		case w.prompt <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

func (w *promptWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestPlayJoinedTableStarts offers to start a table joined with --table
// that has not started, and plays it to its end.
func TestPlayJoinedTableStarts(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tb, _, err := c.CreateTable(context.Background(), &pb.TableSettings{
		Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, FillWithBots: true, Seed: make([]byte, 32),
		RoundPause: durationpb.New(time.Millisecond),
	})
	if err != nil {
		t.Fatal(err)
	}
	text, err := playWith(t, "play", "--addr", addr, "--table", tb.GetTableId())
	if err != nil {
		t.Fatalf("play --table: %v\n%s", err, tail(text, 2000))
	}
	for _, want := range []string{"The table has not started: 1 of 4 seats taken. Start it now", "Started.", "=== Game over ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("output has no %q:\n%s", want, tail(text, 2000))
		}
	}
}

// playWith runs tablectl with args, answering its prompts as answerer does.
func playWith(t *testing.T, args ...string) (string, error) {
	t.Helper()
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
	// A game that does not end within a minute is a failure, not a hang:
	// Ctrl-C makes play leave, and the caller finds no end of the game.
	watchdog := time.AfterFunc(time.Minute, func() { syscall.Kill(os.Getpid(), syscall.SIGINT) })
	err := run(args, in, out, &errOut)
	watchdog.Stop()
	close(out.answers)
	feed.Close()
	<-done
	return out.buf.String() + errOut.String(), err
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
	for _, want := range []string{"Watching table", "=== East 1", "S1: discard", "paid:", "=== Game over ==="} {
		if !strings.Contains(text, want) {
			t.Errorf("watch output has no %q:\n%s", want, tail(text, 1500))
		}
	}
	// What changed, not the board: no pond, and no more lines than a
	// discard's each, a round's few and the game's end.
	discards := strings.Count(text, ": discard ") + strings.Count(text, "discarding")
	if strings.Contains(text, "pond") || strings.Count(text, "\n") > discards+40*strings.Count(text, "=== East") {
		t.Errorf("watch drew more than what changed (%d lines for %d discards):\n%s", strings.Count(text, "\n"), discards, tail(text, 1500))
	}
	out.Reset()
	if err := run([]string{"watch", "--addr", addr, "--table", tb.GetTableId(), "--board"}, nil, &out, &errOut); err != nil {
		t.Fatalf("watch --board: %v (%s)", err, errOut.String())
	}
	if text := out.String(); !strings.Contains(text, "pond") || strings.Contains(text, "your hand") {
		t.Errorf("watch --board drew no board, or a hand:\n%s", tail(text, 1500))
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
