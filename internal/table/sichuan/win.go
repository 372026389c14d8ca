package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// winTsumo: s wins on its drawn tile; every other seat still in play pays
// the hand's value plus one unit.
func (t *Table) winTsumo(s Seat) {
	r := &t.r
	p := &r.seats[s]
	x, w := r.drawn, r.tsumoWin
	p.remove(x)
	r.hasDrawn, r.tsumo = false, false
	var d [NumSeats]int
	for o := range Seat(NumSeats) {
		if o != s && r.inPlay(o) {
			d[o] = -(w.value + 1)
			d[s] += w.value + 1
		}
	}
	t.recordWin(s, s, x, true, true, false, &w, d)
	if !p.left {
		t.updateWaits(s)
	}
	if !r.anyWin {
		r.anyWin, r.firstWinner = true, s
	}
	t.afterWin(s)
}

// winClaim: the seats of rons, in turn order from the discarder (or the
// robbed kan's maker), win on the claim tile; the discarder pays each its
// hand's value. After a kan, the kan's money goes to the first winner.
func (t *Table) winClaim(rons []Seat) {
	r := &t.r
	from, x := r.claimFrom, r.claimTile
	for i, s := range rons {
		w := r.ronWin[s]
		var d [NumSeats]int
		d[from], d[s] = -w.value, w.value
		t.recordWin(s, from, x, false, i == 0, r.robbing, &w, d)
	}
	if r.robbing {
		// The robbed kan is a pon again; its fourth tile went to the
		// first winner.
		p := &r.seats[from]
		for i := range p.melds {
			if p.melds[i].Type == MeldAddedKan && p.melds[i].Kind == x.Kind() {
				p.melds[i].Type = MeldPon
			}
		}
		t.updateWaits(from)
	} else {
		d := &r.seats[from]
		d.pond[len(d.pond)-1].Called = true
		if d.afterKan && d.lastKan > 0 {
			t.transferKan(from, rons[0])
		}
	}
	r.seats[from].afterKan = false
	if !r.anyWin {
		r.anyWin, r.firstWinner = true, rons[0]
		if len(rons) > 1 {
			r.firstWinner = from
		}
	}
	t.afterWin(rons[len(rons)-1])
}

// transferKan moves the money of from's last kan to s (呼叫转移).
func (t *Table) transferKan(from, s Seat) {
	p := &t.r.seats[from]
	units := p.lastKan
	for o := range p.kanIn {
		p.kanIn[o] -= p.lastKanFrom[o]
	}
	t.scores[from] -= units
	t.scores[s] += units
	p.lastKan, p.lastKanFrom = 0, [NumSeats]int{}
	t.emit(Everyone, KanTransferred{Seat: from, To: s, Units: units, Scores: t.scores})
}

// recordWin pays a win and shows it.
func (t *Table) recordWin(s, from Seat, x tile.Tile, tsumo, taken, chankan bool, w *win, d [NumSeats]int) {
	p := &t.r.seats[s]
	for o := range d {
		t.scores[o] += d[o]
	}
	p.won = append(p.won, wonTile{tile: x, taken: taken})
	p.wins++
	t.r.winners += b2i(p.wins == 1)
	p.left = !t.rules.BloodyRiver
	t.emit(Everyone, Won{
		Seat: s, From: from, Tsumo: tsumo, Chankan: chankan,
		Hand: t.copyTiles(p.hand), Melds: t.copyMelds(p.melds), WinTile: x,
		Fan: w.fan, Fans: t.copyFans(w.fans[:w.n]), Value: w.value,
		Deltas: d, Scores: t.scores, Left: p.left,
	})
}

// afterWin goes on after a win: the hand ends when three seats have won
// (unless winners stay in play) or the wall is empty; otherwise the seat
// after last, the last winner, draws.
func (t *Table) afterWin(last Seat) {
	r := &t.r
	switch {
	case !t.rules.BloodyRiver && r.winners >= NumSeats-1:
		t.endHand(EndThreeWon)
	case r.liveLeft() == 0:
		t.endHand(EndWallEmpty)
	default:
		t.draw(r.nextInPlay(last), false)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
