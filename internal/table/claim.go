package table

import (
	"errors"

	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// answerOption turns an answer into the claims option it stands for.
func (t *Table) answerOption(a Action) (claims.Option, error) {
	switch a.Type {
	case Pass:
		return claims.Option{Call: claims.Pass}, nil
	case Ron:
		return claims.Option{Call: claims.Ron}, nil
	case Chi, Pon:
		for _, x := range a.Tiles {
			if !x.Valid() || x.Kind() >= tile.NumKinds {
				return claims.Option{}, refuse(a, ErrBadAction, "no such tile")
			}
		}
		opt := claims.Option{Call: claims.Chi, Tiles: [3]tile.Tile{a.Tiles[0], a.Tiles[1]}}
		if a.Type == Pon {
			opt.Call = claims.Pon
		}
		sortTiles(opt.Tiles[:2])
		return opt, nil
	case OpenKan:
		if a.Seat < NumSeats {
			for _, opt := range t.r.window.Offer(claims.Seat(a.Seat)).Options() {
				if opt.Call == claims.OpenKan {
					return opt, nil
				}
			}
		}
		return claims.Option{Call: claims.OpenKan}, nil
	}
	return claims.Option{}, refuse(a, ErrPhase, "a claim window is open: answer with pass, ron, pon, chi or open_kan")
}

func (t *Table) checkAnswer(a Action) (claims.Option, error) {
	opt, err := t.answerOption(a)
	if err != nil {
		return opt, err
	}
	// The refusal names the action as the seat asked it (a's own String);
	// the window's option would show the tiles an open kan or ron leaves
	// unset.
	if err := t.r.window.Check(claims.Seat(a.Seat), opt); err != nil {
		switch {
		case errors.Is(err, claims.ErrNotOffered):
			return opt, refuse(a, ErrIllegal, "not offered to this seat")
		case errors.Is(err, claims.ErrAnswered):
			return opt, refuse(a, ErrNotToAct, "the seat already answered this claim window")
		}
		return opt, refuse(a, ErrNotToAct, "the seat has nothing to claim")
	}
	return opt, nil
}

// answer records an answer that check accepted (Answer checks it again:
// a refused one changes nothing).
func (t *Table) answer(a Action) {
	opt, _ := t.answerOption(a)
	_ = t.r.window.Answer(claims.Seat(a.Seat), opt)
	if t.r.window.Done() {
		t.resolve()
	}
}

// resolve ends the claim window: rons, an abort, a call, or play goes on.
func (t *Table) resolve() { t.settle(t.r.window.Resolve()) }

// settle goes on after a claim window resolved to res (the zero
// Resolution when nobody could claim anything).
func (t *Table) settle(res claims.Resolution) {
	r := &t.r
	if res.TripleRon {
		t.abort(EndTripleRon, [NumSeats][]tile.Tile{})
		return
	}
	if res.NRon > 0 {
		var winners [3]Seat
		for i := range res.NRon {
			winners[i] = Seat(res.Rons[i])
		}
		t.winRon(winners[:res.NRon])
		return
	}
	t.missedRon()
	if r.src != claims.Discard {
		t.afterKan(r.claimFrom)
		return
	}
	if r.riichiPending {
		t.acceptRiichi(r.claimFrom)
		if t.riichiSeats() == NumSeats {
			t.abort(EndFourRiichi, [NumSeats][]tile.Tile{})
			return
		}
	}
	switch {
	case !r.interrupted && r.discards == NumSeats && r.firstWind.IsWind():
		t.abort(EndFourWinds, [NumSeats][]tile.Tile{})
	case r.fourKans:
		t.abort(EndFourKans, [NumSeats][]tile.Tile{})
	case res.Called:
		t.call(Seat(res.Caller), res.Call)
	case r.liveLeft() == 0:
		t.exhaustive()
	default:
		t.draw(r.claimFrom.Next(), false)
	}
}

// missedRon puts every seat that let a winning tile pass into furiten: until
// its next discard, or for good after riichi. A discard or an added kan on
// a wait is passed even by a hand without a yaku for it; a closed kan only
// by the thirteen orphans that could rob it.
func (t *Table) missedRon() {
	r := &t.r
	k := r.claimTile.Kind()
	for o := range r.seats {
		p := &r.seats[o]
		if Seat(o) == r.claimFrom || !p.waits.Has(k) {
			continue
		}
		if r.src == claims.ClosedKan && !r.window.Offer(claims.Seat(o)).Has(claims.Option{Call: claims.Ron}) {
			continue
		}
		if p.riichi {
			p.riichiFurit = true
		} else {
			p.tempFuriten = true
		}
	}
}

func (t *Table) acceptRiichi(s Seat) {
	r := &t.r
	p := &r.seats[s]
	p.riichi, p.ippatsu, p.doubleRiichi = true, true, r.riichiDouble
	r.riichiPending = false
	t.scores[s] -= 1000
	t.sticks++
	t.emit(Everyone, RiichiAccepted{Seat: s, Scores: t.scores, RiichiSticks: t.sticks})
}

// call makes the winning chi, pon or open kan of the window.
func (t *Table) call(s Seat, opt claims.Option) {
	r := &t.r
	p := &r.seats[s]
	x, from := r.claimTile, r.claimFrom
	m := Meld{From: from, Called: x}
	n := opt.N()
	for i, y := range opt.Tiles[:n] {
		p.remove(y)
		m.Tiles[i] = y
	}
	m.Tiles[n] = x
	sortTiles(m.Tiles[:n+1])
	switch opt.Call {
	case claims.Chi:
		m.Type = judge.Chi
	case claims.Pon:
		m.Type = judge.Pon
	default:
		m.Type = judge.OpenKan
	}
	p.addMeld(m)
	d := &r.seats[from]
	d.pond[len(d.pond)-1].Called = true
	d.nagashi = false
	r.interrupted = true
	t.breakIppatsu()
	t.checkPao(s, from, x.Kind())
	if m.Type == judge.OpenKan {
		t.declareKan(s, m)
		r.pending++
		t.draw(s, true)
		return
	}
	t.emit(Everyone, Called{Seat: s, Meld: m, Scores: t.scores})
	p.forbid = claims.Forbidden(opt, x)
	r.toAct, r.hasDrawn, r.tsumo, r.drawnRinshan = s, false, false, false
	t.phase = Turn
}

// checkPao makes from liable when its discard gave s its third dragon set
// (big three dragons) or its fourth wind set (big four winds).
func (t *Table) checkPao(s, from Seat, k tile.Kind) {
	p := &t.r.seats[s]
	if !k.IsDragon() && !k.IsWind() {
		return
	}
	n := 0
	for _, m := range p.melds {
		if m.Type != judge.Chi && (m.Kind().IsDragon() && k.IsDragon() || m.Kind().IsWind() && k.IsWind()) {
			n++
		}
	}
	if k.IsDragon() && n == 3 || k.IsWind() && n == 4 {
		p.pao, p.paoSet = from, true
	}
}
