package sichuan

import (
	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The table asks the Sichuan judge (package internal/judge/sichuan) two
// questions: after a seat's hand changes, whether it is ready and on what
// (its void suit counted), and, when a tile it waits on comes, whether it
// may win on it and for how much.

// situation is how a win would come about.
type situation struct {
	tsumo    bool
	rinshan  bool // self-drawn on a kan's replacement
	afterKan bool // on the discard right after the discarder's kan
	chankan  bool // robbing an added kan
	last     bool // the last tile of the wall, or the discard after it
}

// maxFans bounds the fans of one win: the judge lists each fan once.
const maxFans = 9

// win is a hand the judge says wins: fan after the cap, value in units and
// the fans before the cap.
type win struct {
	fan, value int
	n          int
	fans       [maxFans]Fan
}

// The judge's arguments live in the table (t.jhand and the rest), not on
// the stack: passed by pointer they would escape, one allocation per
// question.

// judgeHand fills h with p's concealed tiles, melds and void suit.
func judgeHand(p *seatState, h *jsc.Hand, melds *[4]jsc.Meld) {
	h.Concealed = p.counts
	for i, m := range p.melds {
		melds[i] = jsc.Meld{Type: jsc.MeldType(m.Type), Kind: m.Kind}
	}
	h.Melds = melds[:len(p.melds)]
	h.Void = tile.Honor // no suit is void before the choice
	if p.voidSet {
		h.Void = p.void
	}
}

// updateWaits caches s's shanten and waits: its hand must be 13 tiles
// (melds counted as three). A hand that holds its void suit waits on
// nothing, and the judge is not asked (its shanten is ShantenUnknown).
// Waits on a kind the seat holds all four of are left out: no tile can
// come.
func (t *Table) updateWaits(s Seat) {
	p := &t.r.seats[s]
	p.waits, p.shanten = 0, ShantenUnknown
	if p.voidTiles() > 0 {
		return
	}
	h := &t.jhand
	judgeHand(p, h, &t.jmelds)
	// Most hands are not ready, and the shanten number says so for less
	// than the waits cost.
	if p.shanten = jsc.Shanten(h); p.shanten != 0 {
		return
	}
	for k := range jsc.Waits(h).All() {
		if int(p.counts[k])+p.meldCount(k) < 4 {
			p.waits = p.waits.With(k)
		}
	}
}

// ShantenUnknown is Brief.Shanten when the table did not ask the judge.
const ShantenUnknown = -2

// winOn asks the judge whether s wins on x in sit. For a self-draw x is in
// s's hand already.
func (t *Table) winOn(s Seat, x tile.Tile, sit situation) (win, bool) {
	r := &t.r
	p := &r.seats[s]
	h := &t.jhand
	judgeHand(p, h, &t.jmelds)
	if sit.tsumo {
		h.Concealed[x.Kind()]--
	}
	js := &t.jsit
	*js = jsc.Situation{
		Tsumo:           sit.tsumo,
		Rinshan:         sit.tsumo && sit.rinshan,
		AfterKanDiscard: !sit.tsumo && sit.afterKan,
		Chankan:         sit.chankan,
		Haitei:          sit.tsumo && sit.last,
		Houtei:          !sit.tsumo && !sit.chankan && sit.last,
	}
	t.jrules.FanCap = t.rules.FanCap
	res := &t.jres
	*res = jsc.Score(h, x.Kind(), js, &t.jrules)
	if !res.Win {
		return win{}, false
	}
	w := win{fan: res.Fan, value: res.Value}
	for _, l := range res.Lines() {
		if w.n < maxFans {
			w.fans[w.n] = Fan{Name: l.Fan.String(), Fan: l.Count}
			w.n++
		}
	}
	return w, true
}
