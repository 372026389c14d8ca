package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/client"
	csc "github.com/mahjong-authority/authority/internal/client/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Sichuan tables in play, watch and bots (--rules sichuan): the same
// commands, with Sichuan's session (package client/sichuan), bot and
// board.

// sichuanOptions are the options of the Sichuan tables the commands create:
// the defaults, so the server completes them.
func sichuanOptions() *pb.TableSettings_Sichuan {
	return &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}
}

// isSichuan reports whether a table plays Sichuan.
func isSichuan(tb *pb.Table) bool {
	return tb.GetSettings().GetRuleSet() == pb.RuleSet_RULE_SET_SICHUAN
}

// playSichuan plays a Sichuan seat in the terminal.
func playSichuan(ctx context.Context, c *client.Client, seat client.Seat, tb *pb.Table, in *input, out io.Writer, n *names) error {
	rules, err := csc.RulesOf(tb.GetSettings())
	if err != nil {
		return err
	}
	s := csc.Follow(c, csc.Game{Rules: rules}, seat, client.Options{})
	defer s.Close()
	return sichuanPlayLoop(ctx, s, rules, in, out, n)
}

// sichuanPlayLoop follows the seat to the end of the match: event lines
// as they arrive, the board and the numbered choices whenever the seat has
// something to do, the answer read from in.
func sichuanPlayLoop(ctx context.Context, s *csc.Session, rules sc.Rules, in *input, out io.Writer, n *names) error {
	about := ""
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if !u.Snapshot {
			e := u.Event
			n.learnNotice(e.Notice)
			switch b := e.Body.(type) {
			case sc.Discarded:
				about = fmt.Sprintf("%s discarded %v", n.scShort(b.Seat), b.Tile)
			case sc.Called:
				if b.Meld.Type == sc.MeldAddedKan {
					about = fmt.Sprintf("%s added a kan of %v", n.scShort(b.Seat), b.Meld.Kind)
				}
			}
			if line := sichuanEventLines(e, n); line != "" {
				io.WriteString(out, line)
			}
		}
		v := s.View()
		if len(v.Legal) == 0 {
			continue
		}
		a, err := askSichuan(ctx, in, out, v, n, rules, about)
		if err != nil {
			return err
		}
		if _, err := s.Act(ctx, a); err != nil {
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			default:
				fmt.Fprintf(out, "The server refused %s: %s\n", scActionLabel(a), refusal(err))
			}
		}
	}
}

func askSichuan(ctx context.Context, in *input, out io.Writer, v *sc.View, n *names, rules sc.Rules, about string) (sc.Action, error) {
	io.WriteString(out, renderSichuanPrompt(v, n, rules, about))
	for {
		io.WriteString(out, "> ")
		line, err := in.line(ctx)
		if err != nil {
			return sc.Action{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" || line == "?" {
			io.WriteString(out, renderSichuanPrompt(v, n, rules, about))
			continue
		}
		a, perr := parseSichuanAnswer(line, v)
		if perr == nil {
			return a, nil
		}
		fmt.Fprintf(out, "%v\n", perr)
	}
}

// parseSichuanAnswer reads an answer: a choice's number; in the exchange
// three tiles of one suit (129p); in the void choice m, p or s; otherwise
// tsumo, ron, pon, kan, p or pass, or a tile to discard.
func parseSichuanAnswer(s string, v *sc.View) (sc.Action, error) {
	cs := scChoices(v)
	find := func(ok func(a sc.Action) bool) (sc.Action, bool) {
		for _, a := range v.Legal {
			if ok(a) {
				return a, true
			}
		}
		return sc.Action{}, false
	}
	w := strings.ToLower(s)
	if i, err := strconv.Atoi(w); err == nil {
		if i < 1 || i > len(cs) {
			return sc.Action{}, fmt.Errorf("%d is not one of the choices 1 to %d", i, len(cs))
		}
		return cs[i-1].action, nil
	}
	var a sc.Action
	ok := false
	switch {
	case v.Phase == sc.ChoosingVoid:
		for su := tile.Man; su <= tile.Sou; su++ {
			if w == su.String() {
				a, ok = find(func(a sc.Action) bool { return a.Suit == su })
			}
		}
	case v.Phase == sc.Exchanging:
		ts, err := tile.Parse(w)
		if err != nil || len(ts) != 3 {
			return a, fmt.Errorf("%q: give three tiles of one suit, as 129p", s)
		}
		slices.Sort(ts)
		a, ok = find(func(a sc.Action) bool { return slices.Equal(a.Tiles[:], ts) })
	case w == "p" || w == "pass":
		a, ok = find(func(a sc.Action) bool { return a.Type == sc.Pass })
	case w == "tsumo" || w == "ron" || w == "pon":
		a, ok = find(func(a sc.Action) bool { return a.Type.String() == w })
	case w == "kan":
		a, ok = find(func(a sc.Action) bool {
			return a.Type == sc.OpenKan || a.Type == sc.ClosedKan || a.Type == sc.AddedKan
		})
	default:
		x, err := tile.ParseTile(w)
		if err != nil {
			return a, fmt.Errorf("%q is neither a choice nor a tile", s)
		}
		a, ok = find(func(a sc.Action) bool { return a.Type == sc.Discard && a.Tile == x })
	}
	if !ok {
		return a, fmt.Errorf("%q is not among your choices now", s)
	}
	return a, nil
}

// watchSichuan follows a Sichuan table as a spectator.
func watchSichuan(ctx context.Context, c *client.Client, tb *pb.Table, out io.Writer, n *names, board bool) error {
	rules, err := csc.RulesOf(tb.GetSettings())
	if err != nil {
		return err
	}
	w := csc.Watch(c, csc.Game{Rules: rules}, tb.GetTableId(), client.Options{})
	defer w.Close()
	for {
		u, err := w.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		e := u.Event
		n.learnNotice(e.Notice)
		if line := sichuanEventLines(e, n); line != "" {
			io.WriteString(out, line)
		}
		switch e.Body.(type) {
		case sc.Discarded, sc.Called, sc.VoidsRevealed:
			if board {
				io.WriteString(out, renderSichuanBoard(w.View(), n, rules))
			}
		}
	}
}

// sichuanBots plays Sichuan matches with the Sichuan bot, on the rules
// the table was created with.
var sichuanBots = botRules[sc.Action, sc.View, sc.Body, *csc.Tracker]{
	follow: func(c *client.Client, tb *pb.Table, st client.Seat, opts client.Options) (*csc.Session, error) {
		rules, err := csc.RulesOf(tb.GetSettings())
		if err != nil {
			return nil, err
		}
		return csc.Follow(c, csc.Game{Rules: rules}, st, opts), nil
	},
	newBot: func(botsOptions, int, int, int) decider[sc.Action, sc.View] { return botsc.Efficient{} },
	tally: func(r *seatResult, b sc.Body) {
		switch e := b.(type) {
		case sc.HandEnded:
			r.rounds++
		case sc.MatchEnded:
			r.final = e.Scores
		}
	},
	rounds: "hands", scores: "units",
}
