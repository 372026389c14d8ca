package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	cclassical "github.com/mahjong-authority/authority/internal/client/classical"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

func init() {
	commands["play"] = command{summary: "play one seat against three bots in the terminal", run: runPlay}
}

type playOptions struct {
	addr, name, rules, seed, tableID string
	ticket                           string // a join ticket from a room service
	turn, claim, pause               time.Duration
	hands                            int // MCR: hands in the game
}

const playUsage = `usage: tablectl play --addr HOST:PORT [flags]

Creates a table where the server's bots take the other three seats, joins
it and plays your seat in the terminal: the board is shown whenever you have
something to do, with your choices numbered. Type a number, a tile to
discard it (5m; 0p is the red five), t to discard the tile you drew, or p
to pass a claim. With --rules sichuan the table plays Sichuan bloody
battle: give three tiles of one suit by typing them (129p), choose your
void suit with m, p or s. With --table it joins an existing table instead
(of whichever rule set), and offers to start it if it has not started.
Ctrl-C leaves the table at once: a bot plays your seat from then on.

--rules mcr plays Chinese Official: 144 tiles with flowers (set aside and
replaced by the table), wins of 8 points or more without the flowers; the
board shows each seat's flowers, and a win every fan with its points and
the payments. Type h to win when the table offers it. --hands sets the
game's length (16, the rule book's; 1 for a short game). With --table, give
--rules mcr to join an MCR table.

Flags:
`

func parsePlay(args []string, stderr io.Writer) (playOptions, error) {
	var o playOptions
	fs := newFlags("play", playUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.StringVar(&o.name, "name", "player", "your name at the table")
	fs.StringVar(&o.rules, "rules", "hanchan", "hanchan (east-south), tonpuu (east only), sichuan (bloody battle), mcr (Chinese Official) or classical")
	fs.IntVar(&o.hands, "hands", 16, "mcr: hands in the game, 1 to 16")
	fs.StringVar(&o.seed, "seed", "", "play the walls of this `string` (the same seed, the same tiles)")
	fs.StringVar(&o.tableID, "table", "", "join this table instead of creating one")
	fs.StringVar(&o.ticket, "ticket", "", "join with this `ticket` from a room service (the table is the ticket's unless --table names it)")
	fs.DurationVar(&o.turn, "turn-time", 5*time.Minute, "time for a turn before the server plays it for you")
	fs.DurationVar(&o.claim, "claim-time", 2*time.Minute, "time to answer a claim offer")
	fs.DurationVar(&o.pause, "round-pause", 2*time.Second, "pause between rounds")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	if fs.NArg() > 0 || o.rules != "hanchan" && o.rules != "tonpuu" && o.rules != "sichuan" && o.rules != "mcr" && o.rules != "classical" || o.hands < 1 || o.hands > 16 || o.turn <= 0 || o.claim <= 0 || o.pause <= 0 {
		fmt.Fprintln(stderr, "tablectl play: bad arguments")
		fs.Usage()
		return o, errUsage
	}
	return o, nil
}

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parsePlay(args, stderr)
	if err != nil {
		return err
	}
	ctx, c, closing, err := connect(o.addr)
	if err != nil {
		return err
	}
	defer closing()
	if o.rules == "mcr" {
		return runPlayMCR(ctx, c, o, stdin, stdout)
	}
	in := newInput(stdin)
	defer in.close()
	seat, err := takeSeat(ctx, c, o)
	if err != nil {
		return err
	}
	tb, err := c.GetTable(ctx, seat.TableID)
	if err != nil {
		return err
	}
	n := tableNames(tb, seat.Seat)
	fmt.Fprintf(stdout, "Table %s: you are seat %d (%s).\n", seat.TableID, seat.Seat, o.name)
	fmt.Fprintf(stdout, "Your entropy, mixed into every wall (check it in the record with tablectl export and verify): %x\n", seat.Entropy)
	if tb.GetState() == pb.TableState_TABLE_STATE_WAITING {
		err = offerStart(ctx, c, in, stdout, seat, tb)
	}
	if err == nil && tb.GetSettings().GetRuleSet() == pb.RuleSet_RULE_SET_CLASSICAL {
		s := cclassical.Follow(c, seat, client.Options{})
		defer s.Close()
		err = classicalPlayLoop(ctx, s, in, stdout, n)
	} else if err == nil && isSichuan(tb) {
		err = playSichuan(ctx, c, seat, tb, in, stdout, n)
	} else if err == nil {
		s := c.Follow(seat, client.Options{})
		defer s.Close()
		err = playLoop(ctx, s, in, stdout, n)
	}
	if errors.Is(err, context.Canceled) {
		// Ctrl-C: give the seat up now, so that a bot plays it at once
		// rather than after the disconnect grace period.
		lctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, lerr := c.Tables.LeaveTable(lctx, &pb.LeaveTableRequest{TableId: seat.TableID, SeatToken: seat.Token}); lerr != nil {
			fmt.Fprintf(stdout, "\nYou left the game; the server plays your seat once the disconnect grace period is over (leaving at once failed: %s).\n", refusal(lerr))
			return nil
		}
		fmt.Fprintln(stdout, "\nYou left the table; a bot plays your seat from now on.")
		return nil
	}
	return err
}

