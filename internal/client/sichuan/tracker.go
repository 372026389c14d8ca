package sichuan

import (
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/client"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Tracker keeps what one seat (or a spectator) sees of a Sichuan table up
// to date from the events it receives, starting from a snapshot or from
// nothing. After the last event of each step of the table its view equals
// the engine's View of that seat, legal actions included (turn and claim
// offers carry them; the exchange and void choices it lists itself), with
// one exception: in the dealer's first turn of a hand the engine counts
// one of the dealer's fourteen tiles as drawn, which no event names, so
// the tracker shows all fourteen in Tiles and HasDrawn false until the
// dealer's first discard. Tests check this over whole matches.
//
// The exchange and the void choice have no offer events: the tracker lists
// a seat's choices itself until the seat chose or answered (Answered). A
// session resets the view from a snapshot and then calls Answered, since
// the server sends a standing offer again as the next event; a choice
// pending at a snapshot has no such event, so that first Answered leaves it.
type Tracker struct {
	v        sc.View
	rules    sc.Rules
	answered bool // the seat answered the exchange or void choice in progress
	reset    bool // the view was just reset from a snapshot
	// receiving: the exchange was made and the seat's own tiles from it
	// (ExchangeReceived, the last event of that step) are still to come,
	// so its void choice is not listed yet: one decided now would miss
	// them, and the server refuses it as stale.
	receiving bool
}

// NewTracker returns the tracker of seat (sc.NumSeats for a spectator) at
// a table of rules, before the first deal.
func NewTracker(seat sc.Seat, rules sc.Rules) *Tracker {
	return &Tracker{v: sc.View{Seat: seat, Phase: sc.BetweenHands}, rules: rules}
}

// Reset replaces the view with a snapshot.
func (t *Tracker) Reset(v sc.View) { t.v, t.answered, t.reset, t.receiving = v, false, true, false }

// View is the current view; it is the tracker's and changes with the next
// Apply.
func (t *Tracker) View() *sc.View { return &t.v }

// Answered records that the seat answered: it has nothing to do until its
// next offer or choice.
func (t *Tracker) Answered() {
	choosing := t.v.Phase == sc.Exchanging || t.v.Phase == sc.ChoosingVoid
	if t.reset {
		t.reset = false
		if choosing {
			return // the snapshot's pending choice: no offer event repeats it
		}
	}
	t.v.Legal = nil
	t.answered = choosing
}

func (t *Tracker) own(s sc.Seat) bool { return s == t.v.Seat }

func (t *Tracker) setScores(s [sc.NumSeats]int) {
	t.v.Scores = s
	for i := range t.v.Seats {
		t.v.Seats[i].Score = s[i]
	}
}

// takeDrawn puts the drawn tile into the hand.
func (t *Tracker) takeDrawn() {
	v := &t.v
	if v.HasDrawn {
		v.Tiles = insertSorted(v.Tiles, v.Drawn)
		v.Drawn, v.HasDrawn = 0, false
	}
}

func (t *Tracker) removeOwn(ts ...tile.Tile) error {
	t.takeDrawn()
	for _, x := range ts {
		i := slices.Index(t.v.Tiles, x)
		if i < 0 {
			return fmt.Errorf("%v is not in the hand %s: %w", x, tile.FormatInOrder(t.v.Tiles), client.ErrInconsistent)
		}
		t.v.Tiles = slices.Delete(t.v.Tiles, i, i+1)
	}
	return nil
}

func insertSorted(ts []tile.Tile, x tile.Tile) []tile.Tile {
	i := len(ts)
	for i > 0 && x < ts[i-1] {
		i--
	}
	return slices.Insert(ts, i, x)
}

// Apply updates the view with the next event the seat received. An error
// wraps client.ErrInconsistent.
func (t *Tracker) Apply(b sc.Body) error {
	v := &t.v
	t.reset = false
	switch b.(type) {
	case sc.TurnOffer, sc.ClaimOffer:
	default:
		v.Legal = nil
	}
	switch b.(type) {
	case sc.HandStarted, sc.Exchanged, sc.VoidsRevealed:
		t.answered = false // a new choice, or none
	}
	if err := t.apply(b); err != nil {
		return err
	}
	// The exchange and the void choice offer what the seat's own tiles
	// allow, until it chose (or answered: its choice is on its way).
	if v.Seat < sc.NumSeats && !t.answered {
		switch {
		case v.Phase == sc.Exchanging && !v.Chose:
			v.Legal = sc.AppendExchanges(v.Legal[:0], v.Seat, ptr(tile.CountsOf(v.Tiles)))
		case v.Phase == sc.ChoosingVoid && !v.VoidSet && !t.receiving:
			v.Legal = v.Legal[:0]
			for su := tile.Man; su <= tile.Sou; su++ {
				v.Legal = append(v.Legal, sc.Action{Seat: v.Seat, Type: sc.Void, Suit: su})
			}
		}
	}
	return nil
}

func ptr[T any](x T) *T { return &x }

func (t *Tracker) apply(b sc.Body) error {
	v := &t.v
	switch b := b.(type) {
	case sc.HandStarted:
		v.Phase = sc.ChoosingVoid
		if t.rules.Exchange {
			v.Phase = sc.Exchanging
		}
		v.Index, v.Dealer, v.WallLeft, v.ToAct = b.Index, b.Dealer, b.WallLeft, 0
		v.Tiles, v.Drawn, v.HasDrawn = nil, 0, false
		v.Direction, v.Gave, v.Got, v.Chose = 0, [3]tile.Tile{}, [3]tile.Tile{}, false
		v.Void, v.VoidSet, v.Revealed = 0, false, false
		for i := range v.Seats {
			v.Seats[i] = sc.SeatView{HandSize: 13}
		}
		v.Seats[b.Dealer].HandSize = 14
		t.setScores(b.Scores)
	case sc.Dealt:
		if t.own(b.Seat) {
			v.Tiles = slices.Clone(b.Hand)
			slices.Sort(v.Tiles)
		}
	case sc.ExchangeChosen:
		if b.Known {
			if !t.own(b.Seat) {
				return fmt.Errorf("seat %d's exchange sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
			}
			v.Gave, v.Chose = b.Tiles, true
		}
	case sc.Exchanged:
		v.Direction, v.Phase = b.Direction, sc.ChoosingVoid
		if v.Seat < sc.NumSeats {
			v.Chose, t.receiving = true, true
		}
	case sc.ExchangeReceived:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d's exchange sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
		}
		if err := t.removeOwn(b.Gave[:]...); err != nil {
			return fmt.Errorf("exchange: %w", err)
		}
		for _, x := range b.Got {
			v.Tiles = insertSorted(v.Tiles, x)
		}
		v.Gave, v.Got = b.Gave, b.Got
		t.receiving = false
	case sc.VoidChosen:
		if b.Known {
			if !t.own(b.Seat) {
				return fmt.Errorf("seat %d's void sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
			}
			v.Void, v.VoidSet = b.Suit, true
		}
	case sc.VoidsRevealed:
		v.Revealed = true
		for s := range v.Seats {
			v.Seats[s].Void = b.Voids[s]
		}
		// The dealer's turn starts on the tiles it holds.
		v.Phase, v.ToAct = sc.Turn, v.Dealer
	case sc.Drew:
		v.WallLeft, v.Phase, v.ToAct = b.WallLeft, sc.Turn, b.Seat
		if t.own(b.Seat) && !b.Known {
			break // the drawer gets the public copy and its own: count once
		}
		v.Seats[b.Seat].HandSize++
		if b.Known {
			if !t.own(b.Seat) {
				return fmt.Errorf("seat %d's drawn tile sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
			}
			t.takeDrawn()
			v.Drawn, v.HasDrawn = b.Tile, true
		}
	case sc.TurnOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d's turn offer sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
		}
		v.Legal = slices.Clone(b.Options)
	case sc.Discarded:
		sv := &v.Seats[b.Seat]
		sv.Discards = append(sv.Discards, sc.DiscardView{Tile: b.Tile})
		sv.HandSize--
		v.Phase = sc.ClaimWindow
		if t.own(b.Seat) {
			if err := t.removeOwn(b.Tile); err != nil {
				return fmt.Errorf("discard: %w", err)
			}
		}
	case sc.ClaimOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d's claim offer sent to seat %d: %w", b.Seat, v.Seat, client.ErrInconsistent)
		}
		v.Phase = sc.ClaimWindow
		v.Legal = slices.Clone(b.Options)
	case sc.Called:
		return t.called(b)
	case sc.KanPaid:
		t.setScores(b.Scores)
		v.Seats[b.Seat].KanMoney += b.Deltas[b.Seat]
	case sc.KanTransferred:
		t.setScores(b.Scores)
		v.Seats[b.Seat].KanMoney -= b.Units
	case sc.Won:
		return t.won(b)
	case sc.HandEnded:
		t.takeDrawn()
		t.setScores(b.Scores)
		v.Phase, v.Dealer = sc.BetweenHands, b.NextDealer
		if b.Kind == sc.EndWallEmpty {
			for s := range v.Seats {
				if len(v.Seats[s].Won) == 0 && !b.Ready[s] {
					v.Seats[s].KanMoney = 0 // given back (退税)
				}
			}
		}
	case sc.MatchEnded:
		t.setScores(b.Scores)
		v.Phase = sc.MatchOver
	default:
		return fmt.Errorf("unknown event body %T: %w", b, client.ErrInconsistent)
	}
	return nil
}

func (t *Tracker) called(b sc.Called) error {
	v := &t.v
	m := b.Meld
	sv := &v.Seats[b.Seat]
	x := tile.Plain(m.Kind)
	var n int // the tiles that leave the hand
	switch m.Type {
	case sc.MeldPon, sc.MeldOpenKan:
		from := &v.Seats[m.From]
		if m.From == b.Seat || len(from.Discards) == 0 {
			return fmt.Errorf("call of seat %d from seat %d with no discard: %w", b.Seat, m.From, client.ErrInconsistent)
		}
		from.Discards[len(from.Discards)-1].Called = true
		sv.Melds = append(sv.Melds, m)
		n = m.Len() - 1
		if m.Type == sc.MeldPon {
			v.Phase, v.ToAct = sc.Turn, b.Seat
		}
	case sc.MeldClosedKan:
		sv.Melds = append(sv.Melds, m)
		n = 4
	case sc.MeldAddedKan:
		i := slices.IndexFunc(sv.Melds, func(p sc.Meld) bool { return p.Type == sc.MeldPon && p.Kind == m.Kind })
		if i < 0 {
			return fmt.Errorf("added kan of %v without a pon: %w", m.Kind, client.ErrInconsistent)
		}
		sv.Melds[i] = m
		n = 1
		v.Phase = sc.ClaimWindow // it may be robbed
	default:
		return fmt.Errorf("meld type %v: %w", m.Type, client.ErrInconsistent)
	}
	sv.HandSize -= n
	if t.own(b.Seat) {
		if err := t.removeOwn(slices.Repeat([]tile.Tile{x}, n)...); err != nil {
			return fmt.Errorf("%v: %w", m.Type, err)
		}
	}
	return nil
}

func (t *Tracker) won(b sc.Won) error {
	v := &t.v
	t.setScores(b.Scores)
	sv := &v.Seats[b.Seat]
	sv.Won = append(sv.Won, b.WinTile)
	sv.Left = b.Left
	switch {
	case b.Tsumo:
		sv.HandSize--
		if t.own(b.Seat) {
			if err := t.removeOwn(b.WinTile); err != nil {
				return fmt.Errorf("tsumo: %w", err)
			}
		}
	case b.Chankan:
		// The robbed kan is a pon again.
		ms := v.Seats[b.From].Melds
		for i := range ms {
			if ms[i].Type == sc.MeldAddedKan && ms[i].Kind == b.WinTile.Kind() {
				ms[i].Type = sc.MeldPon
			}
		}
	default:
		d := v.Seats[b.From].Discards
		if len(d) == 0 {
			return fmt.Errorf("ron on seat %d with no discard: %w", b.From, client.ErrInconsistent)
		}
		d[len(d)-1].Called = true
	}
	return nil
}
