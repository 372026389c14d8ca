package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	ddzpb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/bot"
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	ddzclient "github.com/mahjong-authority/authority/internal/doudizhu/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

func init() {
	commands["ddz"] = command{summary: "Dou Dizhu tables of a running server: play, watch, bots, export", run: runDdz}
}

const ddzUsage = `usage: tablectl ddz <play|watch|bots|export> [flags]

  play    play one seat against two server bots in the terminal
  watch   follow a table's public events as a spectator
  bots    load-test: N tables of three bot clients over gRPC, M matches each
  export  write a table's native record (one JSON line; check it with tablectl verify)

(tablectl doudizhu is the play judge's JSON lines.)
`

func runDdz(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, ddzUsage)
		return errUsage
	}
	switch args[0] {
	case "play":
		return runDdzPlay(args[1:], stdin, stdout, stderr)
	case "watch":
		return runDdzWatch(args[1:], stdout, stderr)
	case "bots":
		return runDdzBots(args[1:], stdout, stderr)
	case "export":
		return runDdzExport(args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, ddzUsage)
	return errUsage
}

// ddzConnect is connect for Dou Dizhu's API.
func ddzConnect(addr string) (context.Context, *ddzclient.Client, func(), error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	c, err := ddzclient.Dial(addr)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return ctx, c, func() { c.Close(); stop() }, nil
}

func ddzBidding(s string) (ddzpb.Bidding, bool) {
	switch s {
	case "points":
		return ddzpb.Bidding_BIDDING_POINTS, true
	case "call_rob":
		return ddzpb.Bidding_BIDDING_CALL_ROB, true
	}
	return 0, false
}

// formatDdzEvent writes an event in a line for people.
func formatDdzEvent(e *ddzpb.Event) string {
	switch b := e.GetBody().(type) {
	case *ddzpb.Event_DealStarted:
		return fmt.Sprintf("deal %d (#%d) starts; seat %d bids first; scores %v", b.DealStarted.GetNumber(), b.DealStarted.GetIndex(), b.DealStarted.GetFirst(), b.DealStarted.GetScores())
	case *ddzpb.Event_Dealt:
		return fmt.Sprintf("your cards: %s", b.Dealt.GetHand())
	case *ddzpb.Event_BidMade:
		m := b.BidMade
		if m.GetType() == ddzpb.ActionType_ACTION_TYPE_BID {
			return fmt.Sprintf("seat %d bids %d", m.GetSeat(), m.GetBid())
		}
		return fmt.Sprintf("seat %d: %s (base %d)", m.GetSeat(), strings.ToLower(strings.TrimPrefix(m.GetType().String(), "ACTION_TYPE_")), m.GetBase())
	case *ddzpb.Event_ThrownIn:
		return fmt.Sprintf("all passed: thrown in (hands %v, kitty %s)", b.ThrownIn.GetHands(), b.ThrownIn.GetKitty())
	case *ddzpb.Event_LandlordChosen:
		return fmt.Sprintf("seat %d is the landlord (base %d); the kitty: %s", b.LandlordChosen.GetSeat(), b.LandlordChosen.GetBase(), b.LandlordChosen.GetKitty())
	case *ddzpb.Event_Played:
		p := b.Played
		return fmt.Sprintf("seat %d plays %s (%s), %d left", p.GetSeat(), p.GetPlay().GetCards(), strings.ToLower(strings.TrimPrefix(p.GetPlay().GetType().String(), "PLAY_TYPE_")), p.GetLeft())
	case *ddzpb.Event_Passed:
		if b.Passed.GetLead() {
			return fmt.Sprintf("seat %d passes; the last player leads", b.Passed.GetSeat())
		}
		return fmt.Sprintf("seat %d passes", b.Passed.GetSeat())
	case *ddzpb.Event_DealEnded:
		d := b.DealEnded
		who := "the farmers win"
		if d.GetLandlordWon() {
			who = "the landlord wins"
		}
		extra := ""
		if d.GetSpring() {
			extra = ", spring"
		}
		if d.GetAntiSpring() {
			extra = ", anti-spring"
		}
		return fmt.Sprintf("deal over: %s, stake %d (bombs %d%s); scores %v; hands left %v", who, d.GetStake(), d.GetBombs(), extra, d.GetScores(), d.GetHands())
	case *ddzpb.Event_MatchEnded:
		return fmt.Sprintf("match over: scores %v, places %v", b.MatchEnded.GetScores(), b.MatchEnded.GetRanks())
	case *ddzpb.Event_SeatNotice:
		n := b.SeatNotice
		return fmt.Sprintf("seat %d: %s %s", n.GetSeat(), strings.ToLower(strings.TrimPrefix(n.GetKind().String(), "KIND_")), printable(n.GetName()))
	}
	return ""
}

