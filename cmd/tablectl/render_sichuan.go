package main

import (
	"fmt"
	"slices"
	"strings"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The text rendering of Sichuan tables for `play` and `watch`: like the
// riichi one, pure functions of a view and the events, pinned by golden
// tests. A Sichuan board shows what riichi's has no place for: the
// exchange, the void suits, the seats that won and left play, the kan
// money, and the running unit totals.

// scEvent is a Sichuan event as a session delivers it.
type scEvent = client.GameEvent[sc.Body]

func (n *names) scShort(s sc.Seat) string { return n.short(table.Seat(s)) }
func (n *names) scOf(s sc.Seat) string    { return n.of(table.Seat(s)) }

// learnNotice takes a player's name from the notice of its joining.
func (n *names) learnNotice(no *pb.SeatNotice) {
	if no != nil && no.GetKind() == pb.SeatNotice_KIND_JOINED && no.GetSeat() < table.NumSeats {
		n.name[no.GetSeat()] = printable(no.GetName())
	}
}

// scPond writes a pond in order, a tile taken by a call or a win in
// parentheses.
func scPond(ds []sc.DiscardView) string {
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

func scMeld(m sc.Meld, n *names) string {
	x := tile.Plain(m.Kind)
	ts := tile.Format(slices.Repeat([]tile.Tile{x}, m.Len()))
	switch m.Type {
	case sc.MeldClosedKan:
		return "kan " + ts + " (closed)"
	case sc.MeldAddedKan:
		return fmt.Sprintf("kan %s (added to a pon from %s)", ts, n.scShort(m.From))
	case sc.MeldOpenKan:
		return fmt.Sprintf("kan %s (from %s)", ts, n.scShort(m.From))
	}
	return fmt.Sprintf("pon %s (from %s)", ts, n.scShort(m.From))
}

var suitNames = [...]string{"m (characters)", "p (circles)", "s (bamboo)"}

// renderSichuanBoard draws the table as the viewer sees it: the hand's
// number, the dealer, the wall and the exchange; every seat's void suit
// (once revealed), running units and kan money, whether it won and left
// play, its pond and melds; the viewer's tiles, exchange and void.
func renderSichuanBoard(v *sc.View, n *names, rules sc.Rules) string {
	var b strings.Builder
	ex := "exchange off"
	if rules.Exchange {
		ex = "exchange pending"
		if v.Direction != 0 {
			ex = "exchange " + strings.ReplaceAll(v.Direction.String(), "_", " ")
		}
	}
	mode := "bloody battle"
	if rules.BloodyRiver {
		mode = "bloody river"
	}
	fmt.Fprintf(&b, "== hand %d of %d (%s), dealer %s | wall %d | %s ==\n", v.Index+1, rules.Hands, mode, n.scShort(v.Dealer), v.WallLeft, ex)
	for s := range sc.Seat(sc.NumSeats) {
		sv := &v.Seats[s]
		mark := " "
		if v.Phase == sc.Turn && v.ToAct == s {
			mark = ">"
		}
		void := "void ?"
		switch {
		case v.Revealed:
			void = "void " + sv.Void.String()
		case s == v.Seat && v.VoidSet:
			void = "void " + v.Void.String() + " (hidden)"
		}
		tags := []string{void, fmt.Sprintf("%+d units", sv.Score)}
		if sv.KanMoney != 0 {
			tags = append(tags, fmt.Sprintf("kan money %+d", sv.KanMoney))
		}
		if len(sv.Won) > 0 {
			w := "won on " + strings.Join(tileStrings(sv.Won), " ")
			if sv.Left {
				w += ", out of play"
			}
			tags = append(tags, w)
		}
		fmt.Fprintf(&b, "%s %-12s %s\n", mark, n.scOf(s), strings.Join(tags, ", "))
		fmt.Fprintf(&b, "    pond: %s\n", scPond(sv.Discards))
		if len(sv.Melds) > 0 {
			ms := make([]string, len(sv.Melds))
			for i, m := range sv.Melds {
				ms[i] = scMeld(m, n)
			}
			fmt.Fprintf(&b, "    melds: %s\n", strings.Join(ms, ", "))
		}
	}
	if v.Seat < sc.NumSeats {
		hand := spaced(v.Tiles)
		if v.HasDrawn {
			hand += "  drew " + v.Drawn.String()
		}
		fmt.Fprintf(&b, "Your tiles: %s\n", hand)
		if v.Chose {
			line := "Your exchange: gave " + tile.Format(v.Gave[:])
			if v.Direction != 0 {
				line += ", got " + tile.Format(v.Got[:])
			}
			fmt.Fprintln(&b, line)
		}
	}
	return b.String()
}

// scChoices lists the viewer's legal actions as numbered: wins, kans,
// pon, discards, pass; in the exchange the default choice (three of the
// shortest suit) alone, other exchanges being typed as three tiles.
func scChoices(v *sc.View) []scChoice {
	order := map[sc.ActionType]int{sc.Tsumo: 0, sc.Ron: 0, sc.Void: 1, sc.Exchange: 1, sc.ClosedKan: 2, sc.AddedKan: 2, sc.OpenKan: 2, sc.Pon: 3, sc.Discard: 4, sc.Pass: 5}
	var out []scChoice
	if v.Phase == sc.Exchanging && len(v.Legal) > 0 {
		c := tile.CountsOf(v.Tiles)
		a := sc.Action{Seat: v.Seat, Type: sc.Exchange, Tiles: sc.DefaultExchange(&c)}
		return []scChoice{{label: scActionLabel(a), action: a}}
	}
	for _, a := range v.Legal {
		out = append(out, scChoice{label: scActionLabel(a), action: a})
	}
	slices.SortStableFunc(out, func(x, y scChoice) int { return order[x.action.Type] - order[y.action.Type] })
	return out
}

type scChoice struct {
	label  string
	action sc.Action
}

func scActionLabel(a sc.Action) string {
	switch a.Type {
	case sc.Exchange:
		return "give " + tile.Format(a.Tiles[:])
	case sc.Void:
		return "void " + suitNames[a.Suit]
	case sc.Discard:
		return "discard " + a.Tile.String()
	case sc.Pon, sc.OpenKan, sc.Ron:
		return fmt.Sprintf("%v on %v", a.Type, a.Tile)
	case sc.ClosedKan:
		return fmt.Sprintf("closed kan of %v", a.Tile)
	case sc.AddedKan:
		return fmt.Sprintf("added kan with %v", a.Tile)
	}
	return a.Type.String()
}

func renderSichuanChoices(cs []scChoice) string {
	var b strings.Builder
	var discards []string
	for i, c := range cs {
		if c.action.Type == sc.Discard {
			discards = append(discards, fmt.Sprintf("%d) %s", i+1, strings.TrimPrefix(c.label, "discard ")))
			continue
		}
		fmt.Fprintf(&b, "  %d) %s\n", i+1, c.label)
	}
	if len(discards) > 0 {
		fmt.Fprintf(&b, "  discard  %s\n", strings.Join(discards, "  "))
	}
	return b.String()
}

// renderSichuanPrompt is the board, what the viewer is asked and its
// choices.
func renderSichuanPrompt(v *sc.View, n *names, rules sc.Rules, about string) string {
	var b strings.Builder
	b.WriteString(renderSichuanBoard(v, n, rules))
	switch v.Phase {
	case sc.Exchanging:
		b.WriteString("Choose three tiles of one suit to give (type them, 129p), or:\n")
	case sc.ChoosingVoid:
		b.WriteString("Choose your void suit (m, p or s); it stays hidden until every seat chose:\n")
	case sc.ClaimWindow:
		fmt.Fprintf(&b, "%s. You may:\n", about)
	default:
		b.WriteString("Your turn. You may:\n")
	}
	b.WriteString(renderSichuanChoices(scChoices(v)))
	return b.String()
}

func scDeltas(d [sc.NumSeats]int, n *names) string {
	parts := make([]string, 0, sc.NumSeats)
	for s, x := range d {
		parts = append(parts, fmt.Sprintf("%s %+d", n.scShort(sc.Seat(s)), x))
	}
	return strings.Join(parts, ", ")
}

func scScores(s [sc.NumSeats]int, n *names) string {
	parts := make([]string, 0, sc.NumSeats)
	for i, x := range s {
		parts = append(parts, fmt.Sprintf("%s %d", n.scShort(sc.Seat(i)), x))
	}
	return strings.Join(parts, ", ")
}

// sichuanEventLines describes an event for the log; "" for those that
// need no line (public draws, offers).
func sichuanEventLines(e scEvent, n *names) string {
	if no := e.Notice; no != nil {
		if no.GetKind() == pb.SeatNotice_KIND_TABLE_STARTED {
			return "The table started.\n"
		}
		if t, ok := noticeText[no.GetKind()]; ok {
			return fmt.Sprintf("%s %s.\n", n.short(table.Seat(no.GetSeat())), t)
		}
		return ""
	}
	switch b := e.Body.(type) {
	case sc.HandStarted:
		return fmt.Sprintf("\n=== hand %d: dealer %s, units %s ===\n", b.Index+1, n.scShort(b.Dealer), scScores(b.Scores, n))
	case sc.Dealt:
		return fmt.Sprintf("You were dealt %s.\n", spaced(b.Hand))
	case sc.ExchangeChosen:
		if b.Known {
			return fmt.Sprintf("You give %s.\n", tile.Format(b.Tiles[:]))
		}
		return fmt.Sprintf("%s chose three tiles to give.\n", n.scShort(b.Seat))
	case sc.Exchanged:
		return fmt.Sprintf("Exchange: every seat gives %s.\n", strings.ReplaceAll(b.Direction.String(), "_", " "))
	case sc.ExchangeReceived:
		return fmt.Sprintf("You gave %s and got %s from %s.\n", tile.Format(b.Gave[:]), tile.Format(b.Got[:]), n.scShort(b.From))
	case sc.VoidChosen:
		if b.Known {
			return fmt.Sprintf("Your void suit: %s (hidden until all chose).\n", suitNames[b.Suit])
		}
		return fmt.Sprintf("%s chose a void suit.\n", n.scShort(b.Seat))
	case sc.VoidsRevealed:
		parts := make([]string, sc.NumSeats)
		for s, su := range b.Voids {
			parts[s] = fmt.Sprintf("%s %v", n.scShort(sc.Seat(s)), su)
		}
		return "Void suits: " + strings.Join(parts, ", ") + ".\n"
	case sc.Drew:
		if b.Known && b.Replacement {
			return fmt.Sprintf("You drew %v after your kan.\n", b.Tile)
		}
		return ""
	case sc.Discarded:
		return fmt.Sprintf("%s discarded %v.\n", n.scShort(b.Seat), b.Tile)
	case sc.Called:
		return fmt.Sprintf("%s: %s.\n", n.scShort(b.Seat), scMeld(b.Meld, n))
	case sc.KanPaid:
		return fmt.Sprintf("Kan money for %s (%v): %s.\n", n.scShort(b.Seat), b.Type, scDeltas(b.Deltas, n))
	case sc.KanTransferred:
		return fmt.Sprintf("The discard after the kan of %s was won: the kan's %d units go to %s.\n", n.scShort(b.Seat), b.Units, n.scShort(b.To))
	case sc.Won:
		how := "by self-draw"
		switch {
		case b.Chankan:
			how = "robbing the kan of " + n.scShort(b.From)
		case !b.Tsumo:
			how = "on the discard of " + n.scShort(b.From)
		}
		fans := make([]string, len(b.Fans))
		for i, f := range b.Fans {
			fans[i] = fmt.Sprintf("%s %d", f.Name, f.Fan)
		}
		line := fmt.Sprintf("%s won %s with %v: %s (%s), %d fan, %d units; %s.\n", n.scShort(b.Seat), how, b.WinTile, spaced(b.Hand),
			strings.Join(fans, ", "), b.Fan, b.Value, scDeltas(b.Deltas, n))
		if b.Left {
			line += fmt.Sprintf("%s leaves play.\n", n.scShort(b.Seat))
		}
		return line
	case sc.HandEnded:
		var lines strings.Builder
		if b.Kind == sc.EndThreeWon {
			lines.WriteString("Three seats won: the hand is over.\n")
		} else {
			lines.WriteString("The wall is empty.\n")
			for s := range sc.Seat(sc.NumSeats) {
				switch {
				case b.HuaZhu[s]:
					fmt.Fprintf(&lines, "  %s: holds its void suit (hua zhu): %s\n", n.scShort(s), spaced(b.Hands[s]))
				case b.Ready[s]:
					fmt.Fprintf(&lines, "  %s: ready: %s\n", n.scShort(s), spaced(b.Hands[s]))
				case b.Hands[s] != nil:
					fmt.Fprintf(&lines, "  %s: not ready: %s\n", n.scShort(s), spaced(b.Hands[s]))
				}
			}
			if b.HuaZhuPay != [sc.NumSeats]int{} {
				fmt.Fprintf(&lines, "  hua zhu: %s\n", scDeltas(b.HuaZhuPay, n))
			}
			if b.ReadyPay != [sc.NumSeats]int{} {
				fmt.Fprintf(&lines, "  not ready: %s\n", scDeltas(b.ReadyPay, n))
			}
			if b.Refunds != [sc.NumSeats]int{} {
				fmt.Fprintf(&lines, "  kan money back: %s\n", scDeltas(b.Refunds, n))
			}
		}
		fmt.Fprintf(&lines, "Hand: %s. Units: %s.\n", scDeltas(b.Deltas, n), scScores(b.Scores, n))
		return lines.String()
	case sc.MatchEnded:
		parts := make([]string, sc.NumSeats)
		for s := range b.Scores {
			parts[s] = fmt.Sprintf("%s %s %d", ordinals[b.Ranks[s]], n.scShort(sc.Seat(s)), b.Scores[s])
		}
		return "The match is over: " + strings.Join(parts, ", ") + ".\n"
	}
	return ""
}
