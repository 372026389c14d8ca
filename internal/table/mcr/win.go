package mcr

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// The base every loser pays on a win, on top of the hand's total for the
// seat that pays in full.
const basePay = 8

// winTsumo: s wins on its drawn tile; every other seat pays 8 and the
// hand's total.
func (t *Table) winTsumo(s Seat) {
	r := &t.r
	x, w := r.drawn, r.tsumoWin
	r.seats[s].remove(x)
	r.hasDrawn, r.tsumo = false, false
	var d [NumSeats]int
	for o := range Seat(NumSeats) {
		if o != s {
			d[o] = -(basePay + w.total)
			d[s] += basePay + w.total
		}
	}
	t.recordWin(s, s, x, true, false, &w, d)
}

// winClaim: s wins on the claim tile; the discarder (or the robbed kong's
// maker) pays 8 and the hand's total, the two others 8 each.
func (t *Table) winClaim(s Seat) {
	r := &t.r
	from, x := r.claimFrom, r.claimTile
	w := r.ronWin[s]
	var d [NumSeats]int
	for o := range Seat(NumSeats) {
		switch o {
		case s:
			continue
		case from:
			d[o] = -(basePay + w.total)
		default:
			d[o] = -basePay
		}
		d[s] -= d[o]
	}
	p := &r.seats[from]
	if r.robbing {
		// The robbed kong is a pung again; its fourth tile went to the
		// winner.
		for i := range p.melds {
			if p.melds[i].Type == MeldAddedKan && p.melds[i].Kind == x.Kind() {
				p.melds[i].Type = MeldPon
			}
		}
	} else {
		p.pond[len(p.pond)-1].Called = true
	}
	t.recordWin(s, from, x, false, r.robbing, &w, d)
}

// recordWin pays a win, shows it and ends the hand.
func (t *Table) recordWin(s, from Seat, x tile.Tile, tsumo, chankan bool, w *win, d [NumSeats]int) {
	p := &t.r.seats[s]
	for o := range d {
		t.scores[o] += d[o]
	}
	t.r.won, t.r.winner, t.r.winTile = true, s, x
	t.emit(Everyone, Won{
		Seat: s, From: from, Tsumo: tsumo, Chankan: chankan,
		Hand: t.copyTiles(p.hand), Melds: t.copyMelds(p.melds), WinTile: x,
		Flowers: len(p.flowers), Fans: t.copyFans(w.fans[:w.n]), Total: w.total,
		Deltas: d, Scores: t.scores,
	})
	t.endHand(EndWon)
}

// endHand ends the hand, and the game after its last hand.
func (t *Table) endHand(kind HandEndKind) {
	r := &t.r
	e := HandEnded{Kind: kind, WallSeed: r.wall.Seed, Scores: t.scores}
	for s := range e.Deltas {
		e.Deltas[s] = t.scores[s] - r.start[s]
	}
	e.GameOver = t.hands >= t.rules.Hands
	r.hasDrawn, r.tsumo = false, false
	t.phase = BetweenHands
	t.emit(Everyone, e)
	if e.GameOver {
		t.phase = GameOver
		t.emit(Everyone, GameEnded{Scores: t.scores, TablePoints: TablePoints(t.scores)})
	}
}

// placePoints are the table points of the four places.
var placePoints = [NumSeats]float64{4, 2, 1, 0}

// TablePoints gives 4, 2, 1 and 0 table points by score; seats that tie
// share the points of the places they hold together.
func TablePoints(scores [NumSeats]int) [NumSeats]float64 {
	var tp [NumSeats]float64
	for s := range scores {
		above, same := 0, 0
		for o := range scores {
			switch {
			case scores[o] > scores[s]:
				above++
			case scores[o] == scores[s]:
				same++
			}
		}
		sum := 0.0
		for p := above; p < above+same; p++ {
			sum += placePoints[p]
		}
		tp[s] = sum / float64(same)
	}
	return tp
}
