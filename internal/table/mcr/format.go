package mcr

import (
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/tile"
)

// String writes an action as the scenario scripts do: "seat 2 discard 5m",
// "seat 1 chi 3m from 2m", "deal".
func (a Action) String() string {
	var b strings.Builder
	if a.Type != Deal {
		fmt.Fprintf(&b, "seat %d ", a.Seat)
	}
	b.WriteString(a.Type.String())
	switch a.Type {
	case Discard, ClosedKan, AddedKan:
		b.WriteString(" " + a.Tile.String())
	case Chi:
		b.WriteString(" " + formatRun(a.Run))
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

// FormatMeld writes a meld as "pon 5m from 2", "chi 345m (4m) from 1",
// a hidden concealed kong as "closed_kan ? from 3".
func FormatMeld(m Meld) string {
	switch {
	case m.Hidden:
		return fmt.Sprintf("%v ? from %d", m.Type, m.From)
	case m.Type == MeldChi:
		return fmt.Sprintf("chi %s (%v) from %d", formatRun(m.Kind), m.Called, m.From)
	}
	return fmt.Sprintf("%v %v from %d", m.Type, m.Kind, m.From)
}

// formatRun writes the run from k as "345m".
func formatRun(k tile.Kind) string {
	if k >= 27 || k%9 > 6 {
		return "run(" + k.String() + ")"
	}
	n := k.Number()
	return fmt.Sprintf("%d%d%d%c", n, n+1, n+2, k.Suit().Letter())
}

func formatMelds(ms []Meld) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, FormatMeld(m))
	}
	return strings.Join(parts, ", ")
}

func formatWinds(ws [NumSeats]tile.Wind) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteByte("ESWN"[w&3])
	}
	return b.String()
}

// FormatBody writes an event body on one line.
func FormatBody(body Body) string {
	switch v := body.(type) {
	case HandStarted:
		return fmt.Sprintf("hand %d round=%c dealer=%d winds=%s scores=%v wall=%d", v.Index, "ESWN"[v.Round&3], v.Dealer, formatWinds(v.Winds), v.Scores, v.WallLeft)
	case Dealt:
		return fmt.Sprintf("dealt seat=%d %s", v.Seat, tile.FormatInOrder(v.Hand))
	case FlowerSetAside:
		return fmt.Sprintf("flower seat=%d %v", v.Seat, v.Flower)
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
			o := a.Type.String()
			if a.Type == Chi {
				o += " " + formatRun(a.Run)
			}
			opts = append(opts, o)
		}
		return fmt.Sprintf("offer seat=%d %s", v.Seat, strings.Join(opts, ", "))
	case TurnOffer:
		var opts []string
		for _, a := range v.Options {
			opts = append(opts, a.String())
		}
		return fmt.Sprintf("turn offer seat=%d %s", v.Seat, strings.Join(opts, ", "))
	case Called:
		return fmt.Sprintf("called seat=%d %s", v.Seat, FormatMeld(v.Meld))
	case Won:
		how := fmt.Sprintf("ron from=%d", v.From)
		if v.Tsumo {
			how = "tsumo"
		} else if v.Chankan {
			how = fmt.Sprintf("chankan from=%d", v.From)
		}
		var fans []string
		for _, f := range v.Fans {
			if f.Count > 1 {
				fans = append(fans, fmt.Sprintf("%s:%dx%d", f.Name, f.Count, f.Points/f.Count))
			} else {
				fans = append(fans, fmt.Sprintf("%s:%d", f.Name, f.Points))
			}
		}
		s := fmt.Sprintf("won seat=%d %s hand=%s", v.Seat, how, tile.FormatInOrder(v.Hand))
		if len(v.Melds) > 0 {
			s += " melds=[" + formatMelds(v.Melds) + "]"
		}
		return s + fmt.Sprintf(" win=%v flowers=%d fans=[%s] total=%d deltas=%v scores=%v", v.WinTile, v.Flowers, strings.Join(fans, " "), v.Total, v.Deltas, v.Scores)
	case HandEnded:
		s := fmt.Sprintf("hand ended %v deltas=%v scores=%v", v.Kind, v.Deltas, v.Scores)
		if v.GameOver {
			s += " game_over"
		}
		return s
	case GameEnded:
		return fmt.Sprintf("game ended scores=%v table_points=%v", v.Scores, v.TablePoints)
	}
	return fmt.Sprintf("%T", body)
}
