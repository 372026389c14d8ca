package mcr

import (
	"slices"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Situation is everything about an MCR win that is not the tiles.
type Situation struct {
	Tsumo bool // self-drawn; false is a win on a discard
	// LastTile (和绝张): the other three copies of the winning tile are
	// already visible. It does not count when the concealed hand holds a
	// copy, and always counts when a melded pung holds the other three.
	LastTile bool
	Rinshan  bool // 杠上开花: self-drawn on a kong's replacement
	Chankan  bool // 抢杠和: robbed an added kong
	Haitei   bool // 妙手回春: self-drawn last tile of the wall
	Houtei   bool // 海底捞月: won on the last discard

	SeatWind  tile.Wind
	RoundWind tile.Wind // the prevalent wind

	Flowers int // flowers and seasons set aside: 1 point each, not toward the minimum
}

// Result is a scored hand, or a hand that is not complete (Win false).
type Result struct {
	Win bool
	// Total is the sum of the fans' points, flowers included;
	// TotalWithoutFlowers leaves them out, and decides the minimum.
	Total               int
	TotalWithoutFlowers int
	MeetsMinimum        bool // TotalWithoutFlowers >= MinimumFan

	fans  [maxLines]FanCount
	nFans int
}

// maxLines bounds the fans of one hand: far more than the exclusion rules
// leave together (the fuzz test checks that no hand comes near it).
const maxLines = 32

// Fans returns the fans of the win in the rule book's order, each with its
// count and points. The slice is a view of r's own storage: it costs no
// allocation and is valid as long as r is.
func (r *Result) Fans() []FanCount { return r.fans[:r.nFans:r.nFans] }

// Count is how many times fan f counts in r (0 when it does not).
func (r *Result) Count(f Fan) int {
	for _, l := range r.Fans() {
		if l.Fan == f {
			return l.Count
		}
	}
	return 0
}

// fanTable counts the fans of one decomposition of a hand.
type fanTable [NumFans + 1]int8

func (t *fanTable) total() int {
	n := 0
	for f, v := range t {
		if v != 0 {
			n += int(v) * int(fanValue[f])
		}
	}
	return n
}

// fanValue is Fan.Value as a compact array, for the scorer's inner loops.
var fanValue = func() (v [NumFans + 1]int8) {
	for f := range v {
		v[f] = fanInfo[f].value
	}
	return v
}()

func (t *fanTable) empty() bool { return *t == fanTable{} }

// Score scores a win of hand h (its concealed tiles without the winning
// tile, and its melds) on tile win in situation s. It tries every reading
// of the hand as sets and a pair and the special forms (seven pairs,
// seven shifted pairs, thirteen orphans, honours and knitted tiles, the
// knitted straight with a set and a pair, nine gates) and returns the
// one worth most. A hand that is not complete, or of the wrong size (13
// tiles less 3 per meld), comes back with Win false. Flags of s that
// cannot hold are dropped the way the rule book's practice does: a last
// tile when the hand holds a copy, a replacement win with no kong, a
// robbed kong of a tile the hand holds. Score does not allocate.
func Score(h *judge.Hand, win tile.Tile, s *Situation) Result {
	var sc scorer
	if !sc.init(h, win, s) {
		return Result{}
	}
	var t fanTable
	if !sc.best(&t) {
		return Result{}
	}
	flowers := max(0, min(s.Flowers, MaxFlowers))
	t[FlowerTiles] = int8(flowers)
	r := Result{Win: true}
	for f := Fan(1); int(f) <= NumFans && r.nFans < maxLines; f++ {
		if n := int(t[f]); n != 0 {
			p := n * f.Value()
			r.fans[r.nFans] = FanCount{Fan: f, Count: n, Points: p}
			r.nFans++
			r.Total += p
		}
	}
	r.TotalWithoutFlowers = r.Total - flowers
	r.MeetsMinimum = r.TotalWithoutFlowers >= MinimumFan
	return r
}

type packType uint8

const (
	packChow packType = iota + 1
	packPung
	packKong
	packPair
)

// pack is a set or the pair of a decomposition. A chow is named by its
// middle tile.
type pack struct {
	typ    packType
	t      code
	melded bool // claimed from a discard (a closed kong is not)
}

// scorer is one hand being scored.
type scorer struct {
	stand  codeCounts // the concealed tiles and the winning tile
	fixed  codeCounts // the tiles of the melds
	kinds  tile.Counts
	melds  [4]pack
	nMelds int
	nStand int // concealed tiles without the winning tile
	win    code
	winK   tile.Kind

	selfDrawn, lastTile, kong, wallLast bool
	seat, round                         code

	uniq  [18]code // the kinds in the hand, melds included, in code order
	nUniq int

	skipRule int // 1 + the index of an exclusion rule to leave out; 0 for none (tests)

	// What every reading shares, worked out once: the fans of the kinds
	// of tile (suits, ranges, simples...) and the kinds held four times.
	traits  [8]fanCount8
	nTraits int
	hogs    int8
}

type fanCount8 struct {
	fan Fan
	n   int8
}

// readingTraits fills sc.traits and sc.hogs.
func (sc *scorer) readingTraits() {
	var t fanTable
	sc.tileTraits(&t)
	for _, f := range traitFans {
		if t[f] != 0 && sc.nTraits < len(sc.traits) {
			sc.traits[sc.nTraits] = fanCount8{f, t[f]}
			sc.nTraits++
		}
	}
	for _, c := range sc.uniq[:sc.nUniq] {
		if sc.stand[c]+sc.fixed[c] == 4 {
			sc.hogs++
		}
	}
}

// traitFans are the fans tileTraits can count.
var traitFans = [...]Fan{
	AllGreen, AllTerminals, AllHonors, AllTerminalsAndHonors, FullFlush, UpperTiles, MiddleTiles, LowerTiles,
	UpperFour, LowerFour, ReversibleTiles, HalfFlush, AllTypes, AllSimples, OneVoidedSuit, NoHonors,
}

func (sc *scorer) init(h *judge.Hand, win tile.Tile, s *Situation) bool {
	if len(h.Melds) > 4 || len(h.Concealed)+3*len(h.Melds) != 13 || win.Kind() >= tile.NumKinds {
		return false
	}
	for _, t := range h.Concealed {
		k := t.Kind()
		if k >= tile.NumKinds {
			return false
		}
		sc.stand[codeOf(k)]++
		sc.kinds[k]++
	}
	sc.winK = win.Kind()
	sc.win = codeOf(sc.winK)
	sc.stand[sc.win]++
	sc.kinds[sc.winK]++
	sc.nStand = len(h.Concealed)
	anyKong := false
	for i := range h.Melds {
		m := &h.Melds[i]
		k := m.Kind()
		if k >= tile.NumKinds || m.Type == 0 || m.Type > judge.ClosedKan {
			return false
		}
		c := codeOf(k)
		p := pack{t: c, melded: m.Open()}
		switch {
		case m.Type == judge.Chi:
			if k.IsHonor() || k.Number() > 7 {
				return false
			}
			p.typ, p.t = packChow, c+1
			sc.fixed[c]++
			sc.fixed[c+1]++
			sc.fixed[c+2]++
		case m.IsKan():
			p.typ = packKong
			sc.fixed[c] += 4
			anyKong = true
		default:
			p.typ = packPung
			sc.fixed[c] += 3
		}
		sc.melds[sc.nMelds] = p
		sc.nMelds++
	}
	for _, c := range codeOrder {
		if n := sc.stand[c] + sc.fixed[c]; n > 4 {
			return false
		} else if n != 0 {
			sc.uniq[sc.nUniq] = c
			sc.nUniq++
		}
	}
	sc.seat = codeOf(s.SeatWind.Kind())
	sc.round = codeOf(s.RoundWind.Kind())

	sc.selfDrawn = s.Tsumo
	sc.kong = s.Rinshan || s.Chankan
	sc.wallLast = s.Haitei || s.Houtei
	// The last tile of its kind cannot be one the hand holds another copy
	// of, and always is when a melded pung holds the other three.
	sc.lastTile = s.LastTile && sc.stand[sc.win] == 1
	if sc.fixed[sc.win] == 3 {
		sc.lastTile = true
	}
	switch {
	case sc.kong && sc.selfDrawn && !anyKong:
		sc.kong = false // no kong, so no replacement tile
	case sc.kong && !sc.selfDrawn && (sc.fixed[sc.win] != 0 || sc.stand[sc.win] != 1):
		sc.kong = false // nobody else can have held four of the tile
	}
	return true
}

// best fills t with the fans of the decomposition worth most and reports
// whether the hand is complete at all.
func (sc *scorer) best(t *fanTable) bool {
	special := false
	switch sc.nMelds {
	case 0:
		special = sc.specialForm(t) || sc.knitted(t) || sc.nineGates(t)
	case 1:
		special = sc.knitted(t)
	}
	best := 0
	if special {
		best = t.total()
	}
	// Seven pairs are also read as sets, which can be worth more.
	if best != 0 && t[SevenPairs] == 0 {
		return true
	}
	sevenPairs := t[SevenPairs] != 0
	unique := sc.uniqueWait()
	sc.readingTraits()
	var rb [4]judge.Reading
	rs := judge.Readings(&sc.kinds, rb[:0])
	var order [4]int
	for i := range rs {
		order[i] = i
	}
	// The readings in the order of their sets by code; an even score
	// keeps the first, unless a later one has a pure triple chow or a
	// triple pung, or the rival is seven pairs.
	ord := order[:len(rs)]
	slices.SortFunc(ord, func(a, b int) int { return compareReadings(&rs[a], &rs[b]) })
	var cur fanTable
	for _, i := range ord {
		cur = fanTable{}
		sc.regular(&rs[i], unique, &cur)
		n := cur.total()
		if n > best || (n == best && n != 0 && (cur[PureTripleChow] == 1 || sevenPairs || cur[TriplePung] != 0)) {
			best = n
			*t = cur
		}
	}
	return best != 0
}

// readingKey is a reading's sets as codes of their lowest tile, a pung
// before a chow of the same tile, in order.
func readingKey(r *judge.Reading) (key [4]uint16) {
	for i, g := range r.Groups[:r.N] {
		v := uint16(codeOf(g.Kind)) << 1
		if g.Type == judge.Run {
			v |= 1
		}
		key[i] = v
	}
	slices.Sort(key[:r.N])
	return key
}

func compareReadings(a, b *judge.Reading) int {
	ka, kb := readingKey(a), readingKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			if ka[i] < kb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// uniqueWait reports whether the hand without its winning tile waited on
// one kind only, counting the standard form and seven pairs.
func (sc *scorer) uniqueWait() bool {
	c := sc.kinds
	c[sc.winK]--
	w := judge.Waits(&c)
	if sc.nStand == 13 {
		w |= sevenPairsWait(&c)
	}
	return w.Len() == 1
}

// sevenPairsWait is the wait of 13 tiles that are six pairs (four of a
// kind are two) and one more tile: that tile's kind.
func sevenPairsWait(c *tile.Counts) tile.KindSet {
	pairs := 0
	odd := -1
	for k, n := range c {
		pairs += int(n / 2)
		if n&1 != 0 && odd < 0 {
			odd = k
		}
	}
	if pairs != 6 || odd < 0 {
		return 0
	}
	return tile.SetOf(tile.Kind(odd))
}

// winFlags counts the fans of how the hand was won.
func (sc *scorer) winFlags(t *fanTable) {
	if sc.lastTile {
		t[LastTile] = 1
	}
	if sc.selfDrawn {
		t[SelfDrawn] = 1
		if sc.wallLast {
			t[LastTileDraw] = 1
			t[SelfDrawn] = 0
		}
		if sc.kong {
			t[OutWithReplacementTile] = 1
			t[SelfDrawn] = 0
		}
		return
	}
	if sc.wallLast {
		t[LastTileClaim] = 1
	}
	if sc.kong {
		t[RobbingTheKong] = 1
		t[LastTile] = 0
	}
}

// regular scores one reading: the melds, the reading's concealed sets and
// its pair.
func (sc *scorer) regular(r *judge.Reading, unique bool, t *fanTable) {
	var packs [5]pack
	n := copy(packs[:], sc.melds[:sc.nMelds])
	for _, g := range r.Groups[:r.N] {
		c := codeOf(g.Kind)
		if g.Type == judge.Run {
			packs[n] = pack{typ: packChow, t: c + 1}
		} else {
			packs[n] = pack{typ: packPung, t: c}
		}
		n++
	}
	packs[4] = pack{typ: packPair, t: codeOf(r.Pair)}
	pair := packs[4].t

	var chows, pungs [4]code
	nc, np := 0, 0
	concealedPungs, meldedKongs, concealedKongs := 0, 0, 0
	for _, p := range packs[:4] {
		switch p.typ {
		case packChow:
			chows[nc] = p.t
			nc++
		case packPung:
			pungs[np] = p.t
			np++
			if !p.melded {
				concealedPungs++
			}
		case packKong:
			pungs[np] = p.t
			np++
			if p.melded {
				meldedKongs++
			} else {
				concealedKongs++
			}
		}
	}

	sc.winFlags(t)

	// A pung completed by a discard is melded, unless the winning tile
	// can be read into a concealed chow instead.
	if !sc.selfDrawn {
		inChow := false
		for _, p := range packs[sc.nMelds:4] {
			if p.typ == packChow && (p.t-1 == sc.win || p.t == sc.win || p.t+1 == sc.win) {
				inChow = true
			}
		}
		if !inChow {
			for _, p := range packs[sc.nMelds:4] {
				if p.typ == packPung && p.t == sc.win {
					concealedPungs--
				}
			}
		}
	}

	if np != 0 {
		kongFans(concealedPungs, meldedKongs, concealedKongs, t)
		if np == 4 && t[FourKongs] == 0 && t[FourConcealedPungs] == 0 {
			t[AllPungs] = 1
		}
		for _, c := range pungs[:np] {
			if f := onePungFan(c); f != 0 {
				t[f]++
			}
		}
	}

	switch nc {
	case 4:
		if threeSuitedTerminalChows(&chows, pair) {
			t[ThreeSuitedTerminalChows] = 1
			break
		}
		if pureTerminalChows(&chows, pair) {
			t[PureTerminalChows] = 1
			break
		}
		m := chows
		sortCodes(m[:])
		fourChows(&m, t)
	case 3:
		m := [3]code{chows[0], chows[1], chows[2]}
		sortCodes(m[:])
		threeChows(&m, t)
	case 2:
		if f := twoChowsFan(chows[0], chows[1]); f != 0 {
			t[f]++
		}
		if f := twoPungsFan(pungs[0], pungs[1]); f != 0 {
			t[f]++
		}
	case 1:
		m := [3]code{pungs[0], pungs[1], pungs[2]}
		sortCodes(m[:])
		threePungs(&m, t)
	case 0:
		m := pungs
		sortCodes(m[:])
		fourPungs(&m, t)
	}

	// Concealed or melded hand.
	melded := 0
	for _, p := range sc.melds[:sc.nMelds] {
		if p.melded {
			melded++
		}
	}
	switch {
	case melded == 0:
		if sc.selfDrawn {
			t[FullyConcealedHand] = 1
		} else {
			t[ConcealedHand] = 1
		}
	case melded == 4 && !sc.selfDrawn:
		t[MeldedHand] = 1
	case sc.selfDrawn:
		t[SelfDrawn] = 1
	}

	// The pair turns two dragon pungs into little three dragons, big
	// three winds into little four winds; with four chows it makes all
	// chows if it is not of honours.
	switch {
	case nc == 4:
		if pair.num() {
			t[AllChows] = 1
		}
	case t[TwoDragonPungs] != 0:
		if pair.dragon() {
			t[LittleThreeDragons] = 1
			t[TwoDragonPungs] = 0
		}
	case t[BigThreeWinds] != 0:
		if pair.wind() {
			t[LittleFourWinds] = 1
			t[BigThreeWinds] = 0
		}
	}

	packTraits(&packs, t)
	for _, l := range sc.traits[:sc.nTraits] {
		t[l.fan] = l.n
	}
	if t[QuadrupleChow] == 0 {
		t[TileHog] = sc.hogs - int8(meldedKongs+concealedKongs)
	}
	if unique {
		waitFans(packs[sc.nMelds:], sc.win, t)
	}
	t.exclude(sc.skipRule)
	if t[BigFourWinds] == 0 {
		for _, c := range pungs[:np] {
			if c.wind() {
				sc.windFans(c, t)
			}
		}
	}
	if t.empty() {
		t[ChickenHand] = 1
	}
}

func sortCodes(c []code) { slices.Sort(c) }

// threeSuitedTerminalChows: 123 and 789 in two suits and a pair of 5s in
// the third.
func threeSuitedTerminalChows(chows *[4]code, pair code) bool {
	if pair.rank() != 5 || !pair.num() {
		return false
	}
	var low, high [5]int
	for _, c := range chows {
		if c.suit() == pair.suit() {
			return false
		}
		switch c.rank() {
		case 2:
			low[c.suit()]++
		case 8:
			high[c.suit()]++
		default:
			return false
		}
	}
	for s := suitChar; s <= suitDots; s++ {
		if s != pair.suit() && (low[s] == 0 || high[s] == 0) {
			return false
		}
	}
	return true
}

// pureTerminalChows: 123 123 789 789 and a pair of 5s, all of one suit.
func pureTerminalChows(chows *[4]code, pair code) bool {
	if pair.rank() != 5 || !pair.num() {
		return false
	}
	low, high := 0, 0
	for _, c := range chows {
		if c.suit() != pair.suit() {
			return false
		}
		switch c.rank() {
		case 2:
			low++
		case 8:
			high++
		default:
			return false
		}
	}
	return low == 2 && high == 2
}

// packTraits counts the fans every set and the pair must share: outside
// hand (a terminal or honour in each), all five (a 5 in each), all even
// pungs (even pungs and an even pair).
func packTraits(packs *[5]pack, t *fanTable) {
	terminal, honor, five, even := 0, 0, 0, 0
	for _, p := range packs {
		if !p.t.num() {
			honor++
			continue
		}
		r := p.t.rank()
		if p.typ == packChow {
			switch r {
			case 2, 8:
				terminal++
			case 4, 5, 6:
				five++
			}
			continue
		}
		switch r {
		case 1, 9:
			terminal++
		case 5:
			five++
		case 2, 4, 6, 8:
			even++
		}
	}
	switch {
	case terminal+honor == 5:
		t[OutsideHand] = 1
	case five == 5:
		t[AllFive] = 1
	case even == 5:
		t[AllEvenPungs] = 1
	}
}

// tileTraits counts the fans that look at the kinds of tile only: suits,
// simples and terminals, green and reversible tiles, number ranges.
func (sc *scorer) tileTraits(t *fanTable) {
	u := sc.uniq[:sc.nUniq]
	suitsFans(u, t)
	kindFans(u, t)
	rangeFans(u, t)
}

func suitsFans(u []code, t *fanTable) {
	var has [5]bool
	wind, dragon := false, false
	for _, c := range u {
		has[c.suit()] = true
		wind = wind || c.wind()
		dragon = dragon || c.dragon()
	}
	if !has[suitHonor] {
		t[NoHonors] = 1
	}
	voided := 0
	for s := suitChar; s <= suitDots; s++ {
		if !has[s] {
			voided++
		}
	}
	t[OneVoidedSuit] = int8(voided)
	if voided == 2 {
		t[OneVoidedSuit] = 0
		if has[suitHonor] {
			t[HalfFlush] = 1
		} else {
			t[FullFlush] = 1
			t[NoHonors] = 0
		}
	}
	if voided == 0 && has[suitHonor] && wind && dragon {
		t[AllTypes] = 1
	}
}

func kindFans(u []code, t *fanTable) {
	simples, reversible, green, honors, terminals, yaochu := true, true, true, true, true, true
	for _, c := range u {
		simples = simples && !c.yaochu()
		reversible = reversible && c.reversible()
		green = green && c.green()
		honors = honors && c.honor()
		terminals = terminals && c.terminal()
		yaochu = yaochu && c.yaochu()
	}
	if simples {
		t[AllSimples] = 1
	}
	if reversible {
		t[ReversibleTiles] = 1
	}
	if green {
		t[AllGreen] = 1
	}
	switch {
	case simples:
	case honors:
		t[AllHonors] = 1
	case terminals:
		t[AllTerminals] = 1
	case yaochu:
		t[AllTerminalsAndHonors] = 1
	}
}

func rangeFans(u []code, t *fanTable) {
	var ranks uint16
	for _, c := range u {
		if !c.num() {
			return
		}
		ranks |= 1 << c.rank()
	}
	switch {
	case ranks&^0b11110 == 0: // 1-4 only
		if ranks&(1<<4) != 0 {
			t[LowerFour] = 1
		} else {
			t[LowerTiles] = 1
		}
	case ranks&^0b1111000000 == 0: // 6-9 only
		if ranks&(1<<6) != 0 {
			t[UpperFour] = 1
		} else {
			t[UpperTiles] = 1
		}
	case ranks&^0b1110000 == 0: // 4-6 only
		t[MiddleTiles] = 1
	}
}

// waitFans counts the wait of a hand that waited on one kind: edge if
// the winning tile ends a concealed chow, closed if it is a chow's
// middle, single if it is the pair; one of them only, in that order.
// A melded hand and four kongs can only wait on the pair, which the
// exclusion table then drops.
func waitFans(concealed []pack, win code, t *fanTable) {
	edge, closed, single := false, false, false
	for _, p := range concealed {
		switch p.typ {
		case packChow:
			if p.t == win {
				closed = true
			} else if p.t+1 == win || p.t-1 == win {
				edge = true
			}
		case packPair:
			single = single || p.t == win
		}
	}
	switch {
	case edge:
		t[EdgeWait] = 1
	case closed:
		t[ClosedWait] = 1
	case single:
		t[SingleWait] = 1
	}
}

// windFans counts a pung of the prevalent or the seat wind, which is then
// no longer a plain pung of honours (unless a fan of winds or honours has
// already dropped those).
func (sc *scorer) windFans(c code, t *fanTable) {
	counted := t[BigThreeWinds] != 0 || t[AllTerminalsAndHonors] != 0 || t[AllHonors] != 0 || t[LittleFourWinds] != 0
	if c == sc.round {
		t[PrevalentWind] = 1
		if !counted {
			t[PungOfTerminalsOrHonors]--
		}
	}
	if c == sc.seat {
		t[SeatWind] = 1
		if sc.seat != sc.round && !counted {
			t[PungOfTerminalsOrHonors]--
		}
	}
}
