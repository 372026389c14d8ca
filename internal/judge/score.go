package judge

import "github.com/mahjong-authority/authority/internal/tile"

// maxYakuLines bounds the lines of a scored hand. Of the 33 yaku and dora
// counts at most 27 can come together (riichi or double riichi, haitei or
// houtei, rinshan or chankan, iipeikou or ryanpeikou, one of chanta, junchan
// and honroutou, honitsu or chinitsu), and at most 10 yakuman.
const maxYakuLines = 27

// Result is a scored win, or why a hand is not one.
type Result struct {
	Win     bool
	Reason  Reason // why not, when Win is false
	Han     int    // dora included; 13 x Yakuman for a yakuman hand
	Fu      int    // 0 for a yakuman hand
	Yakuman int    // yakuman multiples (a double counts 2); 0 if none, and for a counted yakuman
	Limit   Limit
	Base    int     // basic points: fu x 2^(2+han) below the limits; 2000/3000/4000/6000/8000; 8000 x Yakuman
	Pay     Payment // honba included
	Total   int     // everything the winner receives: Pay and riichi sticks x 1000

	yaku  [maxYakuLines]YakuHan
	nYaku int
}

// Yaku returns the lines of the win in the contract's order: the yaku, then
// dora, aka_dora and ura_dora when they count at least one; or the yakuman
// alone. The slice is a view of r's own storage: it costs no allocation and
// is valid as long as r is.
func (r *Result) Yaku() []YakuHan { return r.yaku[:r.nYaku:r.nYaku] }

func (r *Result) addYaku(y Yaku, han int) {
	r.yaku[r.nYaku] = YakuHan{Yaku: y, Han: han}
	r.nYaku++
}

// Score scores a win of hand h (its concealed tiles without the winning
// tile, and its melds) on tile win in situation s under rules r. It reads
// the hand every way it can (every standard reading, seven pairs, thirteen
// orphans) and every place the winning tile can complete, and returns the
// reading that pays most. A hand that is not complete, or has no yaku (dora
// are not a yaku), comes back with Win false and the reason. Flags of s that
// cannot hold for the hand (see CheckSituation) are ignored. Score does not
// allocate.
func Score(h *Hand, win tile.Tile, s *Situation, r *Rules) Result {
	var sc scorer
	best, reason := sc.best(h, win, s, r)
	if reason != ReasonNone {
		return Result{Reason: reason}
	}
	return sc.result(&best, s)
}

// best finds the candidate that pays most, or why there is none.
func (sc *scorer) best(h *Hand, win tile.Tile, s *Situation, r *Rules) (candidate, Reason) {
	var best candidate
	if !sc.init(h, win, s, r) {
		return best, NotComplete
	}
	var g readingGen
	g.run(&sc.c)
	complete := g.n > 0
	for i := range g.out[:g.n] {
		sc.reading(&g.out[i], &best)
	}
	if sc.nMelds == 0 {
		if isSevenPairs(&sc.c) {
			complete = true
			if sc.yakuman != 0 {
				sc.considerYakuman(sc.yakuman, &best)
			} else {
				sc.consider(sc.handBits|yakuBit(Chiitoitsu), sc.handHan+hanOf(Chiitoitsu, true, r), 25, 25, &best)
			}
		}
		if isThirteenOrphans(&sc.c) {
			complete = true
			y := yakuBit(Kokushi)
			if sc.c[sc.win] == 2 { // the 13 before the win held every kind
				y = yakuBit(Kokushi13)
			}
			sc.considerYakuman(sc.yakuman|y, &best)
		}
	}
	switch {
	case !complete:
		return best, NotComplete
	case best.base == 0:
		return best, NoYaku
	}
	return best, ReasonNone
}

// scorer holds what a hand's candidates share: the tiles, the melds
// digested, the yaku that do not depend on the reading, the dora.
type scorer struct {
	rules       *Rules
	tsumo       bool
	closed      bool // no open meld (closed kans keep a hand closed)
	dealer      bool
	win         tile.Kind
	seat, round tile.Kind
	c           tile.Counts  // concealed tiles and the winning tile
	kinds       tile.KindSet // every kind of the hand, melds included
	honorTrips  tile.KindSet // honour triplets and kans, concealed or declared

	nMelds, kans, closedKans int
	meldRuns                 int
	meldRunMask              uint32 // the lowest kind of each chi
	meldTripMask             uint32 // number kinds of pons and kans
	meldFu                   int
	meldYaochu               bool // every meld holds a terminal or an honour
	winFu                    int  // closed ron 10, tsumo 2

	handBits uint64 // yaku that hold in every reading
	handHan  int
	yakuman  uint64 // yakuman that hold in every reading

	dora, aka, ura int
}

