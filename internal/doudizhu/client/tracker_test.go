package client

import (
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/doudizhu/hosting"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/doudizhu/wire"
	"github.com/mahjong-authority/authority/internal/host"
)

// TestTrackerMatchesEngine plays matches through the host's engine
// adapter and feeds each seat's tracker the seat's events as the server
// sends them (in the API's form): after every step each tracker's view
// agrees with the engine's view of that seat. One tracker starts from a
// snapshot in the middle of a deal.
func TestTrackerMatchesEngine(t *testing.T) {
	for _, rules := range []table.Rules{{Name: "p", Deals: 6}, {Name: "r", Rob: true, Deals: 6}} {
		g, err := hosting.NewGame(rules, [32]byte{7})
		if err != nil {
			t.Fatal(err)
		}
		g.Seed("t", nil)
		var trackers [table.NumSeats]*Tracker
		for s := range trackers {
			trackers[s] = NewTracker(table.Seat(s))
		}
		b := hosting.NewBot()
		steps := 0
		for !g.Over() {
			p := g.Pending()
			var a table.Action
			if p.Kind == host.WaitSystem {
				a = g.Default(host.System)
			} else if a, err = b.Act(p.Seats[0], g.View(p.Seats[0])); err != nil {
				t.Fatal(err)
			}
			outs, err := g.Apply(a)
			if err != nil {
				t.Fatal(err)
			}
			steps++
			if steps == 20 { // seat 2 starts over from a snapshot
				hv := g.View(2)
				var o *table.Offer
				if hv.HasOffer {
					o = &hv.Offer
				}
				v, err := ViewFromPB(wire.ViewToPB(&hv.View, o), 0)
				if err != nil {
					t.Fatal(err)
				}
				trackers[2].Reset(v)
			}
			for _, out := range outs {
				e, err := wire.EventToPB(1, time.Time{}, out.Body)
				if err != nil {
					t.Fatal(err)
				}
				for s, tr := range trackers {
					if out.To.Sees(s) && !(steps == 20 && s == 2) {
						if err := tr.Apply(e); err != nil {
							t.Fatalf("seat %d: %v", s, err)
						}
					}
				}
			}
			for s, tr := range trackers {
				want, got := g.View(s).View, tr.View()
				if want.Phase == table.BetweenDeals || want.Phase == table.MatchOver {
					if got.Phase != want.Phase || got.Scores != want.Scores {
						t.Fatalf("step %d seat %d: phase %v scores %v, engine %v %v", steps, s, got.Phase, got.Scores, want.Phase, want.Scores)
					}
					continue
				}
				if got.Hand != want.Hand || got.Left != want.Left || got.ToAct != want.ToAct || got.Phase != want.Phase ||
					got.HasLandlord != want.HasLandlord || got.Landlord != want.Landlord || got.Kitty != want.Kitty ||
					got.HasLast != want.HasLast || got.HasLast && (got.Last != want.Last || got.LastBy != want.LastBy) ||
					got.Base != want.Base || got.Bombs != want.Bombs || got.Played != want.Played || got.Scores != want.Scores ||
					(got.Bids != want.Bids && !rules.Rob) || got.MustLead != want.MustLead {
					t.Fatalf("step %d seat %d:\ntracker %+v\nengine  %+v", steps, s, *got, want)
				}
				if want.Phase == table.Bidding && want.ToAct == want.Seat && len(got.Legal) != len(want.Legal) {
					t.Fatalf("step %d seat %d: legal %v, engine %v", steps, s, got.Legal, want.Legal)
				}
			}
		}
		t.Logf("%s: %d steps", rules.Name, steps)
	}
}
