package table

import (
	"math/rand/v2"
	"testing"
)

// TestOfferAgreesWithLegal plays matches of both bidding modes with random
// legal moves: at every step the offer says exactly what Legal lists (the
// bids, call, rob, pass, play, and whether the seat leads), and it
// encodes and decodes back to itself.
func TestOfferAgreesWithLegal(t *testing.T) {
	for _, rules := range []Rules{{Name: "p", Deals: 3}, {Name: "r", Rob: true, Deals: 3}} {
		r := rand.New(rand.NewPCG(1, uint64(len(rules.Name))))
		tb, err := New(Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		steps := 0
		for n := uint64(0); tb.Phase() != MatchOver; steps++ {
			o, ok := tb.Offer()
			if tb.Phase() == BetweenDeals {
				if ok {
					t.Fatalf("an offer between deals: %+v", o)
				}
				n++
				if _, err := tb.Step(Action{Type: Deal, Deck: seeded(n)}); err != nil {
					t.Fatal(err)
				}
				continue
			}
			legal := tb.Legal(tb.ToAct())
			if !ok || o.Seat != tb.ToAct() {
				t.Fatalf("offer %+v (%t) for seat %d to act", o, ok, tb.ToAct())
			}
			var want Offer
			want.Seat = o.Seat
			for _, a := range legal {
				switch a.Type {
				case Bid:
					want.Bids |= 1 << a.Bid
				case Call:
					want.Call = true
				case Rob:
					want.Rob = true
				case Pass:
					want.Pass = true
				case Play:
					want.Play = true
				}
			}
			want.MustLead = want.Play && !want.Pass
			if o.Bids != want.Bids || o.Call != want.Call || o.Rob != want.Rob || o.Pass != want.Pass || o.Play != want.Play || o.MustLead != want.MustLead {
				t.Fatalf("step %d: offer %+v, Legal %v", steps, o, legal)
			}
			enc, err := AppendBody(nil, o)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := DecodeBody(enc); err != nil || back != Body(o) {
				t.Fatalf("offer %+v decodes to %+v, %v", o, back, err)
			}
			if _, err := tb.Step(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d steps", rules.Name, steps)
	}
}