// ---- play

type ddzPlayOptions struct {
	addr, name, bidding, tableID string
	deals                        int
	turn                         time.Duration
}

const ddzPlayUsage = `usage: tablectl ddz play --addr HOST:PORT [flags]

Creates a Dou Dizhu table where the server's bots take the other two seats,
joins it and plays your seat in the terminal. When it is your turn your
choices are listed, numbered: type a number (a bid is among them),
cards ("33344"), p to pass, c to call or r to rob. With --table it joins an existing
table instead.

Flags:
`

func runDdzPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o ddzPlayOptions
	fs := newFlags("ddz play", ddzPlayUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.StringVar(&o.name, "name", "player", "your name at the table")
	fs.StringVar(&o.bidding, "bidding", "points", "points (叫分) or call_rob (叫地主/抢地主)")
	fs.IntVar(&o.deals, "deals", 1, "scored deals of the match")
	fs.StringVar(&o.tableID, "table", "", "join this table instead of creating one")
	fs.DurationVar(&o.turn, "turn-time", 5*time.Minute, "time for a turn before the server plays it for you")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	bidding, ok := ddzBidding(o.bidding)
	if fs.NArg() > 0 || !ok || o.deals < 1 || o.turn <= 0 {
		fmt.Fprintln(stderr, "tablectl ddz play: bad arguments")
		fs.Usage()
		return errUsage
	}
	ctx, c, closing, err := ddzConnect(o.addr)
	if err != nil {
		return err
	}
	defer closing()
	id, owner := o.tableID, ""
	if id == "" {
		r, err := c.Tables.CreateTable(ctx, &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{
			Bidding: bidding, Deals: uint32(o.deals), FillWithBots: true, TurnTime: durationpb.New(o.turn)}})
		if err != nil {
			return err
		}
		id, owner = r.GetTable().GetTableId(), r.GetOwnerToken()
	}
	seat, err := c.JoinTable(ctx, id, o.name)
	if err != nil {
		return err
	}
	if owner != "" {
		if _, err := c.Tables.StartTable(ctx, &ddzpb.StartTableRequest{TableId: id, Token: owner}); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "Table %s: you are seat %d (%s).\n", id, seat.Seat, o.name)
	s := c.Follow(seat, func(err error) { fmt.Fprintln(stderr, "warning:", err) })
	in := bufio.NewScanner(stdin)
	var plays []judge.Play
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if u.Event != nil {
			if line := formatDdzEvent(u.Event); line != "" && u.Event.GetOffer() == nil {
				fmt.Fprintln(stdout, line)
			}
		}
		if s.Over() || !s.MyTurn() || (u.Snapshot == nil && u.Event.GetOffer() == nil) {
			continue
		}
		v := s.View()
		var acts []table.Action
		if v.Phase == table.Bidding {
			acts = v.Legal
		} else {
			var prev *judge.Play
			if v.HasLast {
				prev = &v.Last
				acts = append(acts, table.Action{Seat: v.Seat, Type: table.Pass})
			}
			plays = judge.AppendLegal(plays[:0], &v.Hand, prev)
			judge.Sort(plays)
			for i := range plays {
				acts = append(acts, table.Action{Seat: v.Seat, Type: table.Play, Cards: plays[i].Cards})
			}
		}
		fmt.Fprintf(stdout, "\nYour hand: %s   cards left %v", v.Hand.String(), v.Left)
		if v.HasLast {
			fmt.Fprintf(stdout, "   to beat: %s by seat %d", v.Last.Cards.String(), v.LastBy)
		}
		fmt.Fprintln(stdout)
		for i, a := range acts {
			fmt.Fprintf(stdout, "  %2d) %v\n", i+1, a)
		}
		for {
			fmt.Fprint(stdout, "> ")
			if !in.Scan() {
				return errors.New("ddz play: input ended")
			}
			a, err := readDdzChoice(strings.TrimSpace(in.Text()), v, acts)
			if err != nil {
				fmt.Fprintln(stdout, err)
				continue
			}
			if _, err := s.Act(ctx, a); err != nil {
				fmt.Fprintln(stdout, "refused:", err)
				continue
			}
			break
		}
	}
}

