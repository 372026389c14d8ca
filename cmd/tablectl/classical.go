package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	"github.com/mahjong-authority/authority/internal/client"
	cclassical "github.com/mahjong-authority/authority/internal/client/classical"
	"github.com/mahjong-authority/authority/internal/table"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The classical side of tablectl: tables of --rules classical in bots and
// play, classical tables in watch (found from the table's settings) and
// classical records in verify and export (found from rules.variant).

// classicalSettings are the settings of a classical table as tablectl
// creates it: the BMJA game, every option its default.
func classicalSettings() *pb.TableSettings {
	return &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{}}}
}

// classicalBots plays classical games with the classical bot.
var classicalBots = botRules[ct.Action, ct.View, ct.Body, *cclassical.Tracker]{
	follow: func(c *client.Client, _ *pb.Table, st client.Seat, opts client.Options) (*cclassical.Session, error) {
		return cclassical.Follow(c, st, opts), nil
	},
	newBot: func(botsOptions, int, int, int) decider[ct.Action, ct.View] { return botc.Efficient{} },
	tally: func(r *seatResult, b ct.Body) {
		switch e := b.(type) {
		case ct.HandEnded:
			r.rounds++
		case ct.GameEnded:
			r.final = e.Scores
		}
	},
	rounds: "hands", scores: "scores",
}

// watchClassical follows a classical table as a spectator, one line for
// each thing that changes; with board it also draws the board (who is
// fishing, bonus tiles, melds, ponds) after every call.
func watchClassical(ctx context.Context, c *client.Client, id string, out io.Writer, n *names, board bool) error {
	w := cclassical.Watch(c, id, client.Options{})
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
		if no := e.Notice; no != nil {
			if no.GetKind() == pb.SeatNotice_KIND_JOINED && no.GetSeat() < table.NumSeats {
				n.name[no.GetSeat()] = printable(no.GetName())
			}
			continue
		}
		io.WriteString(out, classicalLines(e.Body, n))
		if _, ok := e.Body.(ct.Called); ok && board {
			io.WriteString(out, classicalBoard(w.View(), n))
		}
	}
}

func cseat(n *names, s ct.Seat) string { return n.short(table.Seat(s)) }

// classicalLines describes an event body for people.
func classicalLines(body ct.Body, n *names) string {
	switch b := body.(type) {
	case ct.HandStarted:
		return fmt.Sprintf("-- hand %d: %s round, East is %s; scores %s\n", b.Index+1, windNames[b.Round&3], cseat(n, b.Dealer), classicalScores(b.Scores, n))
	case ct.BonusSetAside:
		return fmt.Sprintf("%s sets aside %v\n", cseat(n, b.Seat), b.Tile)
	case ct.Discarded:
		return fmt.Sprintf("%s discards %v\n", cseat(n, b.Seat), b.Tile)
	case ct.Fishing:
		if b.Original {
			return fmt.Sprintf("%s is FISHING (original call)\n", cseat(n, b.Seat))
		}
		return fmt.Sprintf("%s is FISHING\n", cseat(n, b.Seat))
	case ct.Called:
		return fmt.Sprintf("%s: %s\n", cseat(n, b.Seat), classicalMeld(b.Meld, n))
	case ct.Won:
		how := fmt.Sprintf("on %s's discard", cseat(n, b.From))
		switch {
		case b.SelfDrawn:
			how = "self-drawn"
		case b.RobbedKong:
			how = fmt.Sprintf("robbing %s's kong", cseat(n, b.From))
		}
		ms := make([]string, len(b.Melds))
		for i, m := range b.Melds {
			ms[i] = classicalMeld(m, n)
		}
		return fmt.Sprintf("%s goes MAH JONG %s on %v: %s %s\n", cseat(n, b.Seat), how, b.WinTile, spaced(b.Hand), strings.Join(ms, " "))
	case ct.HandEnded:
		var sb strings.Builder
		if b.Kind == ct.EndWash {
			sb.WriteString("the wall is exhausted: a wash, nobody pays\n")
		} else {
			sb.WriteString(classicalScoreLines(&b, n))
		}
		fmt.Fprintf(&sb, "scores %s\n", classicalScores(b.Scores, n))
		if b.GameOver {
			sb.WriteString("-- the game is over\n")
		}
		return sb.String()
	case ct.GameEnded:
		return fmt.Sprintf("== final scores %s, ranks %v\n", classicalScores(b.Scores, n), b.Ranks)
	}
	return "" // draws and offers: the board tells them
}

