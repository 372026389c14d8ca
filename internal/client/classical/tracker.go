package classical

import (
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/client"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Tracker keeps what one seat (or a spectator) sees of a classical table
// up to date from the events it receives, starting from a snapshot or
// from nothing. After the last event of each step of the table (the turn
// offer the host adds included) its view equals the engine's View of that
// seat, legal actions included; tests check this over whole games.
type Tracker struct {
	v ct.View
}

// NewTracker returns the tracker of seat (ct.NumSeats or more for a
// spectator), before the first deal.
func NewTracker(seat ct.Seat) *Tracker {
	return &Tracker{v: ct.View{Seat: seat, Phase: ct.BetweenHands}}
}

// Reset replaces the view with a snapshot.
func (t *Tracker) Reset(v ct.View) { t.v = v }

// View is the current view; it is the tracker's and changes with the next
// Apply.
func (t *Tracker) View() *ct.View { return &t.v }

// Answered records that the seat answered its offer.
func (t *Tracker) Answered() { t.v.Legal = nil }

func (t *Tracker) own(s ct.Seat) bool { return s == t.v.Seat }

func (t *Tracker) setScores(s [ct.NumSeats]int) {
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

func inconsistent(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), client.ErrInconsistent)
}

func (t *Tracker) seat(s ct.Seat) (*ct.SeatView, error) {
	if s >= ct.NumSeats {
		return nil, inconsistent("seat %d", s)
	}
	return &t.v.Seats[s], nil
}

// leaveWindow ends a claim window in the view.
func (t *Tracker) leaveWindow() { t.v.ClaimTile, t.v.ClaimFrom = 0, 0 }

// Apply updates the view with event body b.
func (t *Tracker) Apply(b ct.Body) error {
	v := &t.v
	switch b := b.(type) {
	case ct.HandStarted:
		*v = ct.View{Seat: v.Seat, Phase: ct.Turn, Index: b.Index, Round: b.Round, Dealer: b.Dealer, WallLeft: b.WallLeft, ToAct: b.Dealer, Seq: v.Seq}
		t.setScores(b.Scores)
		for s := range v.Seats {
			v.Seats[s].HandSize = 13
		}
		v.Seats[b.Dealer].HandSize = 14
		return nil
	case ct.Dealt:
		if !t.own(b.Seat) {
			return inconsistent("seat %d's hand dealt to seat %d", b.Seat, v.Seat)
		}
		v.Tiles = slices.Clone(b.Hand)
		slices.Sort(v.Tiles)
		if b.Seat == v.Dealer && len(v.Tiles) > 0 {
			// East's highest tile stands for its first draw.
			v.Drawn, v.HasDrawn = v.Tiles[len(v.Tiles)-1], true
			v.Tiles = v.Tiles[:len(v.Tiles)-1]
		}
		return nil
	case ct.TurnOffer:
		if t.own(b.Seat) {
			v.Legal = slices.Clone(b.Options)
		}
		return nil
	case ct.ClaimOffer:
		if t.own(b.Seat) {
			v.Legal = slices.Clone(b.Options)
		}
		return nil
	}
	v.Legal = nil
	switch b := b.(type) {
	case ct.BonusSetAside:
		sv, err := t.seat(b.Seat)
		if err != nil {
			return err
		}
		sv.Bonus = append(sv.Bonus, b.Tile)
		v.WallLeft = max(0, v.WallLeft-1)
	case ct.Drew:
		if t.own(b.Seat) && !b.Known {
			return nil // the public copy of the seat's own draw: its private copy follows
		}
		sv, err := t.seat(b.Seat)
		if err != nil {
			return err
		}
		sv.HandSize++
		v.Phase, v.ToAct, v.WallLeft = ct.Turn, b.Seat, b.WallLeft
		t.leaveWindow()
		if t.own(b.Seat) {
			t.takeDrawn()
			v.Drawn, v.HasDrawn = b.Tile, true
		}
	case ct.Discarded:
		sv, err := t.seat(b.Seat)
		if err != nil {
			return err
		}
		sv.Discards = append(sv.Discards, ct.DiscardView{Tile: b.Tile})
		sv.HandSize--
		if t.own(b.Seat) {
			if err := t.removeOwn(b.Tile); err != nil {
				return err
			}
		}
		v.Phase, v.ClaimTile, v.ClaimFrom = ct.ClaimWindow, b.Tile, b.Seat
	case ct.Fishing:
		sv, err := t.seat(b.Seat)
		if err != nil {
			return err
		}
		sv.Fishing = true
	case ct.Called:
		return t.called(b)
	case ct.Won:
		// The hand ends with the next event.
	case ct.HandEnded:
		*v = ct.View{Seat: v.Seat, Phase: ct.BetweenHands, Index: v.Index, Round: b.NextRound, Dealer: b.NextDealer, Seq: v.Seq}
		if b.GameOver {
			v.Phase = ct.GameOver
		}
		t.setScores(b.Scores)
	case ct.GameEnded:
		v.Phase = ct.GameOver
		t.setScores(b.Scores)
	default:
		return inconsistent("event %T", b)
	}
	return nil
}

// called applies a claim or a kong.
func (t *Tracker) called(b ct.Called) error {
	v := &t.v
	sv, err := t.seat(b.Seat)
	if err != nil {
		return err
	}
	m := b.Meld
	own := t.own(b.Seat)
	x := tile.Plain(m.Kind)
	switch m.Type {
	case ct.MeldKong:
		for i, old := range sv.Melds {
			if old.Type == ct.MeldPung && old.Kind == m.Kind {
				// An added kong: the window to rob it opens.
				sv.Melds[i].Type = ct.MeldKong
				sv.HandSize--
				if own {
					if err := t.removeOwn(x); err != nil {
						return err
					}
				}
				v.Phase, v.ClaimTile, v.ClaimFrom = ct.ClaimWindow, x, b.Seat
				return nil
			}
		}
		sv.HandSize -= 3
		if own {
			if err := t.removeOwn(x, x, x); err != nil {
				return err
			}
		}
	case ct.MeldConcealedKong:
		sv.HandSize -= 4
		if own {
			if err := t.removeOwn(x, x, x, x); err != nil {
				return err
			}
		}
	case ct.MeldPung:
		sv.HandSize -= 2
		if own {
			if err := t.removeOwn(x, x); err != nil {
				return err
			}
		}
	case ct.MeldChow:
		sv.HandSize -= 2
		if own {
			for k := m.Kind; k < m.Kind+3; k++ {
				if k != v.ClaimTile.Kind() {
					if err := t.removeOwn(tile.Plain(k)); err != nil {
						return err
					}
				}
			}
		}
	default:
		return inconsistent("meld type %v", m.Type)
	}
	if m.Type != ct.MeldConcealedKong {
		from, err := t.seat(m.From)
		if err != nil {
			return err
		}
		if len(from.Discards) == 0 {
			return inconsistent("seat %d claimed from an empty pond", b.Seat)
		}
		from.Discards[len(from.Discards)-1].Claimed = true
	}
	sv.Melds = append(sv.Melds, m)
	t.takeDrawn()
	v.Phase, v.ToAct = ct.Turn, b.Seat
	t.leaveWindow()
	return nil
}
