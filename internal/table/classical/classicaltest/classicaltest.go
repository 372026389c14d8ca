// Package classicaltest plays test games of classical tables: the deal of
// each hand on a wall made from a seed, and a bot's action for the seat
// the table waits for. The tests of the classical bot, wire and tracker
// drive their games with it, so a seed plays the same game in each.
//
// It imports no bot (the bot's own tests use it): the caller passes one.
package classicaltest

import (
	"encoding/binary"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Wall is the wall of hand n of a game of seed: a 144-tile wall whose
// seed holds seed and n.
func Wall(seed uint64, n int) wall.Wall144 {
	var ws [32]byte
	binary.LittleEndian.PutUint64(ws[:], seed)
	binary.LittleEndian.PutUint64(ws[8:], uint64(n))
	return wall.New144(ws)
}

// Deal is the deal of hand n of a game of seed, on Wall(seed, n).
func Deal(seed uint64, n int) ct.Action {
	w := Wall(seed, n)
	return ct.Action{Type: ct.Deal, Wall: &w}
}

// Next is the action a game of seed plays next on tb. Between hands it is
// the deal of hand *hands (Deal), and *hands counts it. Otherwise it is
// bot's action for the first seat tb waits for, whose view Next leaves in
// v; ok is false when bot had none (a bot's bug: a waited-for seat always
// has one) or no seat is waited for.
func Next(tb *ct.Table, seed uint64, hands *int, v *ct.View, bot func(*ct.View) (ct.Action, bool)) (a ct.Action, ok bool) {
	if tb.Phase() == ct.BetweenHands {
		a = Deal(seed, *hands)
		*hands++
		return a, true
	}
	for s := range ct.Seat(ct.NumSeats) {
		if tb.Waiting(s) {
			tb.ViewInto(s, v)
			return bot(v)
		}
	}
	return ct.Action{}, false
}
