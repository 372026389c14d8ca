// Package mcr holds a simple deterministic player of Chinese Official
// tables (package internal/table/mcr), for benchmarks, fuzzing and empty
// seats. Its choice is a pure function of what its seat sees: the View,
// legal actions included.
package mcr

import (
	"math/bits"

	"github.com/mahjong-authority/authority/internal/judge"
	jmcr "github.com/mahjong-authority/authority/internal/judge/mcr"
	tm "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Player plays toward the fastest hand that can reach the 8-fan minimum:
// it wins whenever the table offers a win (the table offers only wins
// that reach the minimum); it discards for the lowest shanten, and once
// ready for the waits worth the most; it calls a chi, pung or kong only
// when the call leaves it ready with a wait worth 8 fans or more, and
// declares a kong when that does not take its hand further from ready.
// It always answers with one of its legal actions, so it never stalls a
// table. The zero value is ready to use; a Player is not safe for
// concurrent use (it keeps buffers).
type Player struct {
	v     tm.View
	conc  [14]tile.Tile
	melds [5]judge.Meld
	hand  judge.Hand
	sit   jmcr.Situation
	res   jmcr.Result
}

// Decide returns seat s's action at table t; ok is false when the table
// does not wait for s.
func (p *Player) Decide(t *tm.Table, s tm.Seat) (tm.Action, bool) {
	if !t.Waiting(s) {
		return tm.Action{}, false
	}
	t.ViewInto(&p.v, s)
	return p.Act(&p.v)
}

// Act returns seat v.Seat's action from its view; ok is false when it has
// nothing to do.
func (p *Player) Act(v *tm.View) (tm.Action, bool) {
	if len(v.Legal) == 0 {
		return tm.Action{}, false
	}
	for _, a := range v.Legal {
		if a.Type == tm.Tsumo || a.Type == tm.Ron {
			return a, true
		}
	}
	c := tile.CountsOf(v.Tiles)
	if v.HasDrawn {
		c[v.Drawn.Kind()]++
	}
	melds := v.Seats[v.Seat].Melds
	if v.Phase == tm.ClaimWindow {
		return p.claim(v, &c, melds), true
	}
	return p.turn(v, &c, melds), true
}

// claim takes a call that leaves the hand ready to win 8 fans, else passes.
func (p *Player) claim(v *tm.View, c *tile.Counts, melds []tm.Meld) tm.Action {
	pass := v.Legal[len(v.Legal)-1]
	for _, a := range v.Legal {
		if a.Type != tm.Pon && a.Type != tm.Chi && a.Type != tm.OpenKan {
			continue
		}
		after := *c
		k := a.Tile.Kind()
		m := tm.Meld{Kind: k, Called: k}
		switch a.Type {
		case tm.Pon:
			m.Type = tm.MeldPon
			after[k] -= 2
		case tm.OpenKan:
			m.Type = tm.MeldOpenKan
			after[k] -= 3
		case tm.Chi:
			m.Type, m.Kind = tm.MeldChi, a.Run
			for j := a.Run; j < a.Run+3; j++ {
				if j != k {
					after[j]--
				}
			}
		}
		all := append(melds[:len(melds):len(melds)], m)
		if a.Type == tm.OpenKan {
			// A kong draws a replacement: judge the thirteen as they are.
			if shanten(&after) == 0 && p.bestWait(v, &after, all) >= jmcr.MinimumFan {
				return a
			}
			continue
		}
		for d := range tile.Kind(tile.NumKinds) {
			if after[d] == 0 {
				continue
			}
			after[d]--
			if shanten(&after) == 0 && p.bestWait(v, &after, all) >= jmcr.MinimumFan {
				return a
			}
			after[d]++
		}
	}
	return pass
}

// turn declares a kong that keeps the shanten, else discards.
func (p *Player) turn(v *tm.View, c *tile.Counts, melds []tm.Meld) tm.Action {
	var discards tile.KindSet
	for _, a := range v.Legal {
		switch a.Type {
		case tm.Discard:
			discards = discards.With(a.Tile.Kind())
		case tm.AddedKan:
			return a
		case tm.ClosedKan:
			k := a.Tile.Kind()
			before := bestShanten(c)
			after := *c
			after[k] = 0
			if shanten(&after) <= before {
				return a
			}
		}
	}
	return tm.Action{Seat: v.Seat, Type: tm.Discard, Tile: tile.Plain(p.discard(v, c, melds, discards))}
}

// bestShanten is the least shanten of c less one tile.
func bestShanten(c *tile.Counts) int {
	best := 99
	d := *c
	for k := range tile.Kind(tile.NumKinds) {
		if d[k] == 0 {
			continue
		}
		d[k]--
		best = min(best, shanten(&d))
		d[k]++
	}
	return best
}

// discard picks the kind to discard among ds: the lowest shanten after
// it; when ready, the most a wait is worth; then the least useful tile.
func (p *Player) discard(v *tm.View, c *tile.Counts, melds []tm.Meld, ds tile.KindSet) tile.Kind {
	var sh [tile.NumKinds]int
	best := 99
	d := *c
	for k := range ds.All() {
		d[k]--
		sh[k] = shanten(&d)
		d[k]++
		best = min(best, sh[k])
	}
	suits := suitCounts(c)
	var pick tile.Kind
	pickValue, pickUse := -1, 1<<30
	for k := range ds.All() {
		if sh[k] != best {
			continue
		}
		value := 0
		if best == 0 {
			d[k]--
			value = p.bestWait(v, &d, melds)
			d[k]++
		}
		use := usefulness(c, k, &suits)
		if value > pickValue || value == pickValue && use < pickUse {
			pick, pickValue, pickUse = k, value, use
		}
	}
	return pick
}

// usefulness scores how much kind k helps hand c: its copies, its
// neighbours within two, and its suit's weight in the hand (a hand of one
// suit and honours is worth fans).
func usefulness(c *tile.Counts, k tile.Kind, suits *[4]int) int {
	n := int(c[k]) * 8
	if k < 27 {
		num := k % 9
		for dk := -2; dk <= 2; dk++ {
			j := int(num) + dk
			if dk != 0 && j >= 0 && j < 9 {
				w := 3
				if dk == 1 || dk == -1 {
					w = 4
				}
				n += w * int(c[int(k)+dk])
			}
		}
		n += suits[k/9]
	} else if c[k] == 1 {
		n -= 2 // a lone honour is the first to go
	}
	return n
}

func suitCounts(c *tile.Counts) [4]int {
	var s [4]int
	for k, n := range c {
		s[min(k/9, 3)] += int(n)
	}
	return s
}

// bestWait is the most a ready hand (concealed counts c and melds) wins
// with, flowers left out, over its waits, as a win on a discard; 0 when no
// wait completes it.
func (p *Player) bestWait(v *tm.View, c *tile.Counts, melds []tm.Meld) int {
	n := 0
	for k := range tile.Kind(tile.NumKinds) {
		for range c[k] {
			if n < len(p.conc) {
				p.conc[n] = tile.Plain(k)
				n++
			}
		}
	}
	p.hand.Concealed = p.conc[:n]
	for i, m := range melds {
		p.melds[i] = judgeMeld(m)
	}
	p.hand.Melds = p.melds[:len(melds)]
	p.sit = jmcr.Situation{SeatWind: v.Winds[v.Seat], RoundWind: v.Round}
	best := 0
	for k := range jmcr.Waits(c).All() {
		p.res = jmcr.Score(&p.hand, tile.Plain(k), &p.sit)
		if p.res.Win {
			best = max(best, p.res.TotalWithoutFlowers)
		}
	}
	return best
}

func judgeMeld(m tm.Meld) judge.Meld {
	var jm judge.Meld
	switch m.Type {
	case tm.MeldChi:
		jm.Type = judge.Chi
		for i := range 3 {
			jm.Tiles[i] = tile.Plain(m.Kind + tile.Kind(i))
		}
		return jm
	case tm.MeldPon:
		jm.Type = judge.Pon
	case tm.MeldOpenKan:
		jm.Type = judge.OpenKan
	case tm.MeldAddedKan:
		jm.Type = judge.AddedKan
	case tm.MeldClosedKan:
		jm.Type = judge.ClosedKan
	}
	for i := range m.Len() {
		jm.Tiles[i] = tile.Plain(m.Kind)
	}
	return jm
}

// shanten is jmcr.Shanten, the same number for a fraction of the cost:
// the knitted straight's shanten, the dearest of the forms, is asked only
// when it could be the lowest. It is at least the tiles missing from the
// knitted straight the hand holds most of, less one (the set and pair
// beside it can do no better than complete), so when that bound is no
// lower than the other forms' least, the least is the answer.
func shanten(c *tile.Counts) int {
	s := judge.ShantenStandard(c)
	n := c.Total()
	if n >= 13 {
		s = min(s, jmcr.SevenPairsShanten(c), judge.ShantenThirteenOrphans(c), jmcr.HonorsAndKnittedShanten(c))
	}
	if n >= 10 && knittedBound(c) < s {
		s = min(s, jmcr.KnittedStraightShanten(c))
	}
	return s
}

// knittedBound is a lower bound of jmcr.KnittedStraightShanten(c): 9 less
// the most kinds c holds of one knitted straight, less one.
func knittedBound(c *tile.Counts) int {
	held := uint64(c.Kinds())
	most := 0
	for _, m := range knittedMasks {
		most = max(most, bits.OnesCount64(held&m))
	}
	return 9 - most - 1
}

// knittedMasks are the kinds of the six knitted straights: 1-4-7, 2-5-8
// and 3-6-9, each in another suit.
var knittedMasks = func() (ms [6]uint64) {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for i, p := range perms {
		for start, suit := range p { // numbers start+1, start+4, start+7 in suit
			for n := start; n < 9; n += 3 {
				ms[i] |= 1 << (9*suit + n)
			}
		}
	}
	return ms
}()
