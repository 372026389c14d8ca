package mcr

import (
	"fmt"
	"slices"

	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Tracker keeps one seat's view of an MCR table (or a spectator's, seat
// tbl.NumSeats) from the events the seat receives: after each step's
// events its View equals the engine's View for the seat, up to Seq (the
// engine counts its events, a stream the host's). Apply refuses an event
// that does not fit the view (a tile the seat does not hold, a meld it
// cannot make) with an error and leaves the view as it was as far as it
// can.
type Tracker struct {
	v       tbl.View
	hand    []tile.Tile // the seat's concealed tiles, drawn one included
	dealing bool        // the deal's flower replacements are running
	// A draw gives the turn only when it is not a flower: until the
	// FlowerSetAside that follows says otherwise, the turn goes to the
	// drawer; prevToAct is whose it was before the draws began.
	flowers   bool
	prevToAct tbl.Seat
	// The claim window's tile and discarder.
	claimTile tile.Tile
	claimFrom tbl.Seat
}

// NewTracker returns the tracker of seat before the first deal.
func NewTracker(seat tbl.Seat) *Tracker {
	t := &Tracker{}
	t.v.Seat, t.v.Phase = seat, tbl.BetweenHands
	t.v.Round, t.v.Winds = tbl.Winds(0)
	return t
}

// Reset sets the view from a snapshot.
func (t *Tracker) Reset(v tbl.View) {
	t.v = v
	t.hand = append(t.hand[:0], v.Tiles...)
	if v.HasDrawn {
		t.hand = append(t.hand, v.Drawn)
		slices.Sort(t.hand)
	}
	t.dealing = false
	t.claimTile, t.claimFrom = 0, 0
	if v.Phase == tbl.ClaimWindow {
		// The window's discard is the last of the discarder's pond (an
		// added kong's tile is not in a pond: a snapshot in a robbing
		// window cannot say it, and the tracker needs it only for a win).
		if d := v.Seats[v.ToAct].Discards; len(d) > 0 {
			t.claimTile, t.claimFrom = d[len(d)-1].Tile, v.ToAct
		}
	}
}

// View is the seat's view.
func (t *Tracker) View() *tbl.View { return &t.v }

// Answered records that the seat answered its offer.
func (t *Tracker) Answered() { t.v.Legal = nil }

func (t *Tracker) own(s tbl.Seat) bool { return s == t.v.Seat }

// refresh derives the view's tiles from the hand.
func (t *Tracker) refresh() {
	v := &t.v
	if v.Seat >= tbl.NumSeats {
		v.Tiles, v.HasDrawn, v.Drawn = nil, false, 0
		return
	}
	v.Tiles = append(v.Tiles[:0], t.hand...)
	show := v.Phase == tbl.Turn && v.ToAct == v.Seat && v.HasDrawn
	if show {
		if i := slices.Index(v.Tiles, v.Drawn); i >= 0 {
			// The engine takes out the last copy; copies are equal.
			v.Tiles = slices.Delete(v.Tiles, i, i+1)
		}
	} else {
		v.HasDrawn, v.Drawn = false, 0
	}
	if len(v.Tiles) == 0 {
		v.Tiles = nil
	}
}

func (t *Tracker) add(x tile.Tile) {
	i, _ := slices.BinarySearch(t.hand, x)
	t.hand = slices.Insert(t.hand, i, x)
}

func (t *Tracker) remove(x tile.Tile) error {
	i := slices.Index(t.hand, x)
	if i < 0 {
		return fmt.Errorf("seat %d holds no %v", t.v.Seat, x)
	}
	t.hand = slices.Delete(t.hand, i, i+1)
	return nil
}

func (t *Tracker) setScores(sc [tbl.NumSeats]int) {
	t.v.Scores = sc
	for s := range t.v.Seats {
		t.v.Seats[s].Score = sc[s]
	}
}

// Apply updates the view with one event the seat received.
func (t *Tracker) Apply(b tbl.Body) error {
	err := t.apply(b)
	t.refresh()
	return err
}

func (t *Tracker) apply(b tbl.Body) error {
	v := &t.v
	switch b.(type) {
	case tbl.TurnOffer, tbl.ClaimOffer:
	default:
		v.Legal = nil
	}
	switch b.(type) {
	case tbl.Drew, tbl.FlowerSetAside:
	default:
		t.flowers = false
	}
	switch b := b.(type) {
	case tbl.HandStarted:
		seat := v.Seat
		*v = tbl.View{Seat: seat, Phase: tbl.Turn, Hand: b.Index, Round: b.Round, Dealer: b.Dealer, Winds: b.Winds,
			WallLeft: b.WallLeft, ToAct: b.Dealer, Seats: v.Seats}
		for s := range v.Seats {
			n := 13
			if tbl.Seat(s) == b.Dealer {
				n = 14
			}
			v.Seats[s] = tbl.SeatView{HandSize: n}
		}
		t.setScores(b.Scores)
		t.hand, t.dealing = t.hand[:0], true
		v.HasDrawn = t.own(b.Dealer)
	case tbl.Dealt:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d got seat %d's deal", v.Seat, b.Seat)
		}
		for _, x := range b.Hand {
			if x.Kind().IsFlower() {
				continue
			}
			t.add(x)
			if b.Seat == v.Dealer {
				v.Drawn = x
			}
		}
	case tbl.FlowerSetAside:
		sv := &v.Seats[b.Seat]
		sv.Flowers = append(sv.Flowers, b.Flower)
		sv.HandSize--
		if !t.dealing {
			v.ToAct, t.flowers = t.prevToAct, true
		}
	case tbl.Drew:
		if b.Known {
			if !t.own(b.Seat) {
				return fmt.Errorf("seat %d got seat %d's drawn tile", v.Seat, b.Seat)
			}
			if !b.Tile.Kind().IsFlower() {
				t.add(b.Tile)
				if !t.dealing || b.Seat == v.Dealer {
					v.Drawn, v.HasDrawn = b.Tile, true
				}
			}
			return nil
		}
		v.Seats[b.Seat].HandSize++
		v.WallLeft = b.WallLeft
		if !t.dealing {
			if !t.flowers {
				t.prevToAct = v.ToAct
			}
			v.Phase, v.ToAct = tbl.Turn, b.Seat
		}
	case tbl.Discarded:
		t.dealing = false
		sv := &v.Seats[b.Seat]
		sv.Discards = append(sv.Discards, tbl.DiscardView{Tile: b.Tile})
		sv.HandSize--
		if t.own(b.Seat) {
			if err := t.remove(b.Tile); err != nil {
				return err
			}
		}
		v.HasDrawn = false
		v.Phase, t.claimTile, t.claimFrom = tbl.ClaimWindow, b.Tile, b.Seat
	case tbl.ClaimOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d got seat %d's claim offer", v.Seat, b.Seat)
		}
		v.Legal = append(v.Legal[:0], b.Options...)
	case tbl.TurnOffer:
		if !t.own(b.Seat) {
			return fmt.Errorf("seat %d got seat %d's turn offer", v.Seat, b.Seat)
		}
		v.Legal = append(v.Legal[:0], b.Options...)
	case tbl.Called:
		t.dealing = false
		return t.called(b)
	case tbl.Won:
		t.dealing = false
		sv := &v.Seats[b.Seat]
		sv.Melds = slices.Clone(b.Melds)
		if len(sv.Melds) == 0 {
			sv.Melds = nil
		}
		if b.Tsumo {
			sv.HandSize--
			if t.own(b.Seat) {
				if err := t.remove(b.WinTile); err != nil {
					return err
				}
			}
		} else if b.Chankan {
			fv := &v.Seats[b.From]
			for i := range fv.Melds {
				if m := &fv.Melds[i]; m.Type == tbl.MeldAddedKan && m.Kind == b.WinTile.Kind() {
					m.Type = tbl.MeldPon
				}
			}
		} else if d := v.Seats[b.From].Discards; len(d) > 0 {
			d[len(d)-1].Called = true
		}
		v.HasDrawn = false
		t.setScores(b.Scores)
	case tbl.HandEnded:
		t.dealing = false
		v.Phase, v.HasDrawn = tbl.BetweenHands, false
		t.setScores(b.Scores)
	case tbl.GameEnded:
		v.Phase = tbl.GameOver
		t.setScores(b.Scores)
	default:
		return fmt.Errorf("unknown event %T", b)
	}
	return nil
}

