package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	cmcr "github.com/mahjong-authority/authority/internal/client/mcr"
	"github.com/mahjong-authority/authority/internal/table"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Chinese Official (MCR) tables in play, watch and bots (--rules mcr):
// the board shows every seat's wind, score, flowers set aside, melds and
// pond; a win shows every fan with its points, and the payments.

// mcrSettings are the settings of an MCR table of hands hands.
func mcrSettings(hands int) *pb.TableSettings {
	return &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: uint32(hands)}}}
}

// mcrEvent is an event of an MCR stream.
type mcrEvent = client.GameEvent[tmcr.Body]

func seatOf(s tmcr.Seat) table.Seat { return table.Seat(s) }

// learnMCR takes a player's name from the notice of its joining.
func (n *names) learnMCR(e mcrEvent) {
	n.learn(client.Event{Notice: e.Notice})
}

func mcrWind(w tile.Wind) string { return windNames[w&3] }

// mcrMeld writes a meld: its tiles and where the called tile came from.
func mcrMeld(m tmcr.Meld, n *names) string {
	if m.Hidden {
		return "kong (concealed)"
	}
	ts := make([]tile.Tile, m.Len())
	for i := range ts {
		k := m.Kind
		if m.Type == tmcr.MeldChi {
			k += tile.Kind(i)
		}
		ts[i] = tile.Plain(k)
	}
	f := tile.Format(ts)
	switch m.Type {
	case tmcr.MeldChi:
		return fmt.Sprintf("chow %s (%v from %s)", f, tile.Plain(m.Called), n.short(seatOf(m.From)))
	case tmcr.MeldPon:
		return fmt.Sprintf("pung %s (from %s)", f, n.short(seatOf(m.From)))
	case tmcr.MeldOpenKan:
		return fmt.Sprintf("kong %s (from %s)", f, n.short(seatOf(m.From)))
	case tmcr.MeldAddedKan:
		return fmt.Sprintf("kong %s (added, pung from %s)", f, n.short(seatOf(m.From)))
	}
	return fmt.Sprintf("kong %s (concealed)", f)
}

