package client

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrInconsistent is wrapped by the errors of Tracker.Apply: an event that
// does not fit the view built so far (a discard of a tile the seat does not
// hold, a call on an empty pond). It means events were lost or garbled.
var ErrInconsistent = errors.New("client: event does not fit the view")

// Spectator is the seat number of a spectator's view: it sees no hand.
const Spectator = table.Seat(table.NumSeats)

// Tracker keeps what one seat (or a spectator) sees of its table up to date
// from the events it receives, starting from a snapshot or from nothing.
// After the last event of each step of the table its view equals the
// engine's View of that seat, legal actions included (turn and claim
// offers carry them; ron and open kan without their tile, which is the
// claim window's, see ClaimTile); tests check this after every step of
// whole games.
//
// The zero value is not ready: use NewTracker.
type Tracker struct {
	v         table.View
	claimTile tile.Tile // of the last discard or kan
	dealerWon bool      // in this round: the deal stays
	fishing   *table.Fishing
	round     int // rounds started since the tracker began
}

// NewTracker returns the tracker of a seat, or of a spectator (Spectator),
// before the first deal.
func NewTracker(seat table.Seat) *Tracker {
	t := &Tracker{}
	t.v = table.View{Seat: seat, Phase: table.BetweenRounds, RoundWind: tile.WindEast, Number: 1}
	return t
}

// Reset replaces the view with a snapshot.
func (t *Tracker) Reset(v table.View) {
	t.v = v
	t.fishing = nil
}

// View is the current view. It is the tracker's: it changes with the next
// Apply and must not be modified.
func (t *Tracker) View() *table.View { return &t.v }

// ClaimTile is the tile of the last discard or kan: what a claim window is
// about (ron and open kan offers do not repeat it).
func (t *Tracker) ClaimTile() tile.Tile { return t.claimTile }

// Fishing is the seat's tenpai state after its last discard this round, or
// nil.
func (t *Tracker) Fishing() *table.Fishing { return t.fishing }

// Answered records that the seat answered its offer: it has nothing to do
// until the next one. (A pass in a claim window that others still answer
// publishes nothing, so no event would say so.)
func (t *Tracker) Answered() { t.v.Legal = nil }

func (t *Tracker) own(s table.Seat) bool { return s == t.v.Seat }

func (t *Tracker) setScores(sc [table.NumSeats]int) {
	t.v.Scores = sc
	for i := range t.v.Seats {
		t.v.Seats[i].Score = sc[i]
	}
}

// takeDrawn puts the drawn tile into the hand (the turn is over).
func (t *Tracker) takeDrawn() {
	v := &t.v
	if v.HasDrawn {
		v.Hand = insertSorted(v.Hand, v.Drawn)
		v.Drawn, v.HasDrawn = 0, false
	}
}

// removeOwn takes tiles out of the seat's hand (the drawn tile included).
func (t *Tracker) removeOwn(ts ...tile.Tile) error {
	t.takeDrawn()
	for _, x := range ts {
		i := slices.Index(t.v.Hand, x)
		if i < 0 {
			return fmt.Errorf("%v is not in the hand %s: %w", x, tile.Format(t.v.Hand), ErrInconsistent)
		}
		t.v.Hand = slices.Delete(t.v.Hand, i, i+1)
	}
	return nil
}

