package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
	"testing"
)

// TestStreamsHideSecrets plays matches and follows every seat's stream
// (the events its audience lets it see) and a spectator's: no stream
// carries another seat's hand, drawn tile, exchange tiles, void choice
// before all are revealed, or offers.
func TestStreamsHideSecrets(t *testing.T) {
	for seed := range uint64(4) {
		rules := fuzzRules[seed%uint64(len(fuzzRules))]
		rec := recordMatch(t, seed, rules)
		for viewer := range Seat(NumSeats + 1) {
			revealed := false
			for _, evs := range rec.events {
				for _, e := range evs {
					if viewer < NumSeats && !e.To.Sees(viewer) || viewer == NumSeats && e.To.Private {
						continue
					}
					if leaks(e.Body, viewer, revealed) {
						t.Fatalf("seed %d: seat %d's stream shows %v", seed, viewer, e)
					}
					switch e.Body.(type) {
					case VoidsRevealed:
						revealed = true
					case HandStarted:
						revealed = false
					}
				}
			}
		}
	}
}

// leaks reports whether b shows viewer something of another seat that is
// not public yet.
func leaks(b Body, viewer Seat, revealed bool) bool {
	other := func(s Seat) bool { return s != viewer }
	switch b := b.(type) {
	case Dealt:
		return other(b.Seat)
	case ExchangeChosen:
		return other(b.Seat) && (b.Known || b.Tiles != [3]tile.Tile{})
	case ExchangeReceived:
		return other(b.Seat)
	case VoidChosen:
		return other(b.Seat) && (b.Known || b.Suit != 0) && !revealed
	case Drew:
		return other(b.Seat) && (b.Known || b.Tile != 0)
	case ClaimOffer:
		return other(b.Seat)
	}
	return false
}
