// Package bot plays a Dou Dizhu seat from what the seat sees (table.View):
// it bids by hand strength, leads its longest combinations, answers with
// the smallest play that beats, keeps its bombs and the rocket for when
// they matter, and does not beat its partner farmer needlessly. It is
// deterministic: the same view, the same action.
package bot

import (
	"errors"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// ErrNotToAct is returned by Act for a view whose seat has nothing to do.
var ErrNotToAct = errors.New("bot: the seat has nothing to do")

// Bot is one seat's player. The zero value is ready; a Bot keeps a buffer
// between calls and is not safe for concurrent use.
type Bot struct {
	plays []judge.Play
}

// Act returns the action for the seat of v, which must be the seat to act.
func (b *Bot) Act(v *table.View) (table.Action, error) {
	if v.ToAct != v.Seat || (v.Phase != table.Bidding && v.Phase != table.Playing) {
		return table.Action{}, ErrNotToAct
	}
	if v.Phase == table.Bidding {
		return b.bid(v), nil
	}
	return b.play(v), nil
}

// Strength scores a hand for the bidding: high cards, bombs and the
// rocket, the cards that win tricks and double stakes.
func Strength(h *card.Counts) int {
	s := 3*int(h[card.BlackJoker]) + 4*int(h[card.RedJoker]) + 2*int(h[card.Two]) + int(h[card.Ace])
	if h[card.BlackJoker] == 1 && h[card.RedJoker] == 1 {
		s += 2
	}
	for r := card.Three; r <= card.Two; r++ {
		if h[r] == 4 {
			s += 6
		}
	}
	return s
}

func (b *Bot) bid(v *table.View) table.Action {
	s := Strength(&v.Hand)
	pass := table.Action{Seat: v.Seat, Type: table.Pass}
	for _, a := range v.Legal {
		switch {
		case a.Type == table.Call && s >= 7, a.Type == table.Rob && s >= 11:
			return a
		}
	}
	want := 0
	switch {
	case s >= 14:
		want = 3
	case s >= 10:
		want = 2
	case s >= 7:
		want = 1
	}
	if want > v.Base && v.Phase == table.Bidding && !hasType(v.Legal, table.Call) {
		for _, a := range v.Legal {
			if a.Type == table.Bid && a.Bid == want {
				return a
			}
		}
	}
	return pass
}

func hasType(acts []table.Action, t table.ActionType) bool {
	for _, a := range acts {
		if a.Type == t {
			return true
		}
	}
	return false
}

func (b *Bot) play(v *table.View) table.Action {
	h := &v.Hand
	var prev *judge.Play
	if v.HasLast {
		prev = &v.Last
	}
	b.plays = judge.AppendLegal(b.plays[:0], h, prev)
	pass := table.Action{Seat: v.Seat, Type: table.Pass}
	if len(b.plays) == 0 {
		return pass
	}
	// Going out wins the deal: always do it.
	n := h.Len()
	for i := range b.plays {
		if b.plays[i].Size() == n {
			return playOf(v.Seat, &b.plays[i])
		}
	}
	if prev == nil {
		return playOf(v.Seat, b.lead(v))
	}
	farmer := v.Seat != v.Landlord
	if farmer && v.LastBy != v.Landlord {
		return pass // the partner farmer holds the trick
	}
	if p := b.smallest(h, false); p != nil {
		return playOf(v.Seat, p)
	}
	// Only a bomb or the rocket beats it: worth it when an opponent is
	// about to go out or the bot is.
	if b.bombMatters(v) {
		if p := b.smallest(h, true); p != nil {
			return playOf(v.Seat, p)
		}
	}
	return pass
}

func playOf(s table.Seat, p *judge.Play) table.Action {
	return table.Action{Seat: s, Type: table.Play, Cards: p.Cards}
}

// keeps reports whether p leaves the hand's bombs and rocket whole: it
// takes no card of a rank the hand holds four of, and no joker while the
// hand holds both, unless p is that bomb or the rocket.
func keeps(h *card.Counts, p *judge.Play) bool {
	if p.Type == judge.Bomb || p.Type == judge.Rocket {
		return true
	}
	for r := card.Three; r <= card.Two; r++ {
		if h[r] == 4 && p.Cards[r] > 0 {
			return false
		}
	}
	rocket := h[card.BlackJoker] == 1 && h[card.RedJoker] == 1
	return !rocket || (p.Cards[card.BlackJoker] == 0 && p.Cards[card.RedJoker] == 0)
}

// cost orders plays of the same kind: the lower rank first, then the lower
// cards overall (kickers and wings from the bottom of the hand).
func cost(p *judge.Play) int {
	c := int(p.Rank) * 1000
	for r, k := range p.Cards {
		c += r * int(k)
	}
	return c
}

// smallest is the cheapest answer that keeps the hand's bombs whole:
// bombs and the rocket only when bombs is set.
func (b *Bot) smallest(h *card.Counts, bombs bool) *judge.Play {
	var best *judge.Play
	for i := range b.plays {
		p := &b.plays[i]
		isBomb := p.Type == judge.Bomb || p.Type == judge.Rocket
		if isBomb != bombs || !keeps(h, p) {
			continue
		}
		if best == nil || cost(p) < cost(best) || (p.Type == judge.Bomb && best.Type == judge.Rocket) {
			best = p
		}
	}
	return best
}

// bombMatters says when to spend a bomb on a trick: an opponent has few
// cards left, or the bomb leaves the bot one card from going out.
func (b *Bot) bombMatters(v *table.View) bool {
	if v.Hand.Len() <= 5 {
		return true
	}
	for s := range table.Seat(table.NumSeats) {
		opponent := s != v.Seat && (v.Seat == v.Landlord || s == v.Landlord)
		if opponent && v.Left[s] <= 4 {
			return true
		}
	}
	return false
}

// lead picks the longest combination that keeps the bombs whole and holds
// no 2 or joker, the lowest of equal length; failing that, the smallest
// play of all.
func (b *Bot) lead(v *table.View) *judge.Play {
	h := &v.Hand
	var best *judge.Play
	for i := range b.plays {
		p := &b.plays[i]
		if p.Type == judge.Bomb || p.Type == judge.Rocket || !keeps(h, p) || high(p) {
			continue
		}
		if best == nil || p.Size() > best.Size() || (p.Size() == best.Size() && cost(p) < cost(best)) {
			best = p
		}
	}
	if best != nil {
		return best
	}
	for i := range b.plays {
		p := &b.plays[i]
		if best == nil || p.Size() < best.Size() || (p.Size() == best.Size() && cost(p) < cost(best)) {
			best = p
		}
	}
	return best
}

// high reports whether p spends a 2 or a joker.
func high(p *judge.Play) bool {
	return p.Cards[card.Two] > 0 || p.Cards[card.BlackJoker] > 0 || p.Cards[card.RedJoker] > 0
}
