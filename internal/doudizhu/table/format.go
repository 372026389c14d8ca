package table

import (
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

// String writes an action in the notation of the scenario scripts:
// "1 bid 2", "0 play 33344455", "2 pass".
func (a Action) String() string {
	switch a.Type {
	case Deal:
		return "deal"
	case Bid:
		return fmt.Sprintf("%d bid %d", a.Seat, a.Bid)
	case Play:
		return fmt.Sprintf("%d play %s", a.Seat, a.Cards.String())
	}
	return fmt.Sprintf("%d %v", a.Seat, a.Type)
}

// Format writes an event body on one line, for logs and the scenario
// scripts.
func Format(b Body) string {
	switch e := b.(type) {
	case DealStarted:
		return fmt.Sprintf("deal_started index=%d number=%d first=%d scores=%s", e.Index, e.Number, e.First, ints(e.Scores[:]))
	case Dealt:
		return fmt.Sprintf("dealt seat=%d hand=%s", e.Seat, e.Hand.String())
	case BidMade:
		if e.Type == Bid {
			return fmt.Sprintf("bid seat=%d bid=%d base=%d", e.Seat, e.Bid, e.Base)
		}
		return fmt.Sprintf("bid seat=%d %v base=%d", e.Seat, e.Type, e.Base)
	case ThrownIn:
		return fmt.Sprintf("thrown_in index=%d hands=%s kitty=%s", e.Index, hands(e.Hands), e.Kitty.String())
	case LandlordChosen:
		return fmt.Sprintf("landlord seat=%d kitty=%s base=%d", e.Seat, e.Kitty.String(), e.Base)
	case Played:
		return fmt.Sprintf("played seat=%d %s left=%d bombs=%d", e.Seat, FormatPlay(&e.Play), e.Left, e.Bombs)
	case Passed:
		if e.Lead {
			return fmt.Sprintf("passed seat=%d lead", e.Seat)
		}
		return fmt.Sprintf("passed seat=%d", e.Seat)
	case DealEnded:
		var flags []string
		if e.Spring {
			flags = append(flags, " spring")
		}
		if e.AntiSpring {
			flags = append(flags, " anti_spring")
		}
		if e.MatchOver {
			flags = append(flags, " match_over")
		}
		return fmt.Sprintf("deal_ended winner=%d landlord=%d landlord_won=%v base=%d bombs=%d doublings=%d stake=%d deltas=%s scores=%s hands=%s%s",
			e.Winner, e.Landlord, e.LandlordWon, e.Base, e.Bombs, e.Doublings, e.Stake, ints(e.Deltas[:]), ints(e.Scores[:]), hands(e.Hands), strings.Join(flags, ""))
	case MatchEnded:
		return fmt.Sprintf("match_ended scores=%s ranks=%s", ints(e.Scores[:]), ints(e.Ranks[:]))
	}
	return fmt.Sprintf("%T", b)
}

// FormatPlay writes a play as "cards type rank len".
func FormatPlay(p *judge.Play) string {
	if p.Type == judge.Rocket {
		return fmt.Sprintf("%s %v", p.Cards.String(), p.Type)
	}
	return fmt.Sprintf("%s %v %v/%d", p.Cards.String(), p.Type, p.Rank, p.Len)
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func hands(h [NumSeats]card.Counts) string {
	s := make([]string, len(h))
	for i := range h {
		s[i] = h[i].String()
		if s[i] == "" {
			s[i] = "-"
		}
	}
	return strings.Join(s, "|")
}
