package table

import "github.com/mahjong-authority/authority/internal/doudizhu/judge"

// Offer tells the seat to act what it may do, for a host whose remote
// seats cannot work it out alone (the bid values left, whether it may
// pass or must lead). The engine does not emit it; a host appends it,
// private to the seat, after each step that leaves a seat to act.
type Offer struct {
	Seat     Seat
	Bids     uint8 // bit v set: the seat may bid v points (1..3)
	Call     bool
	Rob      bool
	Pass     bool
	Play     bool // some play is legal
	MustLead bool
	ToBeat   judge.Play // the play to beat, when Play and not MustLead
}

func (Offer) event() {}

// Offer returns what the seat to act may do; ok is false when the table
// waits for no seat (between deals, match over).
func (t *Table) Offer() (o Offer, ok bool) {
	d := &t.d
	o.Seat = d.toAct
	switch t.phase {
	case Bidding:
		switch {
		case !t.rules.Rob:
			for v := d.base + 1; v <= 3; v++ {
				o.Bids |= 1 << v
			}
		case d.hasBid:
			o.Rob = true
		default:
			o.Call = true
		}
		o.Pass = true
	case Playing:
		// Play says whether any play is legal (none may beat the play
		// before); the seat that leads always has one.
		hand := d.hands[d.toAct].Counts()
		t.plays = judge.AppendLegal(t.plays[:0], &hand, t.lastPtr())
		o.Play = len(t.plays) > 0
		o.MustLead = !d.hasLast
		o.Pass = d.hasLast
		if d.hasLast {
			o.ToBeat = d.last
		}
	default:
		return Offer{}, false
	}
	return o, true
}