// offerStart asks the player who joined a table that has not started
// whether to start it now; otherwise play waits for the table to start.
func offerStart(ctx context.Context, c *client.Client, in *input, out io.Writer, seat client.Seat, tb *pb.Table) error {
	taken := 0
	for _, si := range tb.GetSeats() {
		if si.GetTaken() {
			taken++
		}
	}
	if !tb.GetSettings().GetFillWithBots() && taken < table.NumSeats {
		fmt.Fprintf(out, "The table has not started: %d of %d seats taken. It starts when every seat is.\n", taken, table.NumSeats)
		return nil
	}
	fmt.Fprintf(out, "The table has not started: %d of %d seats taken. Start it now, bots taking the empty seats? (y/n)\n", taken, table.NumSeats)
	for {
		io.WriteString(out, "> ")
		line, err := in.line(ctx)
		if err != nil {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			err := c.StartTable(ctx, seat.TableID, seat.Token)
			if client.Reason(err) == pb.ErrorReason_ERROR_REASON_ALREADY_STARTED {
				return nil // someone else started it meanwhile
			}
			if err != nil {
				return err
			}
			fmt.Fprintln(out, "Started.")
			return nil
		case "n", "no":
			fmt.Fprintln(out, "Waiting for the table to start.")
			return nil
		}
		fmt.Fprintln(out, "Type y to start the table now, or n to wait.")
	}
}

// input reads the player's lines in a goroutine of its own, so that a
// prompt gives way at once to Ctrl-C (the context's end).
type input struct {
	lines chan string // closed when the input ends
	done  chan struct{}
}