// Apply updates the view with the next event the seat received. An error
// wraps ErrInconsistent; the view is then as good as the tracker could make
// it.
func (t *Tracker) Apply(b table.Body) error {
	v := &t.v
	// Offers come last in the events of a step: every other event ends
	// the decision the seat had.
	switch b.(type) {
	case table.TurnOffer, table.ClaimOffer:
	default:
		v.Legal = nil
	}
	switch b := b.(type) {
	case table.RoundStarted:
		v.Phase, v.ToAct = table.Turn, b.Dealer
		v.RoundWind, v.Number, v.Dealer = b.RoundWind, b.Number, b.Dealer
		v.Honba, v.RiichiSticks, v.WallLeft = b.Honba, b.RiichiSticks, b.WallLeft
		v.Dora = []tile.Tile{b.Dora}
		v.Hand, v.Drawn, v.HasDrawn = nil, 0, false
		for i := range v.Seats {
			v.Seats[i] = table.SeatView{HandSize: 13}
		}
		t.setScores(b.Scores)
		t.dealerWon, t.fishing = false, nil
		t.round++
	case table.Dealt:
		if t.own(b.Seat) {
			v.Hand = slices.Clone(b.Hand)
			tile.Sort(v.Hand)
		}
	case table.Drew:
		v.WallLeft, v.Phase, v.ToAct = b.WallLeft, table.Turn, b.Seat
		// The drawer gets the public copy and its own: count the tile once.
		if t.own(b.Seat) && !b.Known {
			break
		}
		v.Seats[b.Seat].HandSize++
		if b.Known {
			if !t.own(b.Seat) {
				return fmt.Errorf("seat %d's drawn tile sent to seat %d: %w", b.Seat, v.Seat, ErrInconsistent)
			}
			v.Drawn, v.HasDrawn = b.Tile, true
		}
	case table.TurnOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d's turn offer sent to seat %d: %w", b.Seat, v.Seat, ErrInconsistent)
		}
		v.Legal = slices.Clone(b.Options)
	case table.Discarded:
		sv := &v.Seats[b.Seat]
		sv.Discards = append(sv.Discards, table.DiscardView{Tile: b.Tile, Tsumogiri: b.Tsumogiri, Riichi: b.Riichi})
		sv.HandSize--
		v.Phase, t.claimTile = table.ClaimWindow, b.Tile
		if t.own(b.Seat) {
			if err := t.removeOwn(b.Tile); err != nil {
				return fmt.Errorf("discard: %w", err)
			}
		}
	case table.Fishing:
		if t.own(b.Seat) {
			f := b
			t.fishing = &f
		}
	case table.ClaimOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d's claim offer sent to seat %d: %w", b.Seat, v.Seat, ErrInconsistent)
		}
		v.Phase = table.ClaimWindow
		v.Legal = slices.Clone(b.Options)
		// The wire leaves the tile of ron and open kan out (it is the
		// window's); so does the client, whatever the event carried.
		for i := range v.Legal {
			if a := &v.Legal[i]; a.Type == table.Ron || a.Type == table.OpenKan {
				a.Tile = 0
			}
		}
	case table.RiichiAccepted:
		v.Seats[b.Seat].Riichi = true
		v.RiichiSticks = b.RiichiSticks
		t.setScores(b.Scores)
	case table.Called:
		return t.called(b)
	case table.DoraRevealed:
		v.Dora = append(v.Dora, b.Indicator)
	case table.Won:
		var sc [table.NumSeats]int
		for i := range sc {
			sc[i] = v.Scores[i] + b.Deltas[i]
		}
		t.setScores(sc)
		v.RiichiSticks = 0
		if b.Seat == v.Dealer {
			t.dealerWon = true
		}
		t.takeDrawn()
	case table.RoundEnded:
		t.takeDrawn()
		t.setScores(b.Scores)
		v.RiichiSticks, v.Honba = b.RiichiSticks, b.Honba
		v.Phase = table.BetweenRounds
		if !t.dealerKeeps(b) {
			v.Number++
			if v.Number > 4 {
				v.Number, v.RoundWind = 1, v.RoundWind.Next()
			}
			v.Dealer = table.Seat(v.Number - 1)
		}
	case table.GameEnded:
		t.setScores(b.Scores)
		v.RiichiSticks = 0
		v.Phase = table.GameOver
	default:
		return fmt.Errorf("unknown event body %T: %w", b, ErrInconsistent)
	}
	return nil
}

// dealerKeeps says whether the deal stays after a round: a dealer's win or
// tenpai at a draw, and every abort.
func (t *Tracker) dealerKeeps(b table.RoundEnded) bool {
	switch b.Kind {
	case table.EndWin:
		return t.dealerWon
	case table.EndExhaustive, table.EndNagashi:
		return b.Tenpai[t.v.Dealer]
	}
	return true
}

func (t *Tracker) called(b table.Called) error {
	v := &t.v
	m := b.Meld
	sv := &v.Seats[b.Seat]
	t.setScores(b.Scores)
	v.ToAct = b.Seat
	var own []tile.Tile // the tiles that leave the hand
	switch m.Type {
	case judge.Chi, judge.Pon, judge.OpenKan:
		from := &v.Seats[m.From]
		if m.From == b.Seat || len(from.Discards) == 0 {
			return fmt.Errorf("call of seat %d from seat %d with no discard: %w", b.Seat, m.From, ErrInconsistent)
		}
		own = slices.Clone(m.Tiles[:m.Len()])
		i := slices.Index(own, m.Called)
		if i < 0 {
			return fmt.Errorf("%v %s calling %v: %w", m.Type, tile.Format(own), m.Called, ErrInconsistent)
		}
		from.Discards[len(from.Discards)-1].Called = true
		own = slices.Delete(own, i, i+1)
		sv.Melds = append(sv.Melds, m)
	case judge.ClosedKan:
		own = slices.Clone(m.Tiles[:4])
		sv.Melds = append(sv.Melds, m)
	case judge.AddedKan:
		own = []tile.Tile{m.Added}
		i := slices.IndexFunc(sv.Melds, func(p table.Meld) bool { return p.Type == judge.Pon && p.Kind() == m.Kind() })
		if i < 0 {
			return fmt.Errorf("added kan of %v without a pon: %w", m.Kind(), ErrInconsistent)
		}
		sv.Melds[i] = m
	default:
		return fmt.Errorf("meld type %v: %w", m.Type, ErrInconsistent)
	}
	sv.HandSize -= len(own)
	if m.IsKan() {
		// A kan moves the end of the live wall; its replacement tile
		// follows, unless the kan may be robbed first.
		v.WallLeft--
		v.Phase, t.claimTile = table.ClaimWindow, m.Called
		if m.Type == judge.AddedKan {
			t.claimTile = m.Added
		}
	} else {
		v.Phase = table.Turn
	}
	if t.own(b.Seat) {
		if err := t.removeOwn(own...); err != nil {
			return fmt.Errorf("%v: %w", m.Type, err)
		}
	}
	v.Drawn, v.HasDrawn = 0, false
	return nil
}

// insertSorted puts x into the sorted tiles ts.
func insertSorted(ts []tile.Tile, x tile.Tile) []tile.Tile {
	i := len(ts)
	for i > 0 && less(x, ts[i-1]) {
		i--
	}
	return slices.Insert(ts, i, x)
}

// less orders tiles as tile.Sort does: by kind, a red five first.
func less(a, b tile.Tile) bool {
	if a.Kind() != b.Kind() {
		return a.Kind() < b.Kind()
	}
	return a.Red() && !b.Red()
}
