package judge

import (
	"errors"
	"fmt"
)

// ErrSituation is what CheckSituation's errors match with errors.Is: the
// flags of a Situation describe a win that cannot happen.
var ErrSituation = errors.New("judge: impossible situation")

// sitProblem is the first thing wrong with a Situation, kept as a small
// value so that Score can sanitise flags without building an error.
type sitProblem uint8

const (
	sitOK sitProblem = iota
	sitOpenRiichi
	sitIppatsuNoRiichi
	sitIppatsuRinshan
	sitTsumoOnly // haitei or rinshan on a ron
	sitRonOnly   // houtei or chankan on a tsumo
	sitRinshanNoKan
	sitHaiteiRinshan
	sitHouteiChankan
	sitTenhou
	sitChiihou
	sitFirstDrawRiichi
	sitWind
	sitNegative
)

var sitMessages = [...]string{
	sitOpenRiichi:      "riichi needs a closed hand",
	sitIppatsuNoRiichi: "ippatsu needs riichi",
	sitIppatsuRinshan:  "ippatsu cannot come with rinshan: the kan ends it",
	sitTsumoOnly:       "haitei and rinshan are tsumo wins",
	sitRonOnly:         "houtei and chankan are ron wins",
	sitRinshanNoKan:    "rinshan needs a kan",
	sitHaiteiRinshan:   "the replacement tile after a kan is not haitei",
	sitHouteiChankan:   "a robbed kan is not the last discard",
	sitTenhou:          "tenhou is the dealer's tsumo with no call",
	sitChiihou:         "chiihou is a non-dealer's tsumo with no call",
	sitFirstDrawRiichi: "tenhou and chiihou come before any riichi",
	sitWind:            "wind out of range",
	sitNegative:        "honba and riichi sticks cannot be negative",
}

// The flags of a situation that count, as bits.
const (
	flagRiichi uint16 = 1 << iota
	flagDoubleRiichi
	flagIppatsu
	flagHaitei
	flagHoutei
	flagRinshan
	flagChankan
	flagTenhou
	flagChiihou
)

// situationFlags returns the situational flags that can be true of a win of
// hand h, and the first one that cannot (which is then left out). Score
// counts only what it returns, so an impossible flag never scores.
func situationFlags(h *Hand, s *Situation) (flags uint16, problem sitProblem) {
	note := func(p sitProblem) {
		if problem == sitOK {
			problem = p
		}
	}
	closed, kan := true, false
	for i := range h.Melds {
		closed = closed && !h.Melds[i].Open()
		kan = kan || h.Melds[i].IsKan()
	}
	if s.SeatWind > 3 || s.RoundWind > 3 {
		note(sitWind)
	}
	if s.Honba < 0 || s.RiichiSticks < 0 {
		note(sitNegative)
	}
	riichi := s.Riichi || s.DoubleRiichi
	switch {
	case riichi && !closed:
		note(sitOpenRiichi)
		riichi = false
	case s.DoubleRiichi:
		flags |= flagRiichi | flagDoubleRiichi
	case riichi:
		flags |= flagRiichi
	}
	switch {
	case s.Ippatsu && !riichi:
		note(sitIppatsuNoRiichi)
	case s.Ippatsu && s.Rinshan:
		note(sitIppatsuRinshan)
	case s.Ippatsu:
		flags |= flagIppatsu
	}
	switch {
	case s.Rinshan && !s.Tsumo:
		note(sitTsumoOnly)
	case s.Rinshan && !kan:
		note(sitRinshanNoKan)
	case s.Rinshan:
		flags |= flagRinshan
	}
	switch {
	case s.Haitei && !s.Tsumo:
		note(sitTsumoOnly)
	case s.Haitei && s.Rinshan:
		note(sitHaiteiRinshan)
	case s.Haitei:
		flags |= flagHaitei
	}
	switch {
	case s.Chankan && s.Tsumo:
		note(sitRonOnly)
	case s.Chankan:
		flags |= flagChankan
	}
	switch {
	case s.Houtei && s.Tsumo:
		note(sitRonOnly)
	case s.Houtei && s.Chankan:
		note(sitHouteiChankan)
	case s.Houtei:
		flags |= flagHoutei
	}
	first := s.Tsumo && len(h.Melds) == 0
	switch {
	case s.Tenhou && (!first || !s.Dealer()):
		note(sitTenhou)
	case s.Tenhou:
		flags |= flagTenhou
	}
	switch {
	case s.Chiihou && (!first || s.Dealer()):
		note(sitChiihou)
	case s.Chiihou:
		flags |= flagChiihou
	}
	if (s.Tenhou || s.Chiihou) && riichi {
		note(sitFirstDrawRiichi)
	}
	return flags, problem
}

// CheckSituation reports whether the flags of s can all be true of a win of
// hand h: riichi and ippatsu only on a closed hand, haitei and rinshan only
// on a tsumo (rinshan after a kan), houtei and chankan only on a ron, tenhou
// only for the dealer and chiihou only for the others, on a tsumo with no
// call. Score never fails: it leaves out the flags this would complain of.
// The error matches ErrSituation.
func CheckSituation(h *Hand, s *Situation) error {
	if _, p := situationFlags(h, s); p != sitOK {
		return fmt.Errorf("%w: %s", ErrSituation, sitMessages[p])
	}
	return nil
}
