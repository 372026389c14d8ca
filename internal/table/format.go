package table

import (
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// String writes an action as the scenario scripts do: "seat 2 discard 5m",
// "seat 1 chi 34m", "deal".
func (a Action) String() string {
	var b strings.Builder
	if a.Type != Deal {
		fmt.Fprintf(&b, "seat %d ", a.Seat)
	}
	b.WriteString(a.Type.String())
	switch a.Type {
	case Discard, Riichi, ClosedKan, AddedKan:
		b.WriteString(" " + a.Tile.String())
		if a.Tsumogiri {
			b.WriteString(" tsumogiri")
		}
	case Chi, Pon:
		b.WriteString(" " + tile.FormatInOrder(a.Tiles[:]))
	}
	return b.String()
}

// String writes an event on one line, as the scenario scripts show them:
// its audience, then its body ("[2] drew 5m wall=69").
func (e Event) String() string {
	var b strings.Builder
	if e.To.Private {
		fmt.Fprintf(&b, "[%d] ", e.To.Seat)
	} else {
		b.WriteString("[*] ")
	}
	b.WriteString(FormatBody(e.Body))
	return b.String()
}

// FormatBody writes an event body on one line.
func FormatBody(body Body) string {
	switch v := body.(type) {
	case RoundStarted:
		return fmt.Sprintf("round %v%d dealer=%d honba=%d sticks=%d scores=%v dora=%v wall=%d",
			v.RoundWind, v.Number, v.Dealer, v.Honba, v.RiichiSticks, v.Scores, v.Dora, v.WallLeft)
	case Dealt:
		return fmt.Sprintf("dealt seat=%d %s", v.Seat, tile.Format(v.Hand))
	case Drew:
		s := fmt.Sprintf("drew seat=%d", v.Seat)
		if v.Known {
			s += " " + v.Tile.String()
		}
		if v.Rinshan {
			s += " rinshan"
		}
		return s + fmt.Sprintf(" wall=%d", v.WallLeft)
	case Discarded:
		s := fmt.Sprintf("discarded seat=%d %v", v.Seat, v.Tile)
		if v.Tsumogiri {
			s += " tsumogiri"
		}
		if v.Riichi {
			s += " riichi"
		}
		return s
	case Fishing:
		s := fmt.Sprintf("fishing seat=%d shanten=%d", v.Seat, v.Shanten)
		if v.Waits != 0 {
			s += " waits=" + v.Waits.String()
		}
		if v.Furiten {
			s += " furiten"
		}
		return s
	case ClaimOffer:
		opts := make([]string, len(v.Options))
		for i, a := range v.Options {
			opts[i] = strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat))
		}
		return fmt.Sprintf("offer seat=%d %s", v.Seat, strings.Join(opts, ", "))
	case RiichiAccepted:
		return fmt.Sprintf("riichi seat=%d sticks=%d scores=%v", v.Seat, v.RiichiSticks, v.Scores)
	case Called:
		return fmt.Sprintf("called seat=%d %s", v.Seat, FormatMeld(v.Meld))
	case DoraRevealed:
		return fmt.Sprintf("dora %v", v.Indicator)
	case Won:
		how := fmt.Sprintf("ron from=%d", v.From)
		if v.Tsumo {
			how = "tsumo"
		}
		melds := ""
		for _, m := range v.Melds {
			melds += " " + FormatMeld(m)
		}
		yaku := make([]string, len(v.Yaku))
		for i, y := range v.Yaku {
			yaku[i] = fmt.Sprintf("%v:%d", y.Yaku, y.Han)
		}
		s := fmt.Sprintf("won seat=%d %s hand=%s%s win=%v han=%d fu=%d", v.Seat, how, tile.Format(v.Hand), melds, v.WinTile, v.Han, v.Fu)
		if v.Yakuman > 0 {
			s += fmt.Sprintf(" yakuman=%d", v.Yakuman)
		}
		s += fmt.Sprintf(" yaku=[%s]", strings.Join(yaku, " "))
		if v.Ura != nil {
			s += " ura=" + tile.FormatInOrder(v.Ura)
		}
		if v.PaoSet {
			s += fmt.Sprintf(" pao=%d", v.Pao)
		}
		return s + fmt.Sprintf(" points=%d deltas=%v", v.Points, v.Deltas)
	case RoundEnded:
		s := fmt.Sprintf("round ended %v deltas=%v scores=%v", v.Kind, v.Deltas, v.Scores)
		for seat, h := range v.Hands {
			if h != nil {
				s += fmt.Sprintf(" hand%d=%s", seat, tile.Format(h))
			}
		}
		if v.Tenpai != [NumSeats]bool{} {
			s += fmt.Sprintf(" tenpai=%v", v.Tenpai)
		}
		s += fmt.Sprintf(" sticks=%d honba=%d", v.RiichiSticks, v.Honba)
		if v.GameOver {
			s += " game_over"
		}
		return s
	case GameEnded:
		return fmt.Sprintf("game ended scores=%v ranks=%v", v.Scores, v.Ranks)
	}
	return fmt.Sprintf("%T", body)
}

// FormatMeld writes a meld: its type, tiles, and where the called tile came
// from ("pon 555p<1": the 5p of seat 1).
func FormatMeld(m Meld) string {
	s := m.Type.String() + " " + tile.FormatInOrder(m.Tiles[:m.Len()])
	if m.Type != judge.ClosedKan {
		s += fmt.Sprintf(" %v<%d", m.Called, m.From)
	}
	if m.Type == judge.AddedKan {
		s += " +" + m.Added.String()
	}
	return s
}
