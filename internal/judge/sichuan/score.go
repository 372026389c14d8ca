package sichuan

import (
	"encoding/binary"
	"math/bits"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Score scores a win of hand h (its concealed tiles without the winning
// tile, its melds, its void suit) on tile win in situation s under rules r.
//
// A hand, meld or winning tile of the void suit is refused with MissingSuit
// before anything else; a hand that is not four sets and a pair, or seven
// pairs without melds (four of a kind are two pairs), with NotComplete, as
// is one with the wrong number of tiles for its melds, more than four
// tiles of a kind, or a tile or meld that is no Sichuan tile. Flags of s that cannot hold for the hand (see
// CheckSituation) are left out. Of all the ways to read the hand, the one
// with the most fan is reported: only the all-pungs and the seven-pairs
// readings add fan of their own, and no hand has both. Score does not
// allocate.
func Score(h *Hand, win tile.Kind, s *Situation, r *Rules) Result {
	nm := len(h.Melds)
	if nm > 4 || h.Concealed.Total() != 13-3*nm || win >= 27 {
		return Result{Reason: NotComplete}
	}
	for _, m := range h.Melds {
		if !m.valid() {
			return Result{Reason: NotComplete}
		}
	}
	if h.isVoid(win) || HoldsVoid(h) {
		return Result{Reason: MissingSuit}
	}
	c := h.Concealed
	c[win]++
	for k := tile.Kind(27); k < tile.NumKinds; k++ {
		if c[k] != 0 {
			return Result{Reason: NotComplete} // honours are no Sichuan tiles
		}
	}
	w := lanes(&c)
	qiDui := nm == 0 && sevenPairs(&w)
	if !qiDui && !judge.Complete(&c) {
		return Result{Reason: NotComplete}
	}

	// Every tile of the hand, melds included: sets of four and suits.
	all := c
	for _, m := range h.Melds {
		all[m.Kind] += uint8(m.Len())
	}
	gen, suits, over := genAndSuits(&all)
	if over {
		return Result{Reason: NotComplete} // a fifth tile of a kind
	}

	f := flags(h, s)
	var res Result
	res.Win = true
	res.add(Gen, gen)
	if f&flagChankan == 0 {
		// qi_dui and an all-pungs reading exclude each other: seven pairs
		// hold no triplet.
		if pair, ok := allPungs(&w); ok && !qiDui {
			res.add(DuiDuiHu, 1)
			if pair == win {
				res.add(JinGouDiao, 1)
			}
		}
	}
	if suits == 1 {
		res.add(QingYiSe, 2)
	}
	if qiDui && f&flagChankan == 0 {
		res.add(QiDui, 2)
	}
	if f&flagRinshan != 0 {
		res.add(GangShangHua, 1)
	}
	if f&flagAfterKan != 0 {
		res.add(GangShangPao, 1)
	}
	if f&flagChankan != 0 {
		res.add(QiangGangHu, 1)
	}
	if f&flagHaiDi != 0 && f&flagChankan == 0 {
		res.add(HaiDi, 1)
	}
	res.Fan = min(res.RawFan, max(r.FanCap, 0))
	res.Value = 1 << res.Fan
	return res
}

// The hand's counts are read as words of eight one-byte lanes, so that a
// test runs on eight kinds at once (as the riichi judge reads seven pairs).
// Kinds 8i..8i+7 are word i; the last word holds 24..26 and honours, which
// are zero by then.
type kindLanes [4]uint64

func lanes(c *tile.Counts) kindLanes {
	return kindLanes{
		binary.LittleEndian.Uint64(c[0:8]),
		binary.LittleEndian.Uint64(c[8:16]),
		binary.LittleEndian.Uint64(c[16:24]),
		binary.LittleEndian.Uint64(c[24:32]),
	}
}

const (
	laneOnes = 0x0101010101010101
	laneLow  = 0x7f7f7f7f7f7f7f7f
	laneHigh = 0x8080808080808080
)

// laneNonzero sets the high bit of each lane of x that is not 0.
func laneNonzero(x uint64) uint64 { return ((x & laneLow) + laneLow | x) & laneHigh }

// sevenPairs reports whether the concealed tiles of a hand without melds
// (14 with the winning tile) are seven pairs, four of a kind counting as
// two: no kind is held an odd number of times.
func sevenPairs(w *kindLanes) bool {
	return (w[0]|w[1]|w[2]|w[3])&laneOnes == 0
}

// allPungs reports whether the concealed tiles (with the winning tile)
// read as triplets and one pair, and which kind is the pair: every kind is
// held 0, 2 or 3 times, and exactly one twice. Four of a kind never fits:
// it would be a triplet and a single, or two pairs.
func allPungs(w *kindLanes) (pair tile.Kind, ok bool) {
	pairs := 0
	for i, x := range w {
		// A lane of 4 or more, or of 1, spoils the reading; a lane of 2
		// (bit 1 without bit 0, below 4) is a pair.
		if x&(laneOnes*0xfc) != 0 || x&^(x>>1)&laneOnes != 0 {
			return 0, false
		}
		if p := x >> 1 &^ x & laneOnes; p != 0 {
			pairs += bits.OnesCount64(p)
			pair = tile.Kind(8*i + bits.TrailingZeros64(p)/8)
		}
	}
	return pair, pairs == 1
}

// genAndSuits counts the kinds held four times (gen) and the suits held
// at all among all the tiles of a hand, and reports whether a kind is held
// more than four times.
func genAndSuits(all *tile.Counts) (gen, suits int, over bool) {
	w := lanes(all)
	var nz kindLanes
	for i, x := range w {
		nz[i] = laneNonzero(x)
		gen += bits.OnesCount64(^laneNonzero(x^laneOnes*4) & laneHigh)
		// A lane of 5 or more gets its high bit set.
		over = over || ((x&laneLow)+laneOnes*0x7b|x)&laneHigh != 0
	}
	// Man is kinds 0..8, pin 9..17, sou 18..26.
	for _, held := range [3]uint64{
		nz[0] | nz[1]&0x80,
		nz[1]&^0x80 | nz[2]&0x8080,
		nz[2]&^0x8080 | nz[3]&0x808080,
	} {
		if held != 0 {
			suits++
		}
	}
	return gen, suits, over
}