// classicalScoreLines is each seat's score line at a settlement: its
// score, points and doubles, its special hand or fishing value, and what
// it paid or received.
func classicalScoreLines(b *ct.HandEnded, n *names) string {
	var sb strings.Builder
	for s, l := range b.Lines {
		who := cseat(n, ct.Seat(s))
		role := "   "
		if ct.Seat(s) == b.Winner {
			role = "MJ "
		}
		line := fmt.Sprintf("%d points, %d doubles", l.Base, l.Doubles)
		switch {
		case l.Fishing:
			line = fmt.Sprintf("fishing for %s: fishing value", l.Special)
		case l.Special != 0:
			line = fmt.Sprintf("%s: %d limit(s)", l.Special, l.Special.Limits())
		}
		fmt.Fprintf(&sb, "  %s%-4s scores %5d (%s)  %+d\n", role, who, l.Score, line, b.Deltas[s])
	}
	return sb.String()
}

func classicalScores(sc [ct.NumSeats]int, n *names) string {
	parts := make([]string, len(sc))
	for s, v := range sc {
		parts[s] = fmt.Sprintf("%s %d", cseat(n, ct.Seat(s)), v)
	}
	return strings.Join(parts, ", ")
}

func classicalMeld(m ct.Meld, n *names) string {
	var ts []tile.Tile
	for i := range m.Len() {
		k := m.Kind
		if m.Type == ct.MeldChow {
			k += tile.Kind(i)
		}
		ts = append(ts, tile.Plain(k))
	}
	if m.Type == ct.MeldConcealedKong {
		return fmt.Sprintf("concealed kong [%s]", spaced(ts))
	}
	return fmt.Sprintf("%v [%s] from %s", m.Type, spaced(ts), cseat(n, m.From))
}

// classicalBoard draws a view: each seat's fishing flag, bonus tiles,
// melds and pond, and the viewer's hand.
func classicalBoard(v *ct.View, n *names) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "+ %s round, East %s, wall %d\n", windNames[v.Round&3], cseat(n, v.Dealer), v.WallLeft)
	for s, sv := range v.Seats {
		fish := ""
		if sv.Fishing {
			fish = " FISHING"
		}
		ms := make([]string, len(sv.Melds))
		for i, m := range sv.Melds {
			ms[i] = classicalMeld(m, n)
		}
		var pond []tile.Tile
		for _, d := range sv.Discards {
			if !d.Claimed {
				pond = append(pond, d.Tile)
			}
		}
		fmt.Fprintf(&sb, "| %-4s %5d%s  bonus [%s]  melds %s  pond %s\n", cseat(n, ct.Seat(s)), sv.Score, fish, spaced(sv.Bonus), strings.Join(ms, " "), spaced(pond))
	}
	if v.Seat < ct.NumSeats {
		fmt.Fprintf(&sb, "| hand %s", spaced(v.Tiles))
		if v.HasDrawn {
			fmt.Fprintf(&sb, " + %v", v.Drawn)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// classicalLabel names a classical action for the prompt.
func classicalLabel(a ct.Action, claim tile.Tile) string {
	switch a.Type {
	case ct.Discard:
		return fmt.Sprintf("discard %v", a.Tile)
	case ct.Fish:
		return "announce fishing (one tile from Mah Jong)"
	case ct.MahJong:
		return fmt.Sprintf("MAH JONG on %v", a.Tile)
	case ct.ConcealedKong:
		return fmt.Sprintf("concealed kong of %v", a.Tile)
	case ct.AddedKong:
		return fmt.Sprintf("add %v to your pung (kong)", a.Tile)
	case ct.Chow:
		k := a.Tile.Kind()
		return fmt.Sprintf("chow %v %v %v", tile.Plain(k), tile.Plain(k+1), tile.Plain(k+2))
	case ct.Pung:
		return fmt.Sprintf("pung %v", claim)
	case ct.Kong:
		return fmt.Sprintf("kong %v", claim)
	case ct.Pass:
		return "pass"
	}
	return a.Type.String()
}

// classicalPlayLoop is playLoop for a classical seat: event lines as they
// arrive, and whenever the seat has something to do the board (who is
// fishing, bonus tiles, melds, ponds, the hand), the numbered choices and
// a prompt. An answer is a choice's number, a tile to discard, f to
// announce fishing, mj for Mah Jong, or p to pass.
func classicalPlayLoop(ctx context.Context, s *cclassical.Session, in *input, out io.Writer, n *names) error {
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
			if no := e.Notice; no != nil {
				if no.GetKind() == pb.SeatNotice_KIND_JOINED && no.GetSeat() < table.NumSeats {
					n.name[no.GetSeat()] = printable(no.GetName())
				}
			} else {
				io.WriteString(out, classicalLines(e.Body, n))
			}
		}
		v := s.View()
		if len(v.Legal) == 0 {
			continue
		}
		a, err := askClassical(ctx, in, out, v, n)
		if err != nil {
			return err
		}
		if _, err := s.Act(ctx, a); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(out, "The server refused %s: %s\n", classicalLabel(a, v.ClaimTile), refusal(err))
		}
	}
}

