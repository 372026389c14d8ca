package mcr

import (
	"github.com/mahjong-authority/authority/internal/judge"
	jmcr "github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The table asks the MCR judge two questions: after a seat's hand changes,
// whether it is ready and on what (cached as its waits, so that a discard
// or a draw the seat does not wait on costs nothing more), and, when a
// tile it waits on comes, what the win is worth. A win is offered only
// when it reaches the minimum without flowers.

const minimumFan = jmcr.MinimumFan

// situation is how a win would come about.
type situation struct {
	tsumo   bool
	rinshan bool // self-drawn on a kong's replacement
	chankan bool // robbing an added kong
	last    bool // the last tile of the wall, or the discard after it
}

// maxFans bounds the fans of one win as the table keeps them.
const maxFans = 32

// win is a hand the judge says wins with the minimum: its total (flowers
// included) and its fans.
type win struct {
	total int
	n     int
	fans  [maxFans]Fan
}

// judgeHand fills the table's judge hand with p's concealed tiles (less
// one of without, unless it is zero-less) and melds.
func (t *Table) judgeHand(p *seatState, without tile.Tile, drop bool) *judge.Hand {
	h := &t.jhand
	n := 0
	for _, x := range p.hand {
		if drop && x == without {
			drop = false
			continue
		}
		t.jconc[n] = x
		n++
	}
	h.Concealed = t.jconc[:n]
	for i, m := range p.melds {
		t.jmelds[i] = judgeMeld(m)
	}
	h.Melds = t.jmelds[:len(p.melds)]
	return h
}

func judgeMeld(m Meld) judge.Meld {
	jm := judge.Meld{}
	switch m.Type {
	case MeldChi:
		jm.Type = judge.Chi
		for i := range 3 {
			jm.Tiles[i] = tile.Plain(m.Kind + tile.Kind(i))
		}
		return jm
	case MeldPon:
		jm.Type = judge.Pon
	case MeldOpenKan:
		jm.Type = judge.OpenKan
	case MeldAddedKan:
		jm.Type = judge.AddedKan
	case MeldClosedKan:
		jm.Type = judge.ClosedKan
	}
	for i := range m.Len() {
		jm.Tiles[i] = tile.Plain(m.Kind)
	}
	return jm
}

// updateWaits caches s's shanten and waits: its hand must be 13 tiles
// (melds counted as three). Waits on a kind the seat holds all four of
// are left out: no tile of it can come.
func (t *Table) updateWaits(s Seat) {
	p := &t.r.seats[s]
	p.waits = 0
	// Most hands are not ready, and the shanten number says so for less
	// than the waits cost.
	if p.shanten = jmcr.Shanten(&p.counts); p.shanten != 0 {
		return
	}
	for k := range jmcr.Waits(&p.counts).All() {
		if int(p.counts[k])+p.meldCount(k) < 4 {
			p.waits = p.waits.With(k)
		}
	}
}

// winOn asks the judge whether s wins on x in sit with the minimum. For a
// self-draw x is in s's hand already.
func (t *Table) winOn(s Seat, x tile.Tile, sit situation) (win, bool) {
	r := &t.r
	p := &r.seats[s]
	h := t.judgeHand(p, x, sit.tsumo)
	js := &t.jsit
	*js = jmcr.Situation{
		Tsumo:     sit.tsumo,
		LastTile:  t.visible(s, x.Kind(), sit) >= 3,
		Rinshan:   sit.tsumo && sit.rinshan,
		Chankan:   sit.chankan,
		Haitei:    sit.tsumo && sit.last,
		Houtei:    !sit.tsumo && !sit.chankan && sit.last,
		SeatWind:  r.winds[s],
		RoundWind: r.round,
		Flowers:   len(p.flowers),
	}
	res := &t.jres
	*res = jmcr.Score(h, x, js)
	if !res.Win || !res.MeetsMinimum {
		return win{}, false
	}
	w := win{total: res.Total}
	for _, l := range res.Fans() {
		if w.n < maxFans {
			w.fans[w.n] = Fan{Name: l.Fan.String(), Count: l.Count, Points: l.Points}
			w.n++
		}
	}
	return w, true
}

// visible counts the tiles of kind k that seat s can see, other than the
// winning tile itself: every pond's uncalled discards and every meld but
// another seat's concealed kongs. Three visible make the winning tile the
// last of its kind.
func (t *Table) visible(s Seat, k tile.Kind, sit situation) int {
	r := &t.r
	n := 0
	for o := range r.seats {
		q := &r.seats[o]
		for _, d := range q.pond {
			if !d.Called && d.Tile.Kind() == k {
				n++
			}
		}
		for _, m := range q.melds {
			if m.Type != MeldClosedKan || Seat(o) == s {
				n += m.count(k)
			}
		}
	}
	if !sit.tsumo {
		n-- // the discard or the tile added to the kong
	}
	return n
}
