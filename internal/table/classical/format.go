package classical

import (
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/tile"
)

// String is the event in the scripts' notation: its sequence number, its
// audience and its body.
func (e Event) String() string {
	to := "all"
	if e.To.Private {
		to = fmt.Sprintf("seat %d", e.To.Seat)
	}
	return fmt.Sprintf("%d [%s] %s", e.Seq, to, FormatBody(e.Body))
}

// FormatMeld writes a meld as "pung 5m<2": its type, lowest tile and the
// seat it was claimed from.
func FormatMeld(m Meld) string { return fmt.Sprintf("%v %v<%d", m.Type, tile.Plain(m.Kind), m.From) }

func formatMelds(ms []Meld) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = FormatMeld(m)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func formatLine(l SeatScore) string {
	s := fmt.Sprintf("%d (%d pts, %d dbl)", l.Score, l.Base, l.Doubles)
	if l.Special != 0 {
		s += " " + l.Special.String()
		if l.Fishing {
			s += " fishing"
		}
	}
	return s
}

// FormatBody writes an event body on one line.
func FormatBody(body Body) string {
	switch b := body.(type) {
	case HandStarted:
		return fmt.Sprintf("hand %d started: round %v, east %d, scores %v, wall %d", b.Index, b.Round, b.Dealer, b.Scores, b.WallLeft)
	case Dealt:
		return fmt.Sprintf("seat %d dealt %s", b.Seat, tile.Format(b.Hand))
	case BonusSetAside:
		return fmt.Sprintf("seat %d set aside %v", b.Seat, b.Tile)
	case Drew:
		s := fmt.Sprintf("seat %d drew", b.Seat)
		if b.Known {
			s += " " + b.Tile.String()
		}
		if b.Replacement {
			s += " (replacement)"
		}
		return s + fmt.Sprintf(", wall %d", b.WallLeft)
	case Discarded:
		return fmt.Sprintf("seat %d discarded %v", b.Seat, b.Tile)
	case Fishing:
		if b.Original {
			return fmt.Sprintf("seat %d is fishing (original call)", b.Seat)
		}
		return fmt.Sprintf("seat %d is fishing", b.Seat)
	case ClaimOffer:
		return fmt.Sprintf("seat %d offered %v", b.Seat, b.Options)
	case TurnOffer:
		return fmt.Sprintf("seat %d may %v", b.Seat, b.Options)
	case Called:
		return fmt.Sprintf("seat %d called %s", b.Seat, FormatMeld(b.Meld))
	case Won:
		how := fmt.Sprintf("on %d's discard", b.From)
		switch {
		case b.SelfDrawn:
			how = "self-drawn"
		case b.RobbedKong:
			how = fmt.Sprintf("robbing %d's kong", b.From)
		}
		return fmt.Sprintf("seat %d mah jong %s on %v: %s %s", b.Seat, how, b.WinTile, tile.Format(b.Hand), formatMelds(b.Melds))
	case HandEnded:
		var sb strings.Builder
		fmt.Fprintf(&sb, "hand ended: %v", b.Kind)
		if b.Kind == EndMahJong {
			fmt.Fprintf(&sb, " by %d;", b.Winner)
			for s, l := range b.Lines {
				fmt.Fprintf(&sb, " %d: %s;", s, formatLine(l))
			}
		}
		fmt.Fprintf(&sb, " deltas %v, scores %v, next east %d round %v", b.Deltas, b.Scores, b.NextDealer, b.NextRound)
		if b.GameOver {
			sb.WriteString(", game over")
		}
		return sb.String()
	case GameEnded:
		return fmt.Sprintf("game ended: scores %v, ranks %v", b.Scores, b.Ranks)
	}
	return fmt.Sprintf("%T", body)
}