// readDdzChoice reads a choice typed at the prompt.
func readDdzChoice(in string, v *table.View, acts []table.Action) (table.Action, error) {
	a := table.Action{Seat: v.Seat}
	switch {
	case in == "p":
		a.Type = table.Pass
		return a, nil
	case in == "c":
		a.Type = table.Call
		return a, nil
	case in == "r":
		a.Type = table.Rob
		return a, nil
	}
	if n, err := strconv.Atoi(in); err == nil {
		if n < 1 || n > len(acts) {
			return a, fmt.Errorf("choose 1 to %d", len(acts))
		}
		return acts[n-1], nil
	}
	c, err := card.Parse(strings.ToUpper(in))
	if err != nil {
		return a, err
	}
	a.Type, a.Cards = table.Play, c
	return a, nil
}

// ---- watch

func runDdzWatch(args []string, stdout, stderr io.Writer) error {
	var addr, id string
	fs := newFlags("ddz watch", "usage: tablectl ddz watch --addr HOST:PORT --table ID\n\nFlags:\n", stderr)
	addrFlag(fs, &addr)
	fs.StringVar(&id, "table", "", "the table to watch")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if id == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	ctx, c, closing, err := ddzConnect(addr)
	if err != nil {
		return err
	}
	defer closing()
	s := c.Watch(id, func(err error) { fmt.Fprintln(stderr, "warning:", err) })
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if line := formatDdzEvent(u.Event); line != "" {
			fmt.Fprintf(stdout, "%4d %s\n", u.Event.GetSeq(), line)
		}
	}
}

// ---- export

func runDdzExport(args []string, stdout, stderr io.Writer) error {
	var addr, id string
	fs := newFlags("ddz export", "usage: tablectl ddz export --addr HOST:PORT --table ID\n\nFlags:\n", stderr)
	addrFlag(fs, &addr)
	fs.StringVar(&id, "table", "", "the table to export")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if id == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	ctx, c, closing, err := ddzConnect(addr)
	if err != nil {
		return err
	}
	defer closing()
	r, err := c.Tables.ExportGame(ctx, &ddzpb.ExportGameRequest{TableId: id})
	if err != nil {
		return err
	}
	if r.GetPartial() {
		fmt.Fprintf(stderr, "partial record: the match is not over (%d deals so far)\n", r.GetDeals())
	}
	_, err = io.WriteString(stdout, r.GetRecord())
	return err
}

// ---- bots

type ddzBotsOptions struct {
	addr, bidding  string
	tables, games  int
	deals          int
	turn, pause    time.Duration
	timeout, every time.Duration
}

const ddzBotsUsage = `usage: tablectl ddz bots --addr HOST:PORT --tables N --games M [flags]

Plays N Dou Dizhu tables at once, each with three bot clients of its own
(one gRPC connection per client), each table M matches one after another.
Progress goes to stderr; the last line of stdout is the summary, the same
as tablectl bots' (rounds counts deals, thrown-in deals included):

  {"tables":N,"games":..,"rounds":..,"actions":..,"errors":..,"act_p50_ms":..,"act_p99_ms":..,"event_p99_ms":..}

The exit status is 1 if errors > 0 or a match did not end. Run the server
with raised rate limits (--seat-rate, --conn-rate).

Flags:
`

