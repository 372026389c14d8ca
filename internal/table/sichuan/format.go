package sichuan

import (
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/tile"
)

// String writes an action as the scenario scripts do: "seat 2 discard 5m",
// "seat 1 exchange 234p", "seat 0 void s", "deal".
func (a Action) String() string {
	var b strings.Builder
	if a.Type != Deal {
		fmt.Fprintf(&b, "seat %d ", a.Seat)
	}
	b.WriteString(a.Type.String())
	switch a.Type {
	case Discard, ClosedKan, AddedKan:
		b.WriteString(" " + a.Tile.String())
	case Exchange:
		b.WriteString(" " + tile.FormatInOrder(a.Tiles[:]))
	case Void:
		b.WriteString(" " + a.Suit.String())
	}
	return b.String()
}

// String writes an event on one line: its audience, then its body
// ("[2] drew seat=2 5m wall=54").
func (e Event) String() string {
	if e.To.Private {
		return fmt.Sprintf("[%d] %s", e.To.Seat, FormatBody(e.Body))
	}
	return "[*] " + FormatBody(e.Body)
}

// FormatMeld writes a meld as "pon 5m from 2".
func FormatMeld(m Meld) string {
	return fmt.Sprintf("%v %v from %d", m.Type, m.Kind, m.From)
}

func formatMelds(ms []Meld) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, FormatMeld(m))
	}
	return strings.Join(parts, ", ")
}

// FormatBody writes an event body on one line.
func FormatBody(body Body) string {
	switch v := body.(type) {
	case HandStarted:
		return fmt.Sprintf("hand %d dealer=%d scores=%v wall=%d", v.Index, v.Dealer, v.Scores, v.WallLeft)
	case Dealt:
		return fmt.Sprintf("dealt seat=%d %s", v.Seat, tile.Format(v.Hand))
	case ExchangeChosen:
		if v.Known {
			return fmt.Sprintf("exchange chosen seat=%d %s", v.Seat, tile.FormatInOrder(v.Tiles[:]))
		}
		return fmt.Sprintf("exchange chosen seat=%d", v.Seat)
	case Exchanged:
		return fmt.Sprintf("exchanged %v", v.Direction)
	case ExchangeReceived:
		return fmt.Sprintf("exchange seat=%d gave=%s got=%s from=%d", v.Seat, tile.FormatInOrder(v.Gave[:]), tile.FormatInOrder(v.Got[:]), v.From)
	case VoidChosen:
		if v.Known {
			return fmt.Sprintf("void chosen seat=%d %v", v.Seat, v.Suit)
		}
		return fmt.Sprintf("void chosen seat=%d", v.Seat)
	case VoidsRevealed:
		return fmt.Sprintf("voids %v %v %v %v", v.Voids[0], v.Voids[1], v.Voids[2], v.Voids[3])
	case Drew:
		s := fmt.Sprintf("drew seat=%d", v.Seat)
		if v.Known {
			s += " " + v.Tile.String()
		}
		if v.Replacement {
			s += " replacement"
		}
		return s + fmt.Sprintf(" wall=%d", v.WallLeft)
	case Discarded:
		return fmt.Sprintf("discarded seat=%d %v", v.Seat, v.Tile)
	case ClaimOffer:
		var opts []string
		for _, a := range v.Options {
			opts = append(opts, a.Type.String())
		}
		return fmt.Sprintf("offer seat=%d %s", v.Seat, strings.Join(opts, ", "))
	case TurnOffer:
		var opts []string
		for _, a := range v.Options {
			opts = append(opts, strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat)))
		}
		return fmt.Sprintf("turn offer seat=%d %s", v.Seat, strings.Join(opts, ", "))
	case Called:
		return fmt.Sprintf("called seat=%d %s", v.Seat, FormatMeld(v.Meld))
	case KanPaid:
		return fmt.Sprintf("kan paid seat=%d %v deltas=%v scores=%v", v.Seat, v.Type, v.Deltas, v.Scores)
	case KanTransferred:
		return fmt.Sprintf("kan transferred seat=%d to=%d units=%d scores=%v", v.Seat, v.To, v.Units, v.Scores)
	case Won:
		how := fmt.Sprintf("ron from=%d", v.From)
		if v.Tsumo {
			how = "tsumo"
		} else if v.Chankan {
			how = fmt.Sprintf("chankan from=%d", v.From)
		}
		var fans []string
		for _, f := range v.Fans {
			fans = append(fans, fmt.Sprintf("%s:%d", f.Name, f.Fan))
		}
		s := fmt.Sprintf("won seat=%d %s hand=%s", v.Seat, how, tile.Format(v.Hand))
		if len(v.Melds) > 0 {
			s += " melds=[" + formatMelds(v.Melds) + "]"
		}
		s += fmt.Sprintf(" win=%v fan=%d fans=[%s] value=%d deltas=%v scores=%v", v.WinTile, v.Fan, strings.Join(fans, " "), v.Value, v.Deltas, v.Scores)
		if v.Left {
			s += " left"
		}
		return s
	case HandEnded:
		s := fmt.Sprintf("hand ended %v", v.Kind)
		if v.Kind == EndWallEmpty {
			s += fmt.Sprintf(" huazhu=%v ready=%v huazhu_pay=%v ready_pay=%v refunds=%v", bits(v.HuaZhu), bits(v.Ready), v.HuaZhuPay, v.ReadyPay, v.Refunds)
		}
		s += fmt.Sprintf(" deltas=%v scores=%v next_dealer=%d", v.Deltas, v.Scores, v.NextDealer)
		if v.MatchOver {
			s += " match_over"
		}
		return s
	case MatchEnded:
		return fmt.Sprintf("match ended scores=%v ranks=%v", v.Scores, v.Ranks)
	}
	return fmt.Sprintf("%T", body)
}

func bits(bs [NumSeats]bool) string {
	var b strings.Builder
	for _, x := range bs {
		if x {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}