func newInput(r io.Reader) *input {
	in := &input{lines: make(chan string), done: make(chan struct{})}
	go func() {
		defer close(in.lines)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				select {
				case in.lines <- line:
				case <-in.done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

// close lets the reading goroutine go once its read returns.
func (in *input) close() { close(in.done) }

// line waits for the next line, errInputEnded after the last, or the
// context's error.
func (in *input) line(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case l, ok := <-in.lines:
		if !ok {
			return "", errInputEnded
		}
		return l, nil
	}
}

// refusal is a server's refusal in the player's words: the status message
// and the reason ("a claim window is open (NOT_YOUR_TURN)").
func refusal(err error) string {
	st := status.Convert(err)
	msg := st.Message()
	if r := client.Reason(err); r != pb.ErrorReason_ERROR_REASON_UNSPECIFIED {
		msg += " (" + strings.TrimPrefix(r.String(), "ERROR_REASON_") + ")"
	}
	return msg
}

// takeSeat creates a table whose empty seats the server's bots take, joins
// it and starts it; or joins the table of --table.
func takeSeat(ctx context.Context, c *client.Client, o playOptions) (client.Seat, error) {
	// The player's own entropy, mixed into the walls (reproducible with
	// --seed, as the walls are).
	entropy := derive(botsOptions{seed: o.seed}, "entropy", 0, 0)
	if o.ticket != "" {
		return joinTicket(ctx, c, o.tableID, o.ticket, entropy[:])
	}
	if o.tableID != "" {
		return c.JoinTable(ctx, o.tableID, o.name, entropy[:])
	}
	set := &pb.TableSettings{
		Rules: rulePreset(o.rules), FillWithBots: true,
		TurnTime: durationpb.New(o.turn), ClaimTime: durationpb.New(o.claim), RoundPause: durationpb.New(o.pause),
	}
	if o.rules == "classical" {
		c := classicalSettings()
		set.RuleSet, set.Rules, set.Options = c.RuleSet, pb.RulePreset_RULE_PRESET_UNSPECIFIED, c.Options
	}
	if o.rules == "sichuan" {
		set.RuleSet, set.Rules, set.Options = pb.RuleSet_RULE_SET_SICHUAN, pb.RulePreset_RULE_PRESET_UNSPECIFIED, sichuanOptions()
	}
	if o.seed != "" {
		s := derive(botsOptions{seed: o.seed}, "play", 0, 0)
		set.Seed = s[:]
	}
	tb, _, err := c.CreateTable(ctx, set)
	if err != nil {
		return client.Seat{}, err
	}
	seat, err := c.JoinTable(ctx, tb.GetTableId(), o.name, entropy[:])
	if err != nil {
		return client.Seat{}, err
	}
	if err := c.StartTable(ctx, seat.TableID, seat.Token); err != nil {
		return client.Seat{}, err
	}
	return seat, nil
}

// errInputEnded stops a game whose player's input ended.
var errInputEnded = errors.New("play: input ended")

// playLoop follows the seat to the end of the game: event lines as they
// arrive, and whenever the seat has something to do the board, the
// numbered choices and a prompt; the answer is read from in.
func playLoop(ctx context.Context, s *client.Session, in *input, out io.Writer, n *names) error {
	about := ""
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if u.Snapshot {
			io.WriteString(out, joinedLines(s.View(), n))
		} else {
			e := u.Event
			n.learn(e)
			switch b := e.Body.(type) {
			case table.Discarded:
				about = fmt.Sprintf("%s discarded %v", n.short(b.Seat), b.Tile)
			case table.Called:
				if b.Meld.IsKan() {
					about = fmt.Sprintf("%s declared a kan of %v", n.short(b.Seat), b.Meld.Kind())
				}
			}
			if line := eventLines(e, n); line != "" {
				io.WriteString(out, line)
			}
		}
		v := s.View()
		if len(v.Legal) == 0 {
			continue
		}
		a, err := ask(ctx, in, out, v, n, s.Tracker(), about)
		if err != nil {
			return err
		}
		if _, err := s.Act(ctx, a); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(out, "The server refused %s: %s\n", actionLabel(a, s.Tracker().ClaimTile()), refusal(err))
		}
	}
}

