package classical

import (
	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// win ends the hand with seat s going Mah Jong on tile x from seat from
// (s itself when self-drawn).
func (t *Table) win(s, from Seat, x tile.Tile, selfDrawn, robbed bool) {
	r := &t.r
	p := &r.seats[s]
	res := t.score(s, x.Kind(), selfDrawn, robbed)
	r.winLine = SeatScore{Score: res.Score, Base: res.Base, Doubles: res.Doubles}
	if res.AsSpecial {
		r.winLine.Special = res.Special
	}
	if !selfDrawn {
		p.add(x)
	}
	t.emit(Everyone, Won{Seat: s, From: from, SelfDrawn: selfDrawn, RobbedKong: robbed,
		Hand: t.copyTiles(p.hand), Melds: t.copyMelds(p.melds), WinTile: x})
	t.endHand(EndMahJong, s)
}

// loserLine is the score line of a seat that did not go out: its pungs
// and kongs, exposed or concealed (three or four of a kind among its
// concealed tiles count as a concealed pung), and its bonus tiles, then
// the doubles of dragon and wind pungs and of its own and all four
// flowers or seasons, capped at the limit. A seat that announced fishing
// and is still fishing for a special hand counts that hand's fishing
// value instead, when that is more.
func (t *Table) loserLine(s Seat) SeatScore {
	p := &t.r.seats[s]
	seatWind, roundWind := windOf(s, t.dealer).Kind(), t.round.Kind()
	base, doubles := 0, 0
	set := func(k tile.Kind, kong, concealed bool) {
		it := jc.ExposedMinorPung
		if k.IsHonor() || k.IsTerminal() {
			it = jc.ExposedMajorPung
		}
		if kong {
			it += jc.ExposedMinorKong - jc.ExposedMinorPung
		}
		if concealed {
			it++
		}
		base += it.Value()
		switch {
		case k.IsDragon():
			doubles += jc.DragonPung.Value()
		case k.IsWind():
			if k == seatWind {
				doubles += jc.SeatWindPung.Value()
			}
			if k == roundWind {
				doubles += jc.RoundWindPung.Value()
			}
		}
	}
	for _, m := range p.melds {
		if m.Type != MeldChow {
			set(m.Kind, m.IsKong(), m.Type == MeldConcealedKong)
		}
	}
	for k, n := range p.counts {
		if n >= 3 {
			set(tile.Kind(k), false, true)
		}
	}
	b := jc.BonusOf(p.bonus)
	w := uint(windOf(s, t.dealer))
	for i := range 8 {
		if b&(1<<i) != 0 {
			base += jc.BonusTile.Value()
		}
	}
	if b&(1<<w) != 0 {
		doubles += jc.OwnFlower.Value()
	}
	if b&(1<<(4+w)) != 0 {
		doubles += jc.OwnSeason.Value()
	}
	if b&0x0f == 0x0f {
		doubles += jc.AllFlowers.Value()
	}
	if b&0xf0 == 0xf0 {
		doubles += jc.AllSeasons.Value()
	}
	score := min(base<<min(doubles, 30), t.rules.Limit)
	l := SeatScore{Score: score, Base: base, Doubles: doubles}
	if p.fishing && len(p.melds) == 0 {
		h := jc.Hand{Concealed: p.counts}
		f := jc.FishingFor(&h)
		best := jc.NoSpecial
		for sp := range f.Specials {
			if best == jc.NoSpecial || sp.Value(&t.jrules) > best.Value(&t.jrules) {
				best = sp
			}
		}
		if best != jc.NoSpecial && best.FishingValue(&t.jrules) > score {
			l.Score, l.Special, l.Fishing = best.FishingValue(&t.jrules), best, true
		}
	}
	return l
}

// settle returns the payments of a hand won by w with the seats' score
// lines: the winner collects its score from each other seat, each pair
// of losers settles the difference between their scores, and every
// payment to or from East is doubled.
func settle(w, east Seat, lines *[NumSeats]SeatScore) [NumSeats]int {
	var d [NumSeats]int
	pay := func(from, to Seat, n int) {
		if from == east || to == east {
			n *= 2
		}
		d[from] -= n
		d[to] += n
	}
	for l := range Seat(NumSeats) {
		if l != w {
			pay(l, w, lines[w].Score)
		}
	}
	for a := range Seat(NumSeats) {
		for b := a + 1; b < NumSeats; b++ {
			if a == w || b == w {
				continue
			}
			switch diff := lines[a].Score - lines[b].Score; {
			case diff > 0:
				pay(b, a, diff)
			case diff < 0:
				pay(a, b, -diff)
			}
		}
	}
	return d
}

// endHand settles the hand (won by w for EndMahJong), reveals every hand
// and the wall's seed, and moves the deal on: East keeps it after its own
// win; otherwise it passes to the right, and the prevailing wind moves on
// when it comes back to seat 0. The game ends after Rules.Rounds rounds.
func (t *Table) endHand(kind HandEndKind, w Seat) {
	r := &t.r
	e := HandEnded{Kind: kind, Winner: w, WallSeed: r.wall.Seed}
	if kind == EndMahJong {
		e.Lines[w] = r.winLine
		for s := range Seat(NumSeats) {
			if s != w {
				e.Lines[s] = t.loserLine(s)
			}
		}
		e.Deltas = settle(w, t.dealer, &e.Lines)
		for s := range t.scores {
			t.scores[s] += e.Deltas[s]
		}
	}
	e.Scores = t.scores
	for s := range r.seats {
		e.Hands[s] = t.copyTiles(r.seats[s].hand)
	}
	if kind != EndMahJong || w != t.dealer {
		t.dealer = t.dealer.Next()
		if t.dealer == 0 {
			if int(t.round)+1 >= t.rules.Rounds {
				e.GameOver = true
			} else {
				t.round++
			}
		}
	}
	e.NextDealer, e.NextRound = t.dealer, t.round
	t.phase = BetweenHands
	t.emit(Everyone, e)
	if e.GameOver {
		t.phase = GameOver
		t.emit(Everyone, GameEnded{Scores: t.scores, Ranks: ranks(t.scores)})
	}
}

// ranks orders the seats by score, ties by seat order.
func ranks(scores [NumSeats]int) [NumSeats]int {
	var rk [NumSeats]int
	for s := range scores {
		rk[s] = 1
		for o := range scores {
			if scores[o] > scores[s] || (scores[o] == scores[s] && o < s) {
				rk[s]++
			}
		}
	}
	return rk
}
