package table

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
)

// Verify recomputes the table's invariants from scratch and reports the
// first that fails: during a deal the 54 cards are all there, each in one
// place only (a hand, the kitty before it is shown, or the played cards),
// the hands have the sizes the plays left them, and the scores still sum
// to what they started at. Tests call it after every step.
func (t *Table) Verify() error {
	sum, start := 0, 0
	for s := range t.scores {
		sum += t.scores[s]
		start += t.start[s]
	}
	if sum != start {
		return fmt.Errorf("scores %v sum to %d, started at %d", t.scores, sum, start)
	}
	if t.done > t.number || t.number > t.index || t.done > t.rules.Deals {
		return fmt.Errorf("deals: %d done, %d started, %d dealt", t.done, t.number, t.index)
	}
	if t.phase != Bidding && t.phase != Playing {
		return nil
	}
	d := &t.d
	var all card.Set
	places := []card.Set{d.hands[0], d.hands[1], d.hands[2], d.kitty, d.played}
	for i, p := range places {
		if all&p != 0 {
			return fmt.Errorf("place %d holds %v, which another place holds too", i, all&p)
		}
		all |= p
	}
	if all != card.All {
		return fmt.Errorf("cards missing: %v", card.All&^all)
	}
	if d.toAct >= NumSeats {
		return fmt.Errorf("seat to act %d", d.toAct)
	}
	if t.phase == Bidding {
		for s := range d.hands {
			if d.hands[s].Len() != deck.HandSize {
				return fmt.Errorf("bidding: seat %d holds %d cards", s, d.hands[s].Len())
			}
		}
		if d.kitty.Len() != deck.KittySize || d.played != 0 || d.hasLandlord {
			return fmt.Errorf("bidding: kitty %v, played %v, landlord %v", d.kitty, d.played, d.hasLandlord)
		}
		return nil
	}
	if d.kitty != 0 || !d.hasLandlord {
		return fmt.Errorf("playing: kitty %v still down or no landlord", d.kitty)
	}
	if d.shown != d.deck.Kitty().Counts() {
		return fmt.Errorf("playing: shown kitty %s is not the deck's %s", d.shown.String(), d.deck.Kitty().String())
	}
	for s := range Seat(NumSeats) {
		// A seat's cards are its deal (and the kitty) less what it played.
		dealt := d.deck.Hand(int(s))
		if s == d.landlord {
			dealt |= d.deck.Kitty()
		}
		if d.hands[s]&^dealt != 0 {
			return fmt.Errorf("seat %d holds %v it was not dealt", s, d.hands[s]&^dealt)
		}
		if d.hands[s].Len() == 0 {
			return fmt.Errorf("seat %d has no cards but the deal goes on", s)
		}
	}
	if d.passes > 1 || (d.passes > 0 && !d.hasLast) {
		return fmt.Errorf("%d passes in a row with a play to beat %v", d.passes, d.hasLast)
	}
	return nil
}