// init digests the hand. It reports false when the tiles cannot be a win
// at all: the wrong number of tiles for the melds, a tile that is not a
// playing kind, a malformed meld.
func (sc *scorer) init(h *Hand, win tile.Tile, s *Situation, r *Rules) bool {
	nm := len(h.Melds)
	if nm > 4 || len(h.Concealed)+1 != 14-3*nm {
		return false
	}
	sc.rules = r
	sc.tsumo = s.Tsumo
	sc.dealer = s.Dealer()
	sc.win = win.Kind()
	sc.seat = s.SeatWind.Kind()
	sc.round = s.RoundWind.Kind()
	sc.nMelds = nm
	sc.closed = true
	sc.meldYaochu = true
	if sc.win >= tile.NumKinds {
		return false
	}
	aka := 0
	sc.c[sc.win]++
	if win.Red() {
		aka++
	}
	for _, t := range h.Concealed {
		k := t.Kind()
		if k >= tile.NumKinds {
			return false
		}
		sc.c[k]++
		if t.Red() {
			aka++
		}
	}
	all := sc.c // with the melds' tiles, for dora
	for i := range h.Melds {
		m := &h.Melds[i]
		k := m.Tiles[0].Kind()
		if k >= tile.NumKinds {
			return false
		}
		switch m.Type {
		case Chi:
			if !canStartRun(k) || m.Tiles[1].Kind() != k+1 || m.Tiles[2].Kind() != k+2 {
				return false
			}
			sc.meldRuns++
			sc.meldRunMask |= 1 << k
			sc.meldYaochu = sc.meldYaochu && (k%9 == 0 || k%9 == 6)
		case Pon, OpenKan, AddedKan, ClosedKan:
			for _, t := range m.Tiles[1:m.Len()] {
				if t.Kind() != k {
					return false
				}
			}
			if k < 27 {
				sc.meldTripMask |= 1 << k
			} else {
				sc.honorTrips = sc.honorTrips.With(k)
			}
			// Pon 2, x2 for a terminal or honour, x4 for a kan, x2 closed.
			fu := 2
			if k.IsYaochu() {
				fu *= 2
			}
			if m.IsKan() {
				fu *= 4
				sc.kans++
			}
			if m.Type == ClosedKan {
				fu *= 2
				sc.closedKans++
			}
			sc.meldFu += fu
			sc.meldYaochu = sc.meldYaochu && k.IsYaochu()
		default:
			return false
		}
		sc.closed = sc.closed && !m.Open()
		for _, t := range m.Tiles[:m.Len()] {
			all[t.Kind()]++
			sc.kinds = sc.kinds.With(t.Kind())
			if t.Red() {
				aka++
			}
		}
	}
	sc.kinds |= sc.c.Kinds()
	for k := tile.East; k < tile.NumKinds; k++ {
		if sc.c[k] >= 3 {
			sc.honorTrips = sc.honorTrips.With(k)
		}
	}
	switch {
	case sc.closed && !sc.tsumo:
		sc.winFu = 10
	case sc.tsumo:
		sc.winFu = 2
	}

	flags, _ := situationFlags(h, s)
	sc.handYaku(flags)
	if r.AkaDora {
		sc.aka = aka
	}
	sc.dora = countDora(&all, s.DoraIndicators)
	if flags&flagRiichi != 0 {
		sc.ura = countDora(&all, s.UraIndicators)
	}
	return true
}

// countDora counts the tiles of all that the indicators point at; every
// indicator counts, so a kind shown twice counts twice.
func countDora(all *tile.Counts, indicators []tile.Tile) int {
	n := 0
	for _, t := range indicators {
		if k := t.Kind(); k < tile.NumKinds {
			n += int(all[k.DoraAfter()])
		}
	}
	return n
}

// candidate is one scored reading.
type candidate struct {
	bits    uint64 // yaku or yakuman
	han     int    // dora included
	rawFu   int    // fu before rounding, for tests
	fu      int
	yakuman int
	limit   Limit
	base    int // 0 when nothing was a win
}

// better reports whether c pays more than o: more basic points, then a
// real yakuman over a counted one, then more han, then more fu.
func (c *candidate) better(o *candidate) bool {
	if c.base != o.base {
		return c.base > o.base
	}
	if c.yakuman != o.yakuman {
		return c.yakuman > o.yakuman
	}
	if c.han != o.han {
		return c.han > o.han
	}
	return c.fu > o.fu
}

// consider offers a reading with yaku bits worth han (dora not included)
// and fu (rawFu before rounding). Without a yaku it is not a win.
func (sc *scorer) consider(bits uint64, han, rawFu, fu int, best *candidate) {
	if han == 0 {
		return
	}
	han += sc.dora + sc.aka + sc.ura
	c := candidate{bits: bits, han: han, rawFu: rawFu, fu: fu}
	c.limit, c.base = limitBase(han, fu, sc.rules)
	if c.better(best) {
		*best = c
	}
}

// considerYakuman offers a reading with the yakuman of y.
func (sc *scorer) considerYakuman(y uint64, best *candidate) {
	n := sc.yakumanCount(y)
	c := candidate{bits: y, han: 13 * n, yakuman: n, limit: Yakuman, base: yakumanBase * n}
	if c.better(best) {
		*best = c
	}
}

// result writes out the best candidate.
func (sc *scorer) result(c *candidate, s *Situation) Result {
	res := Result{Win: true, Han: c.han, Fu: c.fu, Yakuman: c.yakuman, Limit: c.limit, Base: c.base}
	if c.yakuman > 0 {
		res.Fu = 0
		top := 0 // without stacking only the largest yakuman is listed
		for y := Kokushi; y < numYaku; y++ {
			if c.bits&yakuBit(y) == 0 {
				continue
			}
			m := yakumanMultiple(y, sc.rules)
			switch {
			case sc.rules.StackYakuman:
				res.addYaku(y, 13*m)
			case m > top:
				top = m
				res.nYaku = 0
				res.addYaku(y, 13*m)
			}
		}
	} else {
		for y := Riichi; y < Dora; y++ {
			if c.bits&yakuBit(y) != 0 {
				res.addYaku(y, hanOf(y, sc.closed, sc.rules))
			}
		}
		for _, d := range [...]struct {
			y Yaku
			n int
		}{{Dora, sc.dora}, {AkaDora, sc.aka}, {UraDora, sc.ura}} {
			if d.n > 0 {
				res.addYaku(d.y, d.n)
			}
		}
	}
	honba := max(s.Honba, 0)
	res.Pay = Pay(res.Base, sc.dealer, sc.tsumo, honba)
	res.Total = res.Pay.Received(sc.dealer) + 1000*max(s.RiichiSticks, 0)
	return res
}