func classicalPrompt(v *ct.View, n *names) string {
	var sb strings.Builder
	sb.WriteString(classicalBoard(v, n))
	if v.Phase == ct.ClaimWindow {
		fmt.Fprintf(&sb, "%s discarded %v:\n", cseat(n, v.ClaimFrom), v.ClaimTile)
	}
	for i, a := range v.Legal {
		fmt.Fprintf(&sb, "  %d) %s\n", i+1, classicalLabel(a, v.ClaimTile))
	}
	return sb.String()
}

// askClassical reads answers until one names a legal action.
func askClassical(ctx context.Context, in *input, out io.Writer, v *ct.View, n *names) (ct.Action, error) {
	io.WriteString(out, classicalPrompt(v, n))
	for {
		io.WriteString(out, "> ")
		line, err := in.line(ctx)
		if err != nil {
			return ct.Action{}, err
		}
		line = strings.ToLower(strings.TrimSpace(line))
		if line == "" || line == "?" {
			io.WriteString(out, classicalPrompt(v, n))
			continue
		}
		find := func(ok func(ct.Action) bool) (ct.Action, bool) {
			for _, a := range v.Legal {
				if ok(a) {
					return a, true
				}
			}
			return ct.Action{}, false
		}
		var a ct.Action
		ok := false
		switch line {
		case "p", "pass":
			a, ok = find(func(a ct.Action) bool { return a.Type == ct.Pass })
		case "f", "fish":
			a, ok = find(func(a ct.Action) bool { return a.Type == ct.Fish })
			if !ok {
				fmt.Fprintln(out, "you cannot announce fishing now: no discard leaves your hand one tile from Mah Jong")
				continue
			}
		case "mj", "mahjong", "mah jong":
			a, ok = find(func(a ct.Action) bool { return a.Type == ct.MahJong })
		default:
			if i, err := strconv.Atoi(line); err == nil {
				if i >= 1 && i <= len(v.Legal) {
					return v.Legal[i-1], nil
				}
				fmt.Fprintf(out, "%d is not one of the choices 1 to %d\n", i, len(v.Legal))
				continue
			}
			x, err := tile.ParseTile(line)
			if err != nil {
				fmt.Fprintf(out, "%q is neither a choice nor a tile\n", line)
				continue
			}
			a, ok = find(func(a ct.Action) bool { return a.Type == ct.Discard && a.Tile.Kind() == x.Kind() })
		}
		if ok {
			return a, nil
		}
		fmt.Fprintf(out, "%q is not among your choices now\n", line)
	}
}
