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

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

func init() {
	commands["play"] = command{summary: "play one seat against three bots in the terminal", run: runPlay}
}

type playOptions struct {
	addr, name, rules, seed, tableID string
	turn, claim, pause               time.Duration
}

const playUsage = `usage: tablectl play --addr HOST:PORT [flags]

Creates a table where the server's bots take the other three seats, joins
it and plays your seat in the terminal: the board is shown whenever you have
something to do, with your choices numbered. Type a number, a tile to
discard it (5m; 0p is the red five), t to discard the tile you drew, or p
to pass a claim. With --rules sichuan the table plays Sichuan bloody
battle: give three tiles of one suit by typing them (129p), choose your
void suit with m, p or s. With --table it joins an existing table instead
(of whichever rule set).

Flags:
`

func parsePlay(args []string, stderr io.Writer) (playOptions, error) {
	var o playOptions
	fs := newFlags("play", playUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.StringVar(&o.name, "name", "player", "your name at the table")
	fs.StringVar(&o.rules, "rules", "hanchan", "hanchan (east-south), tonpuu (east only) or sichuan (bloody battle)")
	fs.StringVar(&o.seed, "seed", "", "play the walls of this `string` (the same seed, the same tiles)")
	fs.StringVar(&o.tableID, "table", "", "join this table instead of creating one")
	fs.DurationVar(&o.turn, "turn-time", 5*time.Minute, "time for a turn before the server plays it for you")
	fs.DurationVar(&o.claim, "claim-time", 2*time.Minute, "time to answer a claim offer")
	fs.DurationVar(&o.pause, "round-pause", 2*time.Second, "pause between rounds")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	if fs.NArg() > 0 || o.rules != "hanchan" && o.rules != "tonpuu" && o.rules != "sichuan" || o.turn <= 0 || o.claim <= 0 || o.pause <= 0 {
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
	if isSichuan(tb) {
		err = playSichuan(ctx, c, seat, tb, stdin, stdout, n)
	} else {
		s := c.Follow(seat, client.Options{})
		defer s.Close()
		err = playLoop(ctx, s, stdin, stdout, n)
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stdout, "\nYou left the game; the server plays your seat once the disconnect grace period is over.")
		return nil
	}
	return err
}

// takeSeat creates a table whose empty seats the server's bots take, joins
// it and starts it; or joins the table of --table.
func takeSeat(ctx context.Context, c *client.Client, o playOptions) (client.Seat, error) {
	// The player's own entropy, mixed into the walls (reproducible with
	// --seed, as the walls are).
	entropy := derive(botsOptions{seed: o.seed}, "entropy", 0, 0)
	if o.tableID != "" {
		return c.JoinTable(ctx, o.tableID, o.name, entropy[:])
	}
	set := &pb.TableSettings{
		Rules: rulePreset(o.rules), FillWithBots: true,
		TurnTime: durationpb.New(o.turn), ClaimTime: durationpb.New(o.claim), RoundPause: durationpb.New(o.pause),
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
func playLoop(ctx context.Context, s *client.Session, in io.Reader, out io.Writer, n *names) error {
	r := bufio.NewReader(in)
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
		a, err := ask(r, out, v, n, s.Tracker(), about)
		if err != nil {
			return err
		}
		if _, err := s.Act(ctx, a); err != nil {
			fmt.Fprintf(out, "The server refused %s: %v\n", actionLabel(a, s.Tracker().ClaimTile()), err)
		}
	}
}

// ask shows the prompt and reads answers until one names a legal action.
func ask(r *bufio.Reader, out io.Writer, v *table.View, n *names, tr *client.Tracker, about string) (table.Action, error) {
	claim := tr.ClaimTile()
	cs := choices(v, claim)
	io.WriteString(out, renderPrompt(v, n, tr.Fishing(), claim, about))
	for {
		io.WriteString(out, "> ")
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			return table.Action{}, errInputEnded
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
		a, ok = find(is(table.Pass))
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
	}
	if !ok {
		return a, fmt.Errorf("%q is not among your choices now", s)
	}
	return a, nil
}
