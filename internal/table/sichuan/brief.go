package sichuan

import "github.com/mahjong-authority/authority/internal/tile"

// Brief is what seat s needs to choose its action, without the cost of a
// View: its own tiles as counts, its void suit and melds, and its legal
// actions summed up as kind sets and flags. It holds nothing s may not
// see: View(s) and Legal(s) say all of it.
type Brief struct {
	Seat     Seat
	Phase    Phase
	Waiting  bool
	Counts   tile.Counts // concealed tiles, the drawn tile included
	Drawn    tile.Tile
	HasDrawn bool
	Void     tile.Suit
	VoidSet  bool
	Melds    [4]Meld
	NMelds   int

	// Turn: the kinds it may discard, declare a closed kan of or add to a
	// pon, and whether it may win on its drawn tile.
	Discards, ClosedKans, AddedKans tile.KindSet
	Tsumo                           bool
	// Shanten is the judge's shanten number of its thirteen tiles (melds
	// counted as three): in its turn the hand before the draw (without
	// Drawn), when HasDrawn; in a claim window its hand. ShantenUnknown
	// while the hand holds its void suit, and otherwise 0.
	Shanten int
	// Claim window: the tile and what it may claim of it.
	ClaimTile         tile.Tile
	Ron, Pon, OpenKan bool
}

// Brief returns seat s's Brief.
func (t *Table) Brief(s Seat) Brief {
	b := Brief{Seat: s, Phase: t.phase, Waiting: t.Waiting(s)}
	if s >= NumSeats || t.hands == 0 {
		return b
	}
	r := &t.r
	p := &r.seats[s]
	b.Counts, b.Void, b.VoidSet = p.counts, p.void, p.voidSet
	b.NMelds = copy(b.Melds[:], p.melds)
	if !b.Waiting {
		return b
	}
	switch t.phase {
	case Turn:
		if r.hasDrawn {
			b.Drawn, b.HasDrawn, b.Shanten = r.drawn, true, p.shanten
		}
		b.Tsumo = r.tsumo
		if t.locked(p) {
			b.Discards = b.Discards.With(r.drawn.Kind())
			return b
		}
		held, four := p.held, p.four
		var void tile.KindSet
		if p.voidSet {
			void = (1<<9 - 1) << (9 * tile.KindSet(p.void))
		}
		if r.hasDrawn && r.liveLeft() > 0 {
			b.ClosedKans = four &^ void
			for _, m := range p.melds {
				if m.Type == MeldPon && held.Has(m.Kind) {
					b.AddedKans = b.AddedKans.With(m.Kind)
				}
			}
		}
		b.Discards = held
		if t.rules.VoidFirst && held&void != 0 {
			b.Discards = held & void
		}
	case ClaimWindow:
		o := r.offered[s]
		b.ClaimTile, b.Shanten = r.claimTile, p.shanten
		b.Ron, b.Pon, b.OpenKan = o&offerRon != 0, o&offerPon != 0, o&offerKan != 0
	}
	return b
}