// called applies a call or a kong.
func (t *Tracker) called(b tbl.Called) error {
	v := &t.v
	sv := &v.Seats[b.Seat]
	m := b.Meld
	own := t.own(b.Seat)
	switch m.Type {
	case tbl.MeldChi, tbl.MeldPon, tbl.MeldOpenKan:
		if d := v.Seats[t.claimFrom].Discards; len(d) > 0 {
			d[len(d)-1].Called = true
		}
		sv.HandSize -= m.Len() - 1
		if own {
			for i := range m.Len() {
				k := m.Kind
				if m.Type == tbl.MeldChi {
					k += tile.Kind(i)
				}
				// The claimed tile came from the discard, not the hand.
				if (m.Type == tbl.MeldChi && k == m.Called) || (m.Type != tbl.MeldChi && i == 0) {
					continue
				}
				if err := t.remove(tile.Plain(k)); err != nil {
					return err
				}
			}
		}
		sv.Melds = append(sv.Melds, m)
		v.Phase, v.ToAct, v.HasDrawn = tbl.Turn, b.Seat, false
	case tbl.MeldClosedKan:
		if m.Hidden {
			sv.Melds = append(sv.Melds, m)
			sv.HandSize -= 4
			v.HasDrawn = false
			return nil
		}
		if !own {
			return fmt.Errorf("seat %d got seat %d's concealed kong", v.Seat, b.Seat)
		}
		// The owner gets the public, face-down copy first, then its own.
		if n := len(sv.Melds); n > 0 && sv.Melds[n-1].Hidden {
			sv.Melds[n-1] = m
		} else {
			sv.Melds = append(sv.Melds, m)
			sv.HandSize -= 4
		}
		for range 4 {
			if err := t.remove(tile.Plain(m.Kind)); err != nil {
				return err
			}
		}
		v.HasDrawn = false
	case tbl.MeldAddedKan:
		found := false
		for i := range sv.Melds {
			if sv.Melds[i].Type == tbl.MeldPon && sv.Melds[i].Kind == m.Kind {
				sv.Melds[i] = m
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("seat %d has no pung of %v to add to", b.Seat, m.Kind)
		}
		sv.HandSize--
		if own {
			if err := t.remove(tile.Plain(m.Kind)); err != nil {
				return err
			}
		}
		v.HasDrawn = false
		v.Phase, t.claimTile, t.claimFrom = tbl.ClaimWindow, tile.Plain(m.Kind), b.Seat
	default:
		return fmt.Errorf("meld type %v", m.Type)
	}
	return nil
}
