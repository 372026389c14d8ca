package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// The slow versions below follow the model's words with exhaustive
// searches and share nothing with the fast code but the types. They are the
// oracle the fast code is tested and fuzzed against.

// slowLiveKinds lists the kinds of the suits h does not void.
func slowLiveKinds(h *Hand) []tile.Kind {
	var ks []tile.Kind
	for k := tile.Kind(0); k < 27; k++ {
		if tile.Suit(k/9) != h.Void {
			ks = append(ks, k)
		}
	}
	return ks
}

// slowHoldsVoid: a tile of the void suit anywhere in the hand.
func slowHoldsVoid(h *Hand) bool {
	for k := tile.Kind(0); k < 27; k++ {
		if tile.Suit(k/9) == h.Void && h.Concealed[k] > 0 {
			return true
		}
	}
	for _, m := range h.Melds {
		if m.Kind < 27 && tile.Suit(m.Kind/9) == h.Void {
			return true
		}
	}
	return false
}

// slowGroup is a set of a reading: a triplet or a run, by its lowest kind.
type slowGroup struct {
	run  bool
	kind tile.Kind
}

// slowReadings returns every way to split c into sets and one pair.
func slowReadings(c tile.Counts) (pairs []tile.Kind, groups [][]slowGroup) {
	var cur []slowGroup
	var rec func(pair int)
	rec = func(pair int) {
		k := 0
		for k < 27 && c[k] == 0 {
			k++
		}
		if k == 27 {
			if pair >= 0 {
				pairs = append(pairs, tile.Kind(pair))
				groups = append(groups, append([]slowGroup(nil), cur...))
			}
			return
		}
		if pair < 0 && c[k] >= 2 {
			c[k] -= 2
			rec(k)
			c[k] += 2
		}
		if c[k] >= 3 {
			c[k] -= 3
			cur = append(cur, slowGroup{kind: tile.Kind(k)})
			rec(pair)
			cur = cur[:len(cur)-1]
			c[k] += 3
		}
		if k%9 <= 6 && c[k+1] > 0 && c[k+2] > 0 {
			c[k]--
			c[k+1]--
			c[k+2]--
			cur = append(cur, slowGroup{run: true, kind: tile.Kind(k)})
			rec(pair)
			cur = cur[:len(cur)-1]
			c[k]++
			c[k+1]++
			c[k+2]++
		}
	}
	rec(-1)
	return pairs, groups
}

// slowSevenPairs: 14 tiles, every kind held an even number of times.
func slowSevenPairs(c *tile.Counts) bool {
	n := 0
	for _, v := range c {
		if v%2 == 1 {
			return false
		}
		n += int(v)
	}
	return n == 14
}

func slowComplete(c tile.Counts, melds int) bool {
	for k := 27; k < tile.NumKinds; k++ {
		if c[k] != 0 {
			return false
		}
	}
	if melds == 0 && slowSevenPairs(&c) {
		return true
	}
	pairs, _ := slowReadings(c)
	return len(pairs) > 0
}

// slowWaits tries every live kind as a fourteenth tile.
func slowWaits(h *Hand) tile.KindSet {
	if len(h.Melds) > 4 || h.Concealed.Total() != 13-3*len(h.Melds) || slowHoldsVoid(h) {
		return 0
	}
	var w tile.KindSet
	for _, k := range slowLiveKinds(h) {
		c := h.Concealed
		c[k]++
		if slowComplete(c, len(h.Melds)) {
			w = w.With(k)
		}
	}
	return w
}