func runDdzBots(args []string, stdout, stderr io.Writer) error {
	var o ddzBotsOptions
	fs := newFlags("ddz bots", ddzBotsUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.IntVar(&o.tables, "tables", 1, "tables played at once")
	fs.IntVar(&o.games, "games", 1, "matches each table plays, one after another")
	fs.IntVar(&o.deals, "deals", 1, "scored deals of each match")
	fs.StringVar(&o.bidding, "bidding", "points", "points or call_rob")
	fs.DurationVar(&o.turn, "turn-time", 10*time.Second, "turn timer of the tables")
	fs.DurationVar(&o.pause, "round-pause", 10*time.Millisecond, "pause between deals (at least 1ns)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	fs.DurationVar(&o.every, "progress", 2*time.Second, "interval of the progress lines")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	bidding, ok := ddzBidding(o.bidding)
	if fs.NArg() > 0 || !ok || o.tables < 1 || o.games < 1 || o.deals < 1 || o.deals > 64 || o.turn <= 0 || o.pause <= 0 || o.every <= 0 {
		fmt.Fprintln(stderr, "tablectl ddz bots: bad arguments")
		fs.Usage()
		return errUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	lw := &lockedWriter{w: stderr}
	m := &loadMetrics{log: lw}
	start := time.Now()
	fmt.Fprintf(lw, "ddz bots: %d tables x %d matches of %d deals (%s) on %s\n", o.tables, o.games, o.deals, o.bidding, o.addr)
	done := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() {
		t := time.NewTicker(o.every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s := m.summary(o.tables)
				fmt.Fprintf(lw, "[%5.1fs] matches %d/%d, deals %d, actions %d, errors %d, act p50 %.2fms p99 %.2fms\n",
					time.Since(start).Seconds(), s.Games, o.tables*o.games, s.Rounds, s.Actions, s.Errors, s.ActP50ms, s.ActP99ms)
			}
		}
	})
	var wg sync.WaitGroup
	for i := range o.tables {
		wg.Go(func() { ddzTable(ctx, o, bidding, i, m) })
	}
	wg.Wait()
	close(done)
	progress.Wait()
	sum := m.summary(o.tables)
	fmt.Fprintf(lw, "ddz bots: done in %.1fs: %d matches, %d deals, %d actions, %d errors\n", time.Since(start).Seconds(), sum.Games, sum.Rounds, sum.Actions, sum.Errors)
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", line)
	if want := o.tables * o.games; sum.Errors > 0 || sum.Games < want {
		return fmt.Errorf("ddz bots: %d errors, %d of %d matches ended", sum.Errors, sum.Games, want)
	}
	return nil
}

// ddzTable plays table slot i's matches with three clients of their own.
func ddzTable(ctx context.Context, o ddzBotsOptions, bidding ddzpb.Bidding, i int, m *loadMetrics) {
	var clients [table.NumSeats]*ddzclient.Client
	for s := range clients {
		c, err := ddzclient.Dial(o.addr)
		if err != nil {
			m.fail(o.games, "table %d: %v", i, err)
			return
		}
		defer c.Close()
		clients[s] = c
	}
	for g := range o.games {
		r, err := clients[0].Tables.CreateTable(ctx, &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{
			Bidding: bidding, Deals: uint32(o.deals), TurnTime: durationpb.New(o.turn), RoundPause: durationpb.New(o.pause)}})
		if err != nil {
			m.fail(1, "table %d match %d: create: %v", i, g, err)
			continue
		}
		id := r.GetTable().GetTableId()
		var seats [table.NumSeats]ddzclient.Seat
		ok := true
		for s := range seats {
			if seats[s], err = clients[s].JoinTable(ctx, id, fmt.Sprintf("bot%d", s)); err != nil {
				m.fail(1, "table %d match %d: join: %v", i, g, err)
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		var wg sync.WaitGroup
		ended := make([]bool, table.NumSeats)
		for s := range seats {
			wg.Go(func() {
				ended[s] = ddzSeat(ctx, clients[s].Follow(seats[s], nil), m, s == 0, fmt.Sprintf("table %d match %d seat %d", i, g, s))
			})
		}
		wg.Wait()
		if ended[0] && ended[1] && ended[2] {
			m.mu.Lock()
			m.games++
			m.mu.Unlock()
		}
	}
}

// ddzSeat plays one seat with package bot; counter counts the deals (as
// they end: the first may start before the seat's stream opens).
func ddzSeat(ctx context.Context, s *ddzclient.Session, m *loadMetrics, counter bool, who string) bool {
	defer s.Close()
	var b bot.Bot
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			if f := s.Stats().Faults; f > 0 {
				m.fail(f, "%s: %d inconsistencies", who, f)
			}
			return true
		}
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			return false
		}
		if ev := u.Event; ev != nil {
			if u.Live {
				m.event(u.Received.Sub(ev.GetTime().AsTime()))
			}
			if counter && (ev.GetDealEnded() != nil || ev.GetThrownIn() != nil) {
				m.mu.Lock()
				m.rounds++
				m.mu.Unlock()
			}
		}
		if s.Over() || !s.MyTurn() || (u.Snapshot == nil && u.Event.GetOffer() == nil) {
			continue
		}
		a, err := b.Act(s.View())
		if err != nil {
			m.fail(1, "%s: bot: %v", who, err)
			continue
		}
		start := time.Now()
		if _, err := s.Act(ctx, a); err != nil {
			m.fail(1, "%s: act: %v", who, err)
			continue
		}
		lat := time.Since(start)
		m.act(lat)
	}
}
