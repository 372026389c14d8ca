package sichuan

import (
	"errors"
	"fmt"
)

// ErrSituation is what CheckSituation's errors match with errors.Is: the
// flags of a Situation describe a win that cannot happen.
var ErrSituation = errors.New("sichuan: impossible situation")

const (
	flagRinshan uint8 = 1 << iota
	flagAfterKan
	flagChankan
	flagHaiDi
)

// sitProblem is the first thing wrong with a Situation.
type sitProblem uint8

const (
	sitOK sitProblem = iota
	sitTsumoOnly
	sitDiscardOnly
	sitRinshanNoKan
	sitChankanAfterKan
)

var sitMessages = [...]string{
	sitTsumoOnly:       "rinshan and haitei are self-drawn wins",
	sitDiscardOnly:     "after_kan_discard, chankan and houtei are wins on another seat's tile",
	sitRinshanNoKan:    "rinshan needs a kan among the melds",
	sitChankanAfterKan: "a robbed kan is not a discard after a kan",
}

// situation returns the flags of s that can hold for a win of h, and the
// first one that cannot (which is left out).
func situation(h *Hand, s *Situation) (f uint8, problem sitProblem) {
	note := func(p sitProblem) {
		if problem == sitOK {
			problem = p
		}
	}
	kan := false
	for _, m := range h.Melds {
		kan = kan || m.IsKan()
	}
	switch {
	case s.Rinshan && !s.Tsumo:
		note(sitTsumoOnly)
	case s.Rinshan && !kan:
		note(sitRinshanNoKan)
	case s.Rinshan:
		f |= flagRinshan
	}
	switch {
	case s.AfterKanDiscard && s.Tsumo:
		note(sitDiscardOnly)
	case s.AfterKanDiscard && s.Chankan:
		note(sitChankanAfterKan)
	case s.AfterKanDiscard:
		f |= flagAfterKan
	}
	switch {
	case s.Chankan && s.Tsumo:
		note(sitDiscardOnly)
	case s.Chankan:
		f |= flagChankan
	}
	switch {
	case s.Haitei && !s.Tsumo:
		note(sitTsumoOnly)
	case s.Haitei:
		f |= flagHaiDi
	}
	switch {
	case s.Houtei && s.Tsumo:
		note(sitDiscardOnly)
	case s.Houtei:
		f |= flagHaiDi
	}
	return f, problem
}

func flags(h *Hand, s *Situation) uint8 {
	f, _ := situation(h, s)
	return f
}

// CheckSituation reports whether the flags of s can all be true of a win of
// hand h: rinshan (after a kan of the hand's own) and haitei only on a
// self-draw; after_kan_discard, chankan and houtei only on another seat's
// tile, and not after_kan_discard with chankan. A robbed kan on the last
// tile is possible: the model only drops hai_di for it. Score never fails:
// it leaves out the flags this would complain of. The error matches
// ErrSituation.
func CheckSituation(h *Hand, s *Situation) error {
	if _, p := situation(h, s); p != sitOK {
		return fmt.Errorf("%w: %s", ErrSituation, sitMessages[p])
	}
	return nil
}