// slowShanten is the fewest tiles the live part of h must gain to become a
// complete hand (4 less the melds sets and a pair, or seven pairs without
// melds), less one: every target hand is tried. Void tiles are in no
// target, so each is a tile to replace.
func slowShanten(h *Hand) int {
	nm := len(h.Melds)
	if n := h.Concealed.Total(); nm > 4 || (n != 13-3*nm && n != 14-3*nm) {
		return ShantenUnreachable
	}
	live := slowLiveKinds(h)
	var c tile.Counts
	for _, k := range live {
		c[k] = h.Concealed[k]
	}
	type set struct{ kinds [3]tile.Kind }
	var sets []set
	for _, k := range live {
		sets = append(sets, set{[3]tile.Kind{k, k, k}})
		if k%9 <= 6 {
			sets = append(sets, set{[3]tile.Kind{k, k + 1, k + 2}})
		}
	}
	best := 99
	// gain: tiles of the target not in c; the tiles of c it uses are
	// taken from c as the target grows.
	var rec func(from, left, gain int)
	rec = func(from, left, gain int) {
		if gain >= best {
			return
		}
		if left == 0 {
			pair := 2
			for _, k := range live {
				pair = min(pair, 2-int(min(c[k], 2)))
			}
			best = min(best, gain+pair)
			return
		}
		for i := from; i < len(sets); i++ {
			g := 0
			var took [3]bool
			for j, k := range sets[i].kinds {
				if c[k] > 0 {
					c[k]--
					took[j] = true
				} else {
					g++
				}
			}
			rec(i, left-1, gain+g)
			for j, k := range sets[i].kinds {
				if took[j] {
					c[k]++
				}
			}
		}
	}
	rec(0, 4-nm, 0)
	if nm == 0 {
		// Seven pairs: each kind gives 0, 1 or 2 pairs.
		var pairs func(i, left, gain int)
		pairs = func(i, left, gain int) {
			if gain >= best {
				return
			}
			if left == 0 {
				best = gain
				return
			}
			if i == len(live) {
				return
			}
			for p := 0; p <= 2 && p <= left; p++ {
				pairs(i+1, left-p, gain+max(0, 2*p-int(c[live[i]])))
			}
		}
		pairs(0, 7, 0)
	}
	return best - 1
}

// slowScore scores every reading of the win from the words of the model
// and keeps the one with the most fan after the cap, then before it.
func slowScore(h *Hand, win tile.Kind, s *Situation, r *Rules) Result {
	nm := len(h.Melds)
	if nm > 4 || h.Concealed.Total() != 13-3*nm || win >= 27 {
		return Result{Reason: NotComplete}
	}
	for _, m := range h.Melds {
		if m.Type < Pon || m.Type > ClosedKan || m.Kind >= 27 {
			return Result{Reason: NotComplete}
		}
	}
	if slowHoldsVoid(h) || tile.Suit(win/9) == h.Void {
		return Result{Reason: MissingSuit}
	}
	c := h.Concealed
	c[win]++
	for k := 27; k < tile.NumKinds; k++ {
		if c[k] != 0 {
			return Result{Reason: NotComplete}
		}
	}
	every := c
	hasKan := false
	for _, m := range h.Melds {
		if m.Type == Pon {
			every[m.Kind] += 3
		} else {
			every[m.Kind] += 4
			hasKan = true
		}
	}
	gen := 0
	suits := map[tile.Suit]bool{}
	for k := tile.Kind(0); k < 27; k++ {
		if every[k] > 4 {
			return Result{Reason: NotComplete} // there are four of each kind
		}
		if every[k] == 4 {
			gen++
		}
		if every[k] > 0 {
			suits[tile.Suit(k/9)] = true
		}
	}
	rinshan := s.Rinshan && s.Tsumo && hasKan
	chankan := s.Chankan && !s.Tsumo
	afterKan := s.AfterKanDiscard && !s.Tsumo && !s.Chankan
	haiDi := (s.Haitei && s.Tsumo || s.Houtei && !s.Tsumo) && !chankan

	// score is one reading's lines: dui_dui_hu, jin_gou_diao and qi_dui
	// depend on the reading.
	score := func(duiDui, jinGou, qiDui bool) Result {
		res := Result{Win: true}
		add := func(f Fan, n int, ok bool) {
			if ok && n > 0 {
				res.lines[res.nLines] = Line{f, n}
				res.nLines++
				res.RawFan += n
			}
		}
		add(Gen, gen, true)
		add(DuiDuiHu, 1, duiDui && !chankan)
		add(JinGouDiao, 1, jinGou && !chankan)
		add(QingYiSe, 2, len(suits) == 1)
		add(QiDui, 2, qiDui && !chankan)
		add(GangShangHua, 1, rinshan)
		add(GangShangPao, 1, afterKan)
		add(QiangGangHu, 1, chankan)
		add(HaiDi, 1, haiDi)
		res.Fan = res.RawFan
		if res.Fan > r.FanCap {
			res.Fan = max(r.FanCap, 0)
		}
		res.Value = 1
		for range res.Fan {
			res.Value *= 2
		}
		return res
	}
	best := Result{Reason: NotComplete}
	consider := func(res Result) {
		if !best.Win || res.Fan > best.Fan || res.Fan == best.Fan && res.RawFan > best.RawFan {
			best = res
		}
	}
	pairs, groups := slowReadings(c)
	for i, g := range groups {
		pungs := true
		for _, x := range g {
			pungs = pungs && !x.run
		}
		consider(score(pungs, pungs && pairs[i] == win, false))
	}
	if nm == 0 && slowSevenPairs(&c) {
		consider(score(false, false, true))
	}
	return best
}
