package main

import (
	"fmt"
	"slices"
	"strings"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The text rendering of `play` and `watch`: pure functions of a seat's (or
// a spectator's) view and of the events it receives, so that what a player
// sees is pinned by golden tests.

// names labels the seats: "S2" plus a name when one is known, "you" for
// the viewer.
type names struct {
	viewer table.Seat // client.Spectator for a spectator
	name   [table.NumSeats]string
}

func (n *names) of(s table.Seat) string {
	if s == n.viewer {
		return fmt.Sprintf("S%d (you)", s)
	}
	if n.name[s] != "" {
		return fmt.Sprintf("S%d %s", s, n.name[s])
	}
	return fmt.Sprintf("S%d", s)
}

// short is a seat's label in event lines.
func (n *names) short(s table.Seat) string {
	if s == n.viewer {
		return "you"
	}
	return fmt.Sprintf("S%d", s)
}

var windNames = [...]string{"East", "South", "West", "North"}

// seatWind is s's wind in a round with dealer d.
func seatWind(s, d table.Seat) tile.Wind {
	return tile.Wind((s + table.NumSeats - d) % table.NumSeats)
}

// spaced writes sorted tiles grouped by suit with a space between suits:
// "123m 456p 11z".
func spaced(ts []tile.Tile) string {
	if len(ts) == 0 {
		return "-"
	}
	f := tile.Format(ts)
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		b.WriteByte(f[i])
		if f[i] >= 'a' && i < len(f)-1 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// pond writes a discard pond in order: the riichi tile in brackets, a tile
// taken by a call in parentheses.
func pond(ds []table.DiscardView) string {
	if len(ds) == 0 {
		return "-"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		s := d.Tile.String()
		switch {
		case d.Riichi && d.Called:
			s = "[(" + s + ")]"
		case d.Riichi:
			s = "[" + s + "]"
		case d.Called:
			s = "(" + s + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}

// meld writes a declared meld and where its called tile came from.
func meld(m table.Meld, n *names) string {
	ts := tile.Format(m.Tiles[:m.Len()])
	switch m.Type {
	case judge.ClosedKan:
		return "kan " + ts + " (closed)"
	case judge.AddedKan:
		return fmt.Sprintf("kan %s (%v from %s, added %v)", ts, m.Called, n.short(m.From), m.Added)
	case judge.OpenKan:
		return fmt.Sprintf("kan %s (%v from %s)", ts, m.Called, n.short(m.From))
	}
	return fmt.Sprintf("%v %s (%v from %s)", m.Type, ts, m.Called, n.short(m.From))
}

func roundName(w tile.Wind, number int) string {
	return fmt.Sprintf("%s %d", windNames[w&3], number)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// renderBoard draws the table as the viewer sees it: the round, honba,
// sticks, wall and dora indicators; every seat's wind, score, riichi,
// pond and melds; whose turn it is; the viewer's hand (sorted, the drawn
// tile apart) and tenpai state.
func renderBoard(v *table.View, n *names, fishing *table.Fishing) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s, %s, %s | wall %d | dora indicators %s ==\n",
		roundName(v.RoundWind, v.Number), plural(v.Honba, "honba", "honba"), plural(v.RiichiSticks, "riichi stick", "riichi sticks"),
		v.WallLeft, strings.Join(tileStrings(v.Dora), " "))
	for s := range table.Seat(table.NumSeats) {
		sv := &v.Seats[s]
		mark := " "
		if v.Phase == table.Turn && v.ToAct == s {
			mark = ">"
		}
		var tags []string
		if s == v.Dealer {
			tags = append(tags, "dealer")
		}
		if sv.Riichi {
			tags = append(tags, "riichi")
		}
		line := fmt.Sprintf("%s %-5s %-14s %6d  %s", mark, windNames[seatWind(s, v.Dealer)], n.of(s), sv.Score, strings.Join(tags, " "))
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
		fmt.Fprintf(&b, "      pond  %s\n", pond(sv.Discards))
		if len(sv.Melds) > 0 {
			ms := make([]string, len(sv.Melds))
			for i, m := range sv.Melds {
				ms[i] = meld(m, n)
			}
			fmt.Fprintf(&b, "      melds %s\n", strings.Join(ms, ", "))
		}
	}
	if v.Seat < table.NumSeats && len(v.Hand)+boolInt(v.HasDrawn) > 0 {
		fmt.Fprintf(&b, "  your hand  %s", spaced(v.Hand))
		if v.HasDrawn {
			fmt.Fprintf(&b, "   drew %v", v.Drawn)
		}
		b.WriteByte('\n')
		if f := fishing; f != nil {
			switch {
			case f.Shanten == 0 && f.Furiten:
				fmt.Fprintf(&b, "  tenpai, waiting on %v (furiten)\n", f.Waits)
			case f.Shanten == 0:
				fmt.Fprintf(&b, "  tenpai, waiting on %v\n", f.Waits)
			default:
				fmt.Fprintf(&b, "  %d-shanten\n", f.Shanten)
			}
		}
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func tileStrings(ts []tile.Tile) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// choice is one numbered action of a prompt.
type choice struct {
	label  string
	action table.Action
}

// actionOrder puts wins first and discards last.
var actionOrder = map[table.ActionType]int{
	table.Tsumo: 0, table.Ron: 0, table.NineTerminals: 1, table.Riichi: 2,
	table.ClosedKan: 3, table.AddedKan: 3, table.OpenKan: 3, table.Pon: 4, table.Chi: 5,
	table.Discard: 6, table.Pass: 7,
}

// choices lists the viewer's legal actions in the order they are numbered:
// wins, riichi, kans, calls, discards (the drawn tile first), pass.
func choices(v *table.View, claim tile.Tile) []choice {
	out := make([]choice, 0, len(v.Legal))
	for _, a := range v.Legal {
		out = append(out, choice{label: actionLabel(a, claim), action: a})
	}
	slices.SortStableFunc(out, func(x, y choice) int {
		if d := actionOrder[x.action.Type] - actionOrder[y.action.Type]; d != 0 {
			return d
		}
		return boolInt(y.action.Tsumogiri) - boolInt(x.action.Tsumogiri)
	})
	return out
}

func actionLabel(a table.Action, claim tile.Tile) string {
	switch a.Type {
	case table.Discard, table.Riichi:
		s := fmt.Sprintf("%v %v", a.Type, a.Tile)
		if a.Tsumogiri {
			s += " (drawn)"
		}
		return s
	case table.Chi, table.Pon:
		return fmt.Sprintf("%v %v with %s", a.Type, claim, tile.FormatInOrder(a.Tiles[:]))
	case table.OpenKan, table.Ron:
		return fmt.Sprintf("%v on %v", a.Type, claim)
	case table.ClosedKan:
		return fmt.Sprintf("closed kan of %v", a.Tile.Kind())
	case table.AddedKan:
		return fmt.Sprintf("added kan with %v", a.Tile)
	case table.NineTerminals:
		return "nine terminals (abort the round)"
	}
	return a.Type.String()
}

// renderChoices numbers the actions: one per line, the discards
// together on one line.
func renderChoices(cs []choice) string {
	var b strings.Builder
	var discards []string
	for i, c := range cs {
		if c.action.Type == table.Discard {
			discards = append(discards, fmt.Sprintf("%d) %s", i+1, strings.TrimPrefix(c.label, "discard ")))
			continue
		}
		if len(discards) > 0 {
			fmt.Fprintf(&b, "  discard  %s\n", strings.Join(discards, "  "))
			discards = nil
		}
		fmt.Fprintf(&b, "  %d) %s\n", i+1, c.label)
	}
	if len(discards) > 0 {
		fmt.Fprintf(&b, "  discard  %s\n", strings.Join(discards, "  "))
	}
	return b.String()
}

// renderPrompt is the board, what the viewer is asked (about is what
// opened a claim window: "S2 discarded 5m") and its choices.
func renderPrompt(v *table.View, n *names, fishing *table.Fishing, claim tile.Tile, about string) string {
	var b strings.Builder
	b.WriteString(renderBoard(v, n, fishing))
	if v.Phase == table.ClaimWindow {
		fmt.Fprintf(&b, "%s. You may:\n", about)
	} else {
		b.WriteString("Your turn. You may:\n")
	}
	b.WriteString(renderChoices(choices(v, claim)))
	b.WriteString("Type a number, a tile to discard it (5m, 0p for the red five), t for the drawn tile, or p to pass.\n")
	return b.String()
}

var endNames = map[table.RoundEndKind]string{
	table.EndWin:           "win",
	table.EndExhaustive:    "exhaustive draw",
	table.EndNagashi:       "exhaustive draw, nagashi mangan",
	table.EndNineTerminals: "abort: nine terminals",
	table.EndFourWinds:     "abort: four winds",
	table.EndFourRiichi:    "abort: four riichi",
	table.EndFourKans:      "abort: four kans",
	table.EndTripleRon:     "abort: triple ron",
}

func deltas(d [table.NumSeats]int, n *names) string {
	parts := make([]string, 0, table.NumSeats)
	for s, x := range d {
		parts = append(parts, fmt.Sprintf("%s %+d", n.short(table.Seat(s)), x))
	}
	return strings.Join(parts, ", ")
}

func scores(sc [table.NumSeats]int, n *names) string {
	parts := make([]string, 0, table.NumSeats)
	for s, x := range sc {
		parts = append(parts, fmt.Sprintf("%s %d", n.short(table.Seat(s)), x))
	}
	return strings.Join(parts, ", ")
}

var ordinals = [...]string{"", "1st", "2nd", "3rd", "4th"}

var noticeText = map[pb.SeatNotice_Kind]string{
	pb.SeatNotice_KIND_JOINED:          "joined",
	pb.SeatNotice_KIND_LEFT:            "left",
	pb.SeatNotice_KIND_BOT_TOOK_OVER:   "is played by a bot",
	pb.SeatNotice_KIND_PLAYER_RETURNED: "is back",
	pb.SeatNotice_KIND_TIMED_OUT:       "ran out of time and was played automatically",
}

// joinedLines introduces a game joined from a snapshot, whose round
// started before the stream did.
func joinedLines(v *table.View, n *names) string {
	switch v.Phase {
	case table.GameOver:
		return "The game is over.\n"
	case table.BetweenRounds:
		if v.WallLeft == 0 && len(v.Dora) == 0 {
			return "Waiting for the first deal.\n"
		}
	}
	return fmt.Sprintf("\n=== %s: dealer %s, %s, %s ===\n",
		roundName(v.RoundWind, v.Number), n.short(v.Dealer), plural(v.Honba, "honba", "honba"), plural(v.RiichiSticks, "riichi stick", "riichi sticks"))
}

// eventLines describes an event for the log: "" for the events that need
// no line (draws, offers, the viewer's tenpai state).
func eventLines(e client.Event, n *names) string {
	if no := e.Notice; no != nil {
		if no.GetKind() == pb.SeatNotice_KIND_TABLE_STARTED {
			return "The table started.\n"
		}
		what, ok := noticeText[no.GetKind()]
		if !ok || no.GetSeat() >= table.NumSeats {
			return ""
		}
		return fmt.Sprintf("%s %s.\n", n.short(table.Seat(no.GetSeat())), what)
	}
	switch b := e.Body.(type) {
	case table.RoundStarted:
		return fmt.Sprintf("\n=== %s: dealer %s, %s, %s, dora indicator %v ===\n",
			roundName(b.RoundWind, b.Number), n.short(b.Dealer), plural(b.Honba, "honba", "honba"), plural(b.RiichiSticks, "riichi stick", "riichi sticks"), b.Dora)
	case table.Discarded:
		if b.Riichi {
			return fmt.Sprintf("%s: riichi, discarding %v\n", n.short(b.Seat), b.Tile)
		}
		return fmt.Sprintf("%s: discard %v\n", n.short(b.Seat), b.Tile)
	case table.Called:
		switch b.Meld.Type {
		case judge.ClosedKan:
			return fmt.Sprintf("%s: closed kan %s\n", n.short(b.Seat), tile.Format(b.Meld.Tiles[:4]))
		case judge.AddedKan:
			return fmt.Sprintf("%s: added kan %s\n", n.short(b.Seat), tile.Format(b.Meld.Tiles[:4]))
		}
		return fmt.Sprintf("%s: %s\n", n.short(b.Seat), meld(b.Meld, n))
	case table.DoraRevealed:
		return fmt.Sprintf("New dora indicator %v.\n", b.Indicator)
	case table.Won:
		return wonLines(b, n)
	case table.RoundEnded:
		var sb strings.Builder
		fmt.Fprintf(&sb, "Round over (%s).", endNames[b.Kind])
		if b.Kind == table.EndExhaustive || b.Kind == table.EndNagashi {
			var ten []string
			for s, t := range b.Tenpai {
				if t {
					ten = append(ten, fmt.Sprintf("%s %s", n.short(table.Seat(s)), spaced(b.Hands[s])))
				}
			}
			if len(ten) == 0 {
				sb.WriteString(" Nobody tenpai.")
			} else {
				fmt.Fprintf(&sb, " Tenpai: %s.", strings.Join(ten, "; "))
			}
		}
		// After a win its payment line said who paid what; the round's
		// deltas would differ from it by the sticks of this round's riichi
		// and only confuse.
		if b.Kind != table.EndWin {
			fmt.Fprintf(&sb, "\n  deltas: %s", deltas(b.Deltas, n))
		}
		fmt.Fprintf(&sb, "\n  scores: %s\n", scores(b.Scores, n))
		return sb.String()
	case table.GameEnded:
		var sb strings.Builder
		sb.WriteString("\n=== Game over ===\n")
		for rank := 1; rank <= table.NumSeats; rank++ {
			for s, r := range b.Ranks {
				if r == rank {
					fmt.Fprintf(&sb, "  %s  %-14s %6d\n", ordinals[rank], n.of(table.Seat(s)), b.Scores[s])
				}
			}
		}
		return sb.String()
	}
	return ""
}

// wonLines shows a win: who, how, the hand, the yaku, the value and the
// score changes.
func wonLines(w table.Won, n *names) string {
	var b strings.Builder
	if w.Tsumo {
		fmt.Fprintf(&b, "%s wins by tsumo on %v!\n", n.short(w.Seat), w.WinTile)
	} else {
		fmt.Fprintf(&b, "%s wins by ron on %v from %s!\n", n.short(w.Seat), w.WinTile, n.short(w.From))
	}
	fmt.Fprintf(&b, "  hand  %s + %v", spaced(w.Hand), w.WinTile)
	for _, m := range w.Melds {
		fmt.Fprintf(&b, ", %s", meld(m, n))
	}
	b.WriteByte('\n')
	if len(w.Ura) > 0 {
		fmt.Fprintf(&b, "  ura dora indicators %s\n", strings.Join(tileStrings(w.Ura), " "))
	}
	ys := make([]string, len(w.Yaku))
	for i, y := range w.Yaku {
		ys[i] = fmt.Sprintf("%v %d", y.Yaku, y.Han)
	}
	fmt.Fprintf(&b, "  yaku  %s\n", strings.Join(ys, ", "))
	value := fmt.Sprintf("%d han %d fu", w.Han, w.Fu)
	switch {
	case w.Yakuman == 1:
		value = "yakuman"
	case w.Yakuman > 1:
		value = fmt.Sprintf("%dx yakuman", w.Yakuman)
	}
	if w.Limit != judge.LimitNone && w.Yakuman == 0 {
		value += ", " + w.Limit.String()
	}
	fmt.Fprintf(&b, "  %s: %d points\n", value, w.Points)
	fmt.Fprintf(&b, "  paid: %s\n", payment(w, n))
	return b.String()
}

// payment is a win's one payment line, which adds up: what each seat
// paid (honba included) and the riichi sticks on the table, to what the
// winner receives ("S1 7700 + 2 riichi sticks 2000 = S3 +9700").
func payment(w table.Won, n *names) string {
	var parts []string
	sum := 0
	for s, d := range w.Deltas {
		sum += d
		if d < 0 {
			parts = append(parts, fmt.Sprintf("%s %d", n.short(table.Seat(s)), -d))
		}
	}
	// The deltas add up to the sticks the winner takes: the payers' part
	// cancels the winner's but for them.
	if sum > 0 {
		parts = append(parts, fmt.Sprintf("%s %d", plural(sum/1000, "riichi stick", "riichi sticks"), sum))
	}
	if len(parts) == 0 {
		parts = append(parts, "nobody")
	}
	return fmt.Sprintf("%s = %s %+d", strings.Join(parts, " + "), n.short(w.Seat), w.Deltas[w.Seat])
}
