package mcr_test

import (
	"encoding/binary"
	"testing"

	botmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// TestSecrecy plays bot games and checks every event's audience: the deal,
// a drawn tile and a concealed kong's kind go only to their seat; what
// everyone sees carries no tile of a draw and no kind of a concealed kong;
// an offer goes to the seat it is for. A spectator's view holds no tiles.
func TestSecrecy(t *testing.T) {
	var bots [mcr.NumSeats]botmcr.Player
	kinds := map[string]bool{}
	for g := range uint64(3) {
		tb, err := mcr.New(mcr.Config{Rules: mcr.Rules{Name: "mcr_four", Hands: 4}})
		if err != nil {
			t.Fatal(err)
		}
		hand := uint64(0)
		for tb.Phase() != mcr.GameOver {
			var a mcr.Action
			if tb.Phase() == mcr.BetweenHands {
				var seed [32]byte
				hand++
				binary.LittleEndian.PutUint64(seed[:], g<<8|hand)
				w := wall.New144(seed)
				a = mcr.Action{Type: mcr.Deal, Wall: &w}
			} else {
				for s := range mcr.Seat(mcr.NumSeats) {
					var ok bool
					if a, ok = bots[s].Decide(tb, s); ok {
						break
					}
				}
			}
			evs, err := tb.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				checkAudience(t, e, kinds)
			}
			if v := tb.View(mcr.NumSeats); v.Tiles != nil || v.Legal != nil {
				t.Fatalf("a spectator sees tiles %v and actions %v", v.Tiles, v.Legal)
			}
			if tb.Phase() == mcr.Turn || tb.Phase() == mcr.ClaimWindow {
				for s := range mcr.Seat(mcr.NumSeats) {
					v := tb.View(s)
					for o, sv := range v.Seats {
						for _, m := range sv.Melds {
							if m.Type == mcr.MeldClosedKan && mcr.Seat(o) != s && (!m.Hidden || m.Kind != 0) {
								t.Fatalf("seat %d sees seat %d's concealed kong %+v", s, o, m)
							}
						}
					}
				}
			}
		}
	}
	for _, k := range []string{"dealt", "drew_private", "drew_public", "flower", "offer"} {
		if !kinds[k] {
			t.Errorf("no %s event seen", k)
		}
	}
}

func checkAudience(t *testing.T, e mcr.Event, kinds map[string]bool) {
	t.Helper()
	switch b := e.Body.(type) {
	case mcr.Dealt:
		kinds["dealt"] = true
		if e.To != mcr.Only(b.Seat) {
			t.Fatalf("%v: a deal for everyone", e)
		}
	case mcr.Drew:
		if b.Known {
			kinds["drew_private"] = true
			if e.To != mcr.Only(b.Seat) {
				t.Fatalf("%v: a drawn tile for everyone", e)
			}
		} else {
			kinds["drew_public"] = true
			if e.To != mcr.Everyone || b.Tile != 0 {
				t.Fatalf("%v: the public draw shows a tile", e)
			}
		}
	case mcr.FlowerSetAside:
		kinds["flower"] = true
		if e.To != mcr.Everyone {
			t.Fatalf("%v: a flower set aside is public", e)
		}
	case mcr.ClaimOffer:
		kinds["offer"] = true
		if e.To != mcr.Only(b.Seat) {
			t.Fatalf("%v: an offer for another seat", e)
		}
	case mcr.Called:
		if b.Meld.Type == mcr.MeldClosedKan {
			kinds["closed_kan"] = true
			if e.To == mcr.Everyone && (!b.Meld.Hidden || b.Meld.Kind != 0) {
				t.Fatalf("%v: a concealed kong's kind shown to everyone", e)
			}
			if e.To.Private && b.Meld.Hidden {
				t.Fatalf("%v: its owner's copy is hidden", e)
			}
		} else if e.To != mcr.Everyone {
			t.Fatalf("%v: a call is public", e)
		}
	default:
		if e.To != mcr.Everyone {
			t.Fatalf("%v: should be public", e)
		}
	}
}
