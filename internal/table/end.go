package table

import (
	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// winRon pays the rons on the window's tile, nearest the discarder first:
// only that first winner gets the honba and the sticks.
func (t *Table) winRon(winners []Seat) {
	r := &t.r
	from, x := r.claimFrom, r.claimTile
	chankan := r.src == claims.AddedKan
	dealerWon := false
	for i, s := range winners {
		res := r.ronRes[s]
		honba := t.honba
		if i > 0 {
			honba = 0
			res = t.score(s, x, false, chankan, 0, 0)
		}
		p := &r.seats[s]
		var d [NumSeats]int
		pay := res.Pay.Ron
		d[s] += pay
		if liable, ok := t.liable(p, &res); ok && liable != from {
			// Tenhou: the liable seat pays half the hand and the honba,
			// the discarder the other half.
			hand := pay - 300*honba
			d[liable] -= hand/2 + 300*honba
			d[from] -= hand - hand/2
		} else {
			d[from] -= pay
		}
		if i == 0 {
			d[s] += 1000 * t.sticks
			t.sticks = 0
		}
		t.pay(d)
		t.emitWon(s, from, false, x, &res, d)
		if s == t.dealer() {
			dealerWon = true
		}
	}
	t.endRound(EndWin, dealerWon, [NumSeats]bool{}, [NumSeats][]tile.Tile{})
}

func (t *Table) winTsumo(s Seat) {
	r := &t.r
	res := r.tsumoRes
	p := &r.seats[s]
	var d [NumSeats]int
	liable, isLiable := t.liable(p, &res)
	for o := range NumSeats {
		if Seat(o) == s {
			continue
		}
		pay := res.Pay.TsumoNonDealer
		if Seat(o) == t.dealer() {
			pay = res.Pay.TsumoDealer
		}
		if isLiable {
			d[liable] -= pay
		} else {
			d[o] -= pay
		}
		d[s] += pay
	}
	d[s] += 1000 * t.sticks
	t.sticks = 0
	t.pay(d)
	t.emitWon(s, s, true, r.drawn, &res, d)
	t.endRound(EndWin, s == t.dealer(), [NumSeats]bool{}, [NumSeats][]tile.Tile{})
}

// liable returns the seat liable for p's win, if the win is the yakuman it
// is liable for.
func (t *Table) liable(p *seatState, res *judge.Result) (Seat, bool) {
	if !p.paoSet || !hasYaku(res, judge.Daisangen, judge.Daisuushii) {
		return 0, false
	}
	return p.pao, true
}

func (t *Table) pay(d [NumSeats]int) {
	for s := range d {
		t.scores[s] += d[s]
	}
}

func (t *Table) emitWon(s, from Seat, tsumo bool, x tile.Tile, res *judge.Result, d [NumSeats]int) {
	r := &t.r
	p := &r.seats[s]
	hand := append([]tile.Tile(nil), p.hand...)
	if tsumo {
		hand = removeTile(hand, x)
	}
	w := Won{
		Seat: s, From: from, Tsumo: tsumo, Hand: hand,
		Melds: append([]Meld(nil), p.melds...), WinTile: x,
		Han: res.Han, Fu: res.Fu, Yakuman: res.Yakuman,
		Yaku:  append([]judge.YakuHan(nil), res.Yaku()...),
		Limit: res.Limit, Points: d[s], Deltas: d,
	}
	if p.riichi {
		w.Ura = append([]tile.Tile(nil), r.uraInd[:r.dora]...)
	}
	if l, ok := t.liable(p, res); ok {
		w.Pao, w.PaoSet = l, true
	}
	t.emit(Everyone, w)
}

// exhaustive ends a round whose live wall ran out: nagashi mangan, or
// tenpai payments.
func (t *Table) exhaustive() {
	r := &t.r
	var tenpai [NumSeats]bool
	var hands [NumSeats][]tile.Tile
	n := 0
	for s := range r.seats {
		p := &r.seats[s]
		if p.shanten == 0 {
			tenpai[s] = true
			hands[s] = append([]tile.Tile(nil), p.hand...)
			n++
		}
	}
	kind := EndExhaustive
	var d [NumSeats]int
	dealer := t.dealer()
	for s := range r.seats {
		p := &r.seats[s]
		if !p.nagashi || len(p.pond) == 0 {
			continue
		}
		// Nagashi mangan: a mangan tsumo, no honba; sticks stay.
		kind = EndNagashi
		pay := judge.Pay(2000, Seat(s) == dealer, true, 0)
		for o := range NumSeats {
			if o == s {
				continue
			}
			v := pay.TsumoNonDealer
			if Seat(o) == dealer {
				v = pay.TsumoDealer
			}
			d[o] -= v
			d[s] += v
		}
	}
	if kind == EndExhaustive && n > 0 && n < NumSeats {
		for s := range tenpai {
			if tenpai[s] {
				d[s] += 3000 / n
			} else {
				d[s] -= 3000 / (NumSeats - n)
			}
		}
	}
	t.pay(d)
	t.endRound(kind, tenpai[dealer], tenpai, hands)
}

// abort ends the round in an abortive draw: the dealer keeps the deal.
func (t *Table) abort(kind RoundEndKind, hands [NumSeats][]tile.Tile) {
	t.endRound(kind, true, [NumSeats]bool{}, hands)
}

// endRound publishes the round's result, moves the deal on and decides
// whether the game is over.
func (t *Table) endRound(kind RoundEndKind, keep bool, tenpai [NumSeats]bool, hands [NumSeats][]tile.Tile) {
	r := &t.r
	if kind == EndWin && !keep {
		t.honba = 0
	} else {
		t.honba++
	}
	over := t.gameOver(kind, keep)
	var d [NumSeats]int
	for s := range d {
		d[s] = t.scores[s] - r.startScores[s]
	}
	t.emit(Everyone, RoundEnded{
		Kind: kind, Deltas: d, Scores: t.scores, Tenpai: tenpai, Hands: hands,
		RiichiSticks: t.sticks, Honba: t.honba, WallSeed: r.wall.Seed, GameOver: over,
	})
	if !keep {
		t.number++
		if t.number > 4 {
			t.number = 1
			t.wind = t.wind.Next()
		}
	}
	if over {
		t.finish()
		return
	}
	t.phase = BetweenRounds
}

// gameOver applies Tenhou's end of game to the round just played.
func (t *Table) gameOver(kind RoundEndKind, keep bool) bool {
	if kind != EndWin && kind != EndExhaustive && kind != EndNagashi {
		return false // aborts never end the game
	}
	top := 0
	for s, v := range t.scores {
		if v < 0 {
			return true
		}
		if v > t.scores[top] {
			top = s
		}
	}
	last := tile.WindSouth
	if t.rules.East {
		last = tile.WindEast
	}
	allLast := t.wind > last || t.wind == last && t.number == 4
	switch {
	case !allLast:
		return false
	case keep:
		return Seat(top) == t.dealer() && t.scores[top] >= t.rules.TargetScore
	case t.wind == last+1 && t.number == 4:
		return true
	}
	return t.scores[top] >= t.rules.TargetScore
}

// finish gives the sticks left on the table to first place and ends the
// game.
func (t *Table) finish() {
	ranks := t.ranks()
	for s, rk := range ranks {
		if rk == 1 {
			t.scores[s] += 1000 * t.sticks
			t.sticks = 0
		}
	}
	t.phase = GameOver
	t.emit(Everyone, GameEnded{Scores: t.scores, Ranks: ranks})
}

// ranks ranks the seats by score, ties broken by seat order.
func (t *Table) ranks() [NumSeats]int {
	var rk [NumSeats]int
	for s := range rk {
		rk[s] = 1
		for o := range rk {
			if t.scores[o] > t.scores[s] || t.scores[o] == t.scores[s] && o < s {
				rk[s]++
			}
		}
	}
	return rk
}