func mcrPond(ds []tmcr.DiscardView) string {
	if len(ds) == 0 {
		return "-"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Tile.String()
		if d.Called {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, " ")
}

func flowersOf(ts []tile.Tile) string {
	if len(ts) == 0 {
		return "-"
	}
	return strings.Join(tileStrings(ts), " ")
}

// renderMCRBoard draws an MCR table as the viewer sees it.
func renderMCRBoard(v *tmcr.View, n *names) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s round, hand %d | wall %d ==\n", mcrWind(v.Round), v.Hand+1, v.WallLeft)
	for s := range tmcr.Seat(tmcr.NumSeats) {
		sv := &v.Seats[s]
		mark := " "
		if v.Phase == tmcr.Turn && v.ToAct == s {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s %-5s %-14s %6d\n", mark, mcrWind(v.Winds[s]), n.of(seatOf(s)), sv.Score)
		fmt.Fprintf(&b, "      flowers %s\n", flowersOf(sv.Flowers))
		fmt.Fprintf(&b, "      pond    %s\n", mcrPond(sv.Discards))
		if len(sv.Melds) > 0 {
			ms := make([]string, len(sv.Melds))
			for i, m := range sv.Melds {
				ms[i] = mcrMeld(m, n)
			}
			fmt.Fprintf(&b, "      melds   %s\n", strings.Join(ms, ", "))
		}
	}
	if v.Seat < tmcr.NumSeats && len(v.Tiles)+boolInt(v.HasDrawn) > 0 {
		fmt.Fprintf(&b, "  your hand  %s", spaced(v.Tiles))
		if v.HasDrawn {
			fmt.Fprintf(&b, "   drew %v", v.Drawn)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

var mcrOrder = map[tmcr.ActionType]int{
	tmcr.Tsumo: 0, tmcr.Ron: 0, tmcr.ClosedKan: 1, tmcr.AddedKan: 1, tmcr.OpenKan: 1,
	tmcr.Pon: 2, tmcr.Chi: 3, tmcr.Discard: 4, tmcr.Pass: 5,
}

type mcrChoice struct {
	label  string
	action tmcr.Action
}

func mcrLabel(a tmcr.Action) string {
	switch a.Type {
	case tmcr.Discard:
		return fmt.Sprintf("discard %v", a.Tile)
	case tmcr.Chi:
		return fmt.Sprintf("chow %v into %s", a.Tile, tile.Format([]tile.Tile{tile.Plain(a.Run), tile.Plain(a.Run + 1), tile.Plain(a.Run + 2)}))
	case tmcr.Pon:
		return fmt.Sprintf("pung %v", a.Tile)
	case tmcr.OpenKan:
		return fmt.Sprintf("kong %v", a.Tile)
	case tmcr.Ron:
		return fmt.Sprintf("win on %v (hu)", a.Tile)
	case tmcr.Tsumo:
		return "win by self-draw (zimo)"
	case tmcr.ClosedKan:
		return fmt.Sprintf("concealed kong of %v", a.Tile)
	case tmcr.AddedKan:
		return fmt.Sprintf("add %v to its pung", a.Tile)
	}
	return a.Type.String()
}

// mcrChoices lists the legal actions as numbered: wins, kongs, pungs,
// chows, discards (the drawn tile first), pass.
func mcrChoices(v *tmcr.View) []mcrChoice {
	out := make([]mcrChoice, 0, len(v.Legal))
	for _, a := range v.Legal {
		out = append(out, mcrChoice{label: mcrLabel(a), action: a})
	}
	drawn := func(a tmcr.Action) int {
		return boolInt(a.Type == tmcr.Discard && v.HasDrawn && a.Tile == v.Drawn)
	}
	slices.SortStableFunc(out, func(x, y mcrChoice) int {
		if d := mcrOrder[x.action.Type] - mcrOrder[y.action.Type]; d != 0 {
			return d
		}
		return drawn(y.action) - drawn(x.action)
	})
	return out
}

func renderMCRPrompt(v *tmcr.View, n *names, about string) string {
	var b strings.Builder
	b.WriteString(renderMCRBoard(v, n))
	if v.Phase == tmcr.ClaimWindow {
		fmt.Fprintf(&b, "%s. You may:\n", about)
	} else {
		b.WriteString("Your turn. You may:\n")
	}
	var discards []string
	cs := mcrChoices(v)
	for i, c := range cs {
		if c.action.Type == tmcr.Discard {
			discards = append(discards, fmt.Sprintf("%d) %s", i+1, c.action.Tile))
			continue
		}
		fmt.Fprintf(&b, "  %d) %s\n", i+1, c.label)
	}
	if len(discards) > 0 {
		fmt.Fprintf(&b, "  discard  %s\n", strings.Join(discards, "  "))
	}
	b.WriteString("Type a number, a tile to discard it (5m), t for the drawn tile, h to win, or p to pass.\n")
	return b.String()
}

// parseMCRAnswer reads an answer: a choice's number, t (the drawn tile),
// h, hu, tsumo or ron (the win offered), p or pass, or a tile to discard.
func parseMCRAnswer(s string, cs []mcrChoice, v *tmcr.View) (tmcr.Action, error) {
	find := func(ok func(a tmcr.Action) bool) (tmcr.Action, bool) {
		for _, c := range cs {
			if ok(c.action) {
				return c.action, true
			}
		}
		return tmcr.Action{}, false
	}
	word := strings.ToLower(strings.TrimSpace(s))
	var a tmcr.Action
	ok := false
	switch word {
	case "t":
		a, ok = find(func(a tmcr.Action) bool { return a.Type == tmcr.Discard && v.HasDrawn && a.Tile == v.Drawn })
	case "p", "pass":
		a, ok = find(func(a tmcr.Action) bool { return a.Type == tmcr.Pass })
	case "h", "hu", "tsumo", "ron", "zimo":
		a, ok = find(func(a tmcr.Action) bool { return a.Type == tmcr.Tsumo || a.Type == tmcr.Ron })
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
		a, ok = find(func(a tmcr.Action) bool { return a.Type == tmcr.Discard && a.Tile.Kind() == x.Kind() })
	}
	if !ok {
		return a, fmt.Errorf("%q is not among your choices now", s)
	}
	return a, nil
}

func mcrDeltas(d [tmcr.NumSeats]int, n *names) string {
	parts := make([]string, 0, tmcr.NumSeats)
	for s, x := range d {
		parts = append(parts, fmt.Sprintf("%s %+d", n.short(table.Seat(s)), x))
	}
	return strings.Join(parts, ", ")
}

func mcrScores(sc [tmcr.NumSeats]int, n *names) string {
	parts := make([]string, 0, tmcr.NumSeats)
	for s, x := range sc {
		parts = append(parts, fmt.Sprintf("%s %d", n.short(table.Seat(s)), x))
	}
	return strings.Join(parts, ", ")
}

// mcrWonLines shows a win: who, how, the hand, every fan with its points,
// the total and the payments.
func mcrWonLines(w tmcr.Won, n *names) string {
	var b strings.Builder
	who := n.short(seatOf(w.Seat))
	switch {
	case w.Tsumo:
		fmt.Fprintf(&b, "%s wins by self-draw on %v!\n", who, w.WinTile)
	case w.Chankan:
		fmt.Fprintf(&b, "%s wins on %v, robbing %s's kong!\n", who, w.WinTile, n.short(seatOf(w.From)))
	default:
		fmt.Fprintf(&b, "%s wins on %v from %s!\n", who, w.WinTile, n.short(seatOf(w.From)))
	}
	fmt.Fprintf(&b, "  hand  %s + %v", spaced(w.Hand), w.WinTile)
	for _, m := range w.Melds {
		fmt.Fprintf(&b, ", %s", mcrMeld(m, n))
	}
	b.WriteByte('\n')
	for _, f := range w.Fans {
		name := strings.ReplaceAll(f.Name, "_", " ")
		if f.Count > 1 {
			fmt.Fprintf(&b, "  %-28s %2d x %-3d = %3d\n", name, f.Count, f.Points/f.Count, f.Points)
		} else {
			fmt.Fprintf(&b, "  %-28s %12d\n", name, f.Points)
		}
	}
	fmt.Fprintf(&b, "  %-28s %12d   (%d without flowers)\n", "total", w.Total, w.Total-w.Flowers)
	fmt.Fprintf(&b, "  payments: %s\n", mcrDeltas(w.Deltas, n))
	return b.String()
}

// mcrEventLines describes an MCR event for the log: "" for those that
// need no line (draws, offers).
func mcrEventLines(e mcrEvent, n *names) string {
	if e.Notice != nil {
		return eventLines(client.Event{Notice: e.Notice}, n)
	}
	switch b := e.Body.(type) {
	case tmcr.HandStarted:
		return fmt.Sprintf("\n=== %s round, hand %d: dealer %s ===\n", mcrWind(b.Round), b.Index+1, n.short(seatOf(b.Dealer)))
	case tmcr.FlowerSetAside:
		return fmt.Sprintf("%s: flower %v set aside\n", n.short(seatOf(b.Seat)), b.Flower)
	case tmcr.Discarded:
		return fmt.Sprintf("%s: discard %v\n", n.short(seatOf(b.Seat)), b.Tile)
	case tmcr.Called:
		return fmt.Sprintf("%s: %s\n", n.short(seatOf(b.Seat)), mcrMeld(b.Meld, n))
	case tmcr.Won:
		return mcrWonLines(b, n)
	case tmcr.HandEnded:
		what := "won"
		if b.Kind == tmcr.EndWallEmpty {
			what = "the wall is empty, no payment"
		}
		return fmt.Sprintf("Hand over (%s).\n  scores: %s\n", what, mcrScores(b.Scores, n))
	case tmcr.GameEnded:
		var sb strings.Builder
		sb.WriteString("\n=== Game over ===\n")
		order := []int{0, 1, 2, 3}
		slices.SortStableFunc(order, func(x, y int) int { return b.Scores[y] - b.Scores[x] })
		for _, s := range order {
			fmt.Fprintf(&sb, "  %-14s %6d   %g table points\n", n.of(table.Seat(s)), b.Scores[s], b.TablePoints[s])
		}
		return sb.String()
	}
	return ""
}

func mcrJoinedLines(v *tmcr.View, n *names) string {
	switch {
	case v.Phase == tmcr.GameOver:
		return "The game is over.\n"
	case v.Phase == tmcr.BetweenHands && v.WallLeft == 0 && len(v.Seats[0].Discards) == 0:
		return "Waiting for the first deal.\n"
	}
	return fmt.Sprintf("\n=== %s round, hand %d: dealer %s ===\n", mcrWind(v.Round), v.Hand+1, n.short(seatOf(v.Dealer)))
}

// runPlayMCR is `tablectl play --rules mcr`.
func runPlayMCR(ctx context.Context, c *client.Client, o playOptions, stdin io.Reader, stdout io.Writer) error {
	seat, err := takeMCRSeat(ctx, c, o)
	if err != nil {
		return err
	}
	tb, _ := c.GetTable(ctx, seat.TableID)
	n := tableNames(tb, seat.Seat)
	fmt.Fprintf(stdout, "Chinese Official table %s: you are seat %d (%s). A win needs 8 points without flowers.\n", seat.TableID, seat.Seat, o.name)
	fmt.Fprintf(stdout, "Your entropy, mixed into every wall (check it in the record with tablectl export and verify): %x\n", seat.Entropy)
	s := cmcr.Follow(c, seat, client.Options{})
	defer s.Close()
	err = playMCRLoop(ctx, s, stdin, stdout, n)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stdout, "\nYou left the game; the server plays your seat once the disconnect grace period is over.")
		return nil
	}
	return err
}

func takeMCRSeat(ctx context.Context, c *client.Client, o playOptions) (client.Seat, error) {
	entropy := derive(botsOptions{seed: o.seed}, "entropy", 0, 0)
	if o.tableID != "" {
		return c.JoinTable(ctx, o.tableID, o.name, entropy[:])
	}
	set := mcrSettings(o.hands)
	set.FillWithBots = true
	set.TurnTime, set.ClaimTime, set.RoundPause = durationpb.New(o.turn), durationpb.New(o.claim), durationpb.New(o.pause)
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

// playMCRLoop is playLoop for MCR tables.
func playMCRLoop(ctx context.Context, s *cmcr.Session, in io.Reader, out io.Writer, n *names) error {
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
			io.WriteString(out, mcrJoinedLines(s.View(), n))
		} else {
			e := u.Event
			n.learnMCR(e)
			switch b := e.Body.(type) {
			case tmcr.Discarded:
				about = fmt.Sprintf("%s discarded %v", n.short(seatOf(b.Seat)), b.Tile)
			case tmcr.Called:
				if b.Meld.Type == tmcr.MeldAddedKan {
					about = fmt.Sprintf("%s added %v to a pung", n.short(seatOf(b.Seat)), tile.Plain(b.Meld.Kind))
				}
			}
			if line := mcrEventLines(e, n); line != "" {
				io.WriteString(out, line)
			}
		}
		v := s.View()
		if len(v.Legal) == 0 {
			continue
		}
		cs := mcrChoices(v)
		io.WriteString(out, renderMCRPrompt(v, n, about))
		var a tmcr.Action
		for {
			io.WriteString(out, "> ")
			line, err := r.ReadString('\n')
			if line == "" && err != nil {
				return errInputEnded
			}
			line = strings.TrimSpace(line)
			if line == "" || line == "?" {
				io.WriteString(out, renderMCRPrompt(v, n, about))
				continue
			}
			var perr error
			if a, perr = parseMCRAnswer(line, cs, v); perr == nil {
				break
			}
			fmt.Fprintf(out, "%v\n", perr)
		}
		if _, err := s.Act(ctx, a); err != nil {
			fmt.Fprintf(out, "The server refused %s: %v\n", mcrLabel(a), err)
		}
	}
}

// watchMCRLoop is watchLoop for MCR tables.
func watchMCRLoop(ctx context.Context, w *cmcr.Session, out io.Writer, n *names, board bool) error {
	for {
		u, err := w.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		e := u.Event
		n.learnMCR(e)
		io.WriteString(out, mcrEventLines(e, n))
		switch e.Body.(type) {
		case tmcr.Discarded, tmcr.Called:
			if board {
				io.WriteString(out, renderMCRBoard(w.View(), n))
			}
		}
	}
}
