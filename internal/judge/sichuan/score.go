package sichuan

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Score scores a win of hand h (its concealed tiles without the winning
// tile, its melds, its void suit) on tile win in situation s under rules r.
//
// A hand, meld or winning tile of the void suit is refused with MissingSuit
// before anything else; a hand that is not four sets and a pair, or seven
// pairs without melds (four of a kind are two pairs), with NotComplete, as
// is one with the wrong number of tiles for its melds or a tile or meld
// that is no Sichuan tile. Flags of s that cannot hold for the hand (see
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
	qiDui := nm == 0 && sevenPairs(&c)
	if !qiDui && !judge.Complete(&c) {
		return Result{Reason: NotComplete}
	}

	// Every tile of the hand, melds included: sets of four and suits.
	all := c
	for _, m := range h.Melds {
		all[m.Kind] += uint8(m.Len())
	}
	gen, suits := 0, 0
	for su := 0; su < 3; su++ {
		held := false
		for _, n := range all[su*9 : su*9+9] {
			if n == 4 {
				gen++
			}
			held = held || n != 0
		}
		if held {
			suits++
		}
	}

	f := flags(h, s)
	var res Result
	res.Win = true
	res.add(Gen, gen)
	if f&flagChankan == 0 {
		// qi_dui and an all-pungs reading exclude each other: seven pairs
		// hold no triplet.
		if pair, ok := allPungs(&c); ok && !qiDui {
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

// sevenPairs reports whether 14 counted tiles are seven pairs, four of a
// kind counting as two.
func sevenPairs(c *tile.Counts) bool {
	n := 0
	for _, v := range c {
		if v&1 != 0 {
			return false
		}
		n += int(v)
	}
	return n == 14
}

// allPungs reports whether the concealed tiles c (with the winning tile)
// read as triplets and one pair, and which kind is the pair. Four of a kind
// never fits: it would be a triplet and a single, or two pairs.
func allPungs(c *tile.Counts) (pair tile.Kind, ok bool) {
	pairs := 0
	for k, v := range c {
		switch v {
		case 0, 3:
		case 2:
			pairs++
			pair = tile.Kind(k)
		default:
			return 0, false
		}
	}
	return pair, pairs == 1
}