// ask shows the prompt and reads answers until one names a legal action.
func ask(ctx context.Context, in *input, out io.Writer, v *table.View, n *names, tr *client.Tracker, about string) (table.Action, error) {
	claim := tr.ClaimTile()
	cs := choices(v, claim)
	io.WriteString(out, renderPrompt(v, n, tr.Fishing(), claim, about))
	for {
		io.WriteString(out, "> ")
		line, err := in.line(ctx)
		if err != nil {
			return table.Action{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" || line == "?" {
			io.WriteString(out, renderPrompt(v, n, tr.Fishing(), claim, about))
			continue
		}
		a, perr := parseAnswer(line, cs, v)
		if perr == nil {
			return a, nil
		}
		fmt.Fprintf(out, "%v\n", perr)
	}
}

// parseAnswer reads an answer: a choice's number, t (discard the drawn
// tile), p or pass, tsumo, ron, riichi <tile>, or a tile to discard.
func parseAnswer(s string, cs []choice, v *table.View) (table.Action, error) {
	find := func(ok func(a table.Action) bool) (table.Action, bool) {
		for _, c := range cs {
			if ok(c.action) {
				return c.action, true
			}
		}
		return table.Action{}, false
	}
	is := func(t table.ActionType) func(table.Action) bool {
		return func(a table.Action) bool { return a.Type == t }
	}
	word, rest, _ := strings.Cut(strings.ToLower(s), " ")
	var a table.Action
	ok := false
	switch word {
	case "t", "tsumogiri":
		a, ok = find(func(a table.Action) bool { return a.Type == table.Discard && a.Tsumogiri })
	case "p", "pass":
		if a, ok = find(is(table.Pass)); !ok {
			return a, errors.New("there is no claim to pass: it is your turn")
		}
	case "tsumo", "ron":
		a, ok = find(func(a table.Action) bool { return a.Type.String() == word })
	case "r", "riichi":
		x, err := tile.ParseTile(strings.TrimSpace(rest))
		if err != nil {
			return a, fmt.Errorf("riichi with which tile? %v", err)
		}
		if a, ok = find(func(a table.Action) bool {
			return a.Type == table.Riichi && a.Tile == x && a.Tsumogiri == (v.HasDrawn && v.Drawn == x)
		}); !ok {
			a, ok = find(func(a table.Action) bool { return a.Type == table.Riichi && a.Tile.Kind() == x.Kind() })
		}
	default:
		if i, err := strconv.Atoi(word); err == nil {
			if i < 1 || i > len(cs) {
				return a, fmt.Errorf("%d is not one of the choices 1 to %d", i, len(cs))
			}
			return cs[i-1].action, nil
		}
		x, err := tile.ParseTile(word)
		if err != nil {
			return a, fmt.Errorf("%q is neither a choice nor a tile", s)
		}
		// The exact tile (the drawn one first), else any of its kind.
		if a, ok = find(func(a table.Action) bool { return a.Type == table.Discard && a.Tile == x && a.Tsumogiri }); !ok {
			if a, ok = find(func(a table.Action) bool { return a.Type == table.Discard && a.Tile == x }); !ok {
				a, ok = find(func(a table.Action) bool { return a.Type == table.Discard && a.Tile.Kind() == x.Kind() })
			}
		}
		if !ok {
			return a, whyNotDiscard(x, v)
		}
	}
	if !ok {
		return a, fmt.Errorf("%q is not among your choices now", s)
	}
	return a, nil
}

// whyNotDiscard says why x is not among the discards offered.
func whyNotDiscard(x tile.Tile, v *table.View) error {
	if v.Phase != table.Turn || v.ToAct != v.Seat {
		return fmt.Errorf("you cannot discard now: answer the claim with a number, or p to pass")
	}
	held := v.HasDrawn && v.Drawn.Kind() == x.Kind()
	for _, h := range v.Hand {
		held = held || h.Kind() == x.Kind()
	}
	switch {
	case !held:
		return fmt.Errorf("you have no %v", x)
	case int(v.Seat) < len(v.Seats) && v.Seats[v.Seat].Riichi:
		return fmt.Errorf("after riichi you may discard only the tile you drew (%v)", v.Drawn)
	case !v.HasDrawn:
		// A turn without a draw follows a chi or pon.
		return fmt.Errorf("you may not discard %v right after your call: kuikae (swap-calling) is forbidden", x)
	}
	return fmt.Errorf("%v is not among your choices now", x)
}
