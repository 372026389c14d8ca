package sichuan

import jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"

// endHand ends the hand: at an empty wall the settlement among the seats
// that never won (查花猪, 查大叫, 退税), then the next dealer, and the end of
// the match after its last hand.
func (t *Table) endHand(kind HandEndKind) {
	r := &t.r
	e := HandEnded{Kind: kind, WallSeed: r.wall.Seed}
	if kind == EndWallEmpty {
		t.settleDraw(&e)
	}
	for s := range e.Deltas {
		e.Deltas[s] = t.scores[s] - r.start[s]
	}
	e.Scores = t.scores
	e.NextDealer = t.dealer
	if r.anyWin {
		e.NextDealer = r.firstWinner
	}
	t.dealer = e.NextDealer
	e.MatchOver = t.hands >= t.rules.Hands
	r.hasDrawn, r.tsumo = false, false
	t.phase = BetweenHands
	t.emit(Everyone, e)
	if e.MatchOver {
		t.phase = MatchOver
		t.emit(Everyone, MatchEnded{Scores: t.scores, Ranks: ranks(t.scores)})
	}
}

// settleDraw runs the exhaustive-draw settlement among the seats that never
// won this hand, in order: a seat still holding its void suit (花猪) pays
// every other such seat the capped maximum; each seat neither ready nor 花猪
// pays each ready seat that seat's best hand value; then every seat not
// ready (花猪 included) gives back the kan money it received.
func (t *Table) settleDraw(e *HandEnded) {
	r := &t.r
	var open [NumSeats]bool
	for s := range r.seats {
		p := &r.seats[s]
		if p.wins > 0 {
			continue
		}
		open[s] = true
		e.Hands[s] = t.copyTiles(p.hand)
		e.HuaZhu[s] = p.voidTiles() > 0
		e.Ready[s] = !e.HuaZhu[s] && p.waits != 0
	}
	maxValue := 1 << t.rules.FanCap
	for s := range Seat(NumSeats) {
		if !e.HuaZhu[s] {
			continue
		}
		for o := range Seat(NumSeats) {
			if o != s && open[o] {
				e.HuaZhuPay[s] -= maxValue
				e.HuaZhuPay[o] += maxValue
			}
		}
	}
	for s := range Seat(NumSeats) {
		if !e.Ready[s] {
			continue
		}
		v := t.bestValue(s)
		for o := range Seat(NumSeats) {
			if open[o] && !e.Ready[o] && !e.HuaZhu[o] {
				e.ReadyPay[o] -= v
				e.ReadyPay[s] += v
			}
		}
	}
	for s := range Seat(NumSeats) {
		if !open[s] || e.Ready[s] {
			continue
		}
		p := &r.seats[s]
		for o, units := range p.kanIn {
			e.Refunds[s] -= units
			e.Refunds[o] += units
		}
		p.kanIn = [NumSeats]int{}
	}
	for s := range t.scores {
		t.scores[s] += e.HuaZhuPay[s] + e.ReadyPay[s] + e.Refunds[s]
	}
}

// bestValue is the most a ready seat s could win with: the judge's highest
// value over its waits, as a win on a discard.
func (t *Table) bestValue(s Seat) int {
	h := &t.jhand
	judgeHand(&t.r.seats[s], h, &t.jmelds)
	t.jrules.FanCap = t.rules.FanCap
	return jsc.BestValue(h, &t.jrules)
}

// ranks orders the seats by score, ties broken by seat order.
func ranks(scores [NumSeats]int) [NumSeats]int {
	var rk [NumSeats]int
	for s := range scores {
		rk[s] = 1
		for o := range scores {
			if scores[o] > scores[s] || scores[o] == scores[s] && o < s {
				rk[s]++
			}
		}
	}
	return rk
}
