package classical

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Score scores a win of hand h (its concealed tiles without the winning
// tile, its melds, its bonus tiles) on tile win in situation s under
// rules r.
//
// A hand that is neither four sets and a pair nor a special hand is
// refused with NotComplete, as is one with the wrong number of tiles for
// its melds, more than four of a kind, or a meld or tile that is no
// classical one. Every reading of the hand as sets and a pair is scored,
// with the winning tile in every place it fits (a pung completed by a
// discard is exposed; in the pair or a chow it changes no points), and the
// best is reported; a special hand pays its fixed share of the limit
// instead when that is at least as much. Flags of s that cannot hold for
// the hand (see CheckSituation) are left out. A limit that is not one of
// Limits is treated as the default's. Score does not allocate.
func Score(h *Hand, win tile.Kind, s *Situation, r *Rules) Result {
	nm := len(h.Melds)
	if nm > 4 || win >= tile.NumKinds || h.Concealed.Total() != 13-3*nm {
		return Result{Reason: NotComplete}
	}
	all := h.Concealed
	all[win]++
	c := all
	for _, m := range h.Melds {
		if !m.valid() {
			return Result{Reason: NotComplete}
		}
		if m.Type == Chow {
			all[m.Kind]++
			all[m.Kind+1]++
			all[m.Kind+2]++
		} else {
			all[m.Kind] += uint8(m.Len())
		}
	}
	for _, n := range all {
		if n > 4 {
			return Result{Reason: NotComplete}
		}
	}
	limit := r.Limit
	if !ValidLimit(limit) {
		limit = Default.Limit
	}

	var res Result
	if nm == 0 {
		res.Special = SpecialOf(&c)
		res.Limits = res.Special.Limits()
	}
	var buf [4]judge.Reading
	readings := judge.Readings(&c, buf[:0])
	if len(readings) == 0 && res.Special == NoSpecial {
		return Result{Reason: NotComplete}
	}
	res.Win = true

	f := flags(h, s)
	var hand tally
	hand.handWide(h, &all, s, f)

	best, bestRaw := -1, -1
	for i := range readings {
		rd := &readings[i]
		// Where the winning tile can go: into the pair or a run (every
		// set concealed), or, on a discard, into a triplet of its kind,
		// which is then exposed.
		inRun := false
		hasTriplet := false
		for _, g := range rd.Groups[:rd.N] {
			inRun = inRun || (g.Type == judge.Run && win >= g.Kind && win <= g.Kind+2)
			hasTriplet = hasTriplet || (g.Type == judge.Triplet && g.Kind == win)
		}
		for _, exposeWin := range [2]bool{false, true} {
			if exposeWin && (f&flagTsumo != 0 || !hasTriplet) {
				continue
			}
			if !exposeWin && !inRun && rd.Pair != win && f&flagTsumo == 0 {
				continue // on a discard the tile must go somewhere
			}
			if !exposeWin && !inRun && rd.Pair != win && !hasTriplet {
				continue
			}
			t := hand
			t.reading(rd, win, exposeWin, s)
			score, raw := t.value(limit)
			if score > best || (score == best && raw > bestRaw) {
				best, bestRaw = score, raw
				res.setLines(&t)
				res.Ordinary = score
				res.LimitReached = raw > limit
			}
		}
	}
	res.Score = res.Ordinary
	if v := res.Limits * limit; res.Special != NoSpecial && v >= res.Ordinary {
		res.Score = v
		res.AsSpecial = true
	}
	return res
}

// tally counts each item of one reading of a hand.
type tally struct {
	n     [numItems]int
	chows bool
}

// handWide counts the items that do not depend on the reading of the
// concealed tiles: going Mah Jong, self-draw, bonus tiles, the melds, the
// colour of the hand and the situation's doubles.
func (t *tally) handWide(h *Hand, all *tile.Counts, s *Situation, f uint8) {
	t.n[MahJong] = 1
	if f&flagTsumo != 0 {
		t.n[SelfDrawn] = 1
	}
	for _, m := range h.Melds {
		if m.Type == Chow {
			t.chows = true
			continue
		}
		t.set(m.Kind, m.Type != Pung, m.Type == ConcealedKong, s)
	}
	b := h.Bonus
	for i := 0; i < 8; i++ {
		if b&(1<<i) != 0 {
			t.n[BonusTile]++
		}
	}
	seat := uint(s.SeatWind & 3)
	if b&(1<<seat) != 0 {
		t.n[OwnFlower] = 1
	}
	if b&(1<<(4+seat)) != 0 {
		t.n[OwnSeason] = 1
	}
	if b&0x0f == 0x0f {
		t.n[AllFlowers] = 1
	}
	if b&0xf0 == 0xf0 {
		t.n[AllSeasons] = 1
	}

	var suits [3]bool
	honours, major := false, true
	for k, n := range all {
		if n == 0 {
			continue
		}
		kind := tile.Kind(k)
		switch {
		case kind.IsHonor():
			honours = true
		default:
			suits[k/9] = true
			major = major && kind.IsTerminal()
		}
	}
	nSuits := 0
	for _, held := range suits {
		if held {
			nSuits++
		}
	}
	switch {
	case nSuits == 1 && honours:
		t.n[OneSuitWithHonours] = 1
	case nSuits == 1:
		t.n[OneSuit] = 1
	}
	if major {
		t.n[TerminalsAndHonours] = 1
	}
	if f&flagLast != 0 {
		t.n[LastTile] = 1
	}
	if f&flagRinshan != 0 {
		t.n[SupplementalTile] = 1
	}
	if f&flagChankan != 0 {
		t.n[RobbingTheKong] = 1
	}
	if s.OriginalCall {
		t.n[OriginalCall] = 1
	}
}

// set counts a pung (or a kong) of kind k, exposed or concealed, and the
// doubles of a dragon or wind pung.
func (t *tally) set(k tile.Kind, kong, concealed bool, s *Situation) {
	major := k.IsHonor() || k.IsTerminal()
	it := ExposedMinorPung
	if major {
		it = ExposedMajorPung
	}
	if kong {
		it += ExposedMinorKong - ExposedMinorPung
	}
	if concealed {
		it++ // each concealed item follows its exposed one
	}
	t.n[it]++
	switch {
	case k.IsDragon():
		t.n[DragonPung]++
	case k.IsWind():
		if k == s.SeatWind.Kind() {
			t.n[SeatWindPung]++
		}
		if k == s.RoundWind.Kind() {
			t.n[RoundWindPung]++
		}
	}
}

// reading adds the concealed sets and the pair of reading rd; the triplet
// of the winning kind is exposed when exposeWin says the discard
// completed it.
func (t *tally) reading(rd *judge.Reading, win tile.Kind, exposeWin bool, s *Situation) {
	exposed := exposeWin
	for _, g := range rd.Groups[:rd.N] {
		if g.Type == judge.Run {
			t.chows = true
			continue
		}
		concealed := !(exposed && g.Kind == win)
		if !concealed {
			exposed = false // one triplet takes the tile
		}
		t.set(g.Kind, false, concealed, s)
	}
	switch p := rd.Pair; {
	case p.IsDragon():
		t.n[DragonPair] = 1
	case p.IsWind():
		if p == s.SeatWind.Kind() {
			t.n[SeatWindPair] = 1
		}
		if p == s.RoundWind.Kind() {
			t.n[RoundWindPair] = 1
		}
	}
	if !t.chows {
		t.n[NoChows] = 1
	}
}

// maxDoubles bounds the doubling so that the raw score cannot overflow;
// any hand with so many is far past every limit.
const maxDoubles = 30

// value returns the reading's score capped at limit, and uncapped.
func (t *tally) value(limit int) (score, raw int) {
	base, doubles := 0, 0
	for it := Item(1); it < numItems; it++ {
		if it.IsDouble() {
			doubles += t.n[it] * it.Value()
		} else {
			base += t.n[it] * it.Value()
		}
	}
	raw = base << min(doubles, maxDoubles)
	return min(raw, limit), raw
}

// setLines makes the lines of r those of t.
func (r *Result) setLines(t *tally) {
	r.nLines, r.Base, r.Doubles = 0, 0, 0
	for it := Item(1); it < numItems; it++ {
		r.add(it, t.n[it])
	}
}

// ErrSituation is what CheckSituation's errors match with errors.Is: the
// flags of a Situation describe a win that cannot happen.
var ErrSituation = errors.New("classical: impossible situation")

const (
	flagTsumo uint8 = 1 << iota
	flagRinshan
	flagChankan
	flagLast
)

// flags returns the flags of s that can hold for a win of h, and what is
// wrong with the first one that cannot (which is left out).
func situation(h *Hand, s *Situation) (f uint8, problem string) {
	note := func(p string) {
		if problem == "" {
			problem = p
		}
	}
	if s.Tsumo {
		f |= flagTsumo
	}
	kong := false
	for _, m := range h.Melds {
		kong = kong || m.Type == Kong || m.Type == ConcealedKong
	}
	switch {
	case s.Rinshan && !s.Tsumo:
		note("rinshan (the supplemental tile) is a self-drawn win")
	case s.Rinshan && !kong:
		note("rinshan needs a kong among the melds")
	case s.Rinshan:
		f |= flagRinshan
	}
	switch {
	case s.Chankan && s.Tsumo:
		note("chankan (robbing the kong) is a win on another seat's tile")
	case s.Chankan:
		f |= flagChankan
	}
	switch {
	case s.Haitei && !s.Tsumo:
		note("haitei (the last tile of the wall) is a self-drawn win")
	case s.Haitei:
		f |= flagLast
	}
	switch {
	case s.Houtei && s.Tsumo:
		note("houtei (the last discard) is a win on another seat's tile")
	case s.Houtei && s.Chankan:
		note("a robbed kong is not the last discard")
	case s.Houtei:
		f |= flagLast
	}
	return f, problem
}

func flags(h *Hand, s *Situation) uint8 {
	f, _ := situation(h, s)
	return f
}

// CheckSituation reports whether the flags of s can all be true of a win
// of hand h: rinshan (after a kong of the hand's own) and haitei only on
// a self-draw, chankan and houtei only on another seat's tile, and not
// both. Score never fails: it leaves out the flags this would complain
// of. The error matches ErrSituation.
func CheckSituation(h *Hand, s *Situation) error {
	if _, p := situation(h, s); p != "" {
		return fmt.Errorf("%w: %s", ErrSituation, p)
	}
	return nil
}
