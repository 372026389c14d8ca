package judge

import "github.com/mahjong-authority/authority/internal/tile"

// The han of each yaku in a closed and in an open hand; 0 in openHan means
// the yaku needs a closed hand. Chanta, ittsu, sanshoku, honitsu, junchan and
// chinitsu lose a han when open (kuisagari). Tanyao's open han is switched by
// Rules.OpenTanyao.
var closedHan = [numYaku]uint8{
	Riichi: 1, DoubleRiichi: 2, Ippatsu: 1, MenzenTsumo: 1, Pinfu: 1, Tanyao: 1, Iipeikou: 1,
	YakuhaiHaku: 1, YakuhaiHatsu: 1, YakuhaiChun: 1, YakuhaiSeatWind: 1, YakuhaiRoundWind: 1,
	Haitei: 1, Houtei: 1, Rinshan: 1, Chankan: 1, Chiitoitsu: 2, Chanta: 2, Ittsu: 2,
	Sanshoku: 2, SanshokuDoukou: 2, Toitoi: 2, Sanankou: 2, Sankantsu: 2, Honroutou: 2,
	Shousangen: 2, Honitsu: 3, Junchan: 3, Ryanpeikou: 3, Chinitsu: 6,
}

var openHan = [numYaku]uint8{
	Tanyao:      1,
	YakuhaiHaku: 1, YakuhaiHatsu: 1, YakuhaiChun: 1, YakuhaiSeatWind: 1, YakuhaiRoundWind: 1,
	Haitei: 1, Houtei: 1, Rinshan: 1, Chankan: 1, Chanta: 1, Ittsu: 1,
	Sanshoku: 1, SanshokuDoukou: 2, Toitoi: 2, Sanankou: 2, Sankantsu: 2, Honroutou: 2,
	Shousangen: 2, Honitsu: 2, Junchan: 2, Chinitsu: 5,
}

// isDoubleYakuman reports whether y is one of the four hands that count
// twice under Rules.DoubleYakuman.
func isDoubleYakuman(y Yaku) bool {
	return y == Kokushi13 || y == SuuankouTanki || y == Chuuren9 || y == Daisuushii
}

// yakumanMultiple is how many yakuman y counts under r.
func yakumanMultiple(y Yaku, r *Rules) int {
	if r.DoubleYakuman && isDoubleYakuman(y) {
		return 2
	}
	return 1
}

// hanOf is the han y counts in a hand under r; for a yakuman, 13 per
// multiple. Dora counts are not fixed and are not answered here.
func hanOf(y Yaku, closed bool, r *Rules) int {
	switch {
	case y.IsYakuman():
		return 13 * yakumanMultiple(y, r)
	case closed:
		return int(closedHan[y])
	case y == Tanyao && !r.OpenTanyao:
		return 0
	}
	return int(openHan[y])
}

func yakuBit(y Yaku) uint64 { return 1 << y }

// Kind sets used by the hand-wide checks.
const (
	kindsMan      tile.KindSet = 0x1FF
	kindsPin      tile.KindSet = 0x1FF << 9
	kindsSou      tile.KindSet = 0x1FF << 18
	kindsHonor    tile.KindSet = 0x7F << 27
	kindsTerminal              = tile.Yaochu &^ kindsHonor
	// The all-green tiles: 2, 3, 4, 6, 8 of bamboo and the green dragon.
	kindsGreen = 1<<tile.S2 | 1<<tile.S3 | 1<<tile.S4 | 1<<tile.S6 | 1<<tile.S8 | 1<<tile.Hatsu
)

// handYaku finds the yaku and yakuman that do not depend on how the
// concealed tiles are read: the situation, the tiles present, the honour
// triplets (an honour is a triplet or the pair in every reading), the kans.
// It fills sc.handBits, sc.handHan and sc.yakuman.
func (sc *scorer) handYaku(flags uint16) {
	var b uint64
	add := func(y Yaku) { b |= yakuBit(y) }
	if flags&flagDoubleRiichi != 0 {
		add(DoubleRiichi)
	} else if flags&flagRiichi != 0 {
		add(Riichi)
	}
	if flags&flagIppatsu != 0 {
		add(Ippatsu)
	}
	if sc.closed && sc.tsumo {
		add(MenzenTsumo)
	}
	if flags&flagHaitei != 0 {
		add(Haitei)
	}
	if flags&flagHoutei != 0 {
		add(Houtei)
	}
	if flags&flagRinshan != 0 {
		add(Rinshan)
	}
	if flags&flagChankan != 0 {
		add(Chankan)
	}

	all := sc.kinds
	if all&tile.Yaochu == 0 {
		add(Tanyao)
	}
	suits := 0
	for _, s := range [...]tile.KindSet{kindsMan, kindsPin, kindsSou} {
		if all&s != 0 {
			suits++
		}
	}
	honors := all&kindsHonor != 0
	switch {
	case suits == 1 && honors:
		add(Honitsu)
	case suits == 1:
		add(Chinitsu)
	}
	if all&^tile.Yaochu == 0 && honors && suits > 0 {
		add(Honroutou)
	}
	if sc.kans == 3 {
		add(Sankantsu)
	}

	// Honour triplets and the honour pair.
	dragons, winds := 0, 0
	dragonPair, windPair := false, false
	for k := tile.East; k < tile.NumKinds; k++ {
		trip := sc.honorTrips.Has(k)
		pair := !trip && sc.c[k] == 2
		if k.IsDragon() {
			if trip {
				dragons++
				add(YakuhaiHaku + Yaku(k-tile.Haku))
			}
			dragonPair = dragonPair || pair
			continue
		}
		if trip {
			winds++
			if k == sc.seat {
				add(YakuhaiSeatWind)
			}
			if k == sc.round {
				add(YakuhaiRoundWind)
			}
		}
		windPair = windPair || pair
	}
	if dragons == 2 && dragonPair {
		add(Shousangen)
	}

	// Yakuman.
	var y uint64
	if dragons == 3 {
		y |= yakuBit(Daisangen)
	}
	if winds == 4 {
		y |= yakuBit(Daisuushii)
	} else if winds == 3 && windPair {
		y |= yakuBit(Shousuushii)
	}
	if all&^kindsHonor == 0 {
		y |= yakuBit(Tsuuiisou)
	}
	if all&^kindsTerminal == 0 {
		y |= yakuBit(Chinroutou)
	}
	if all&^kindsGreen == 0 {
		y |= yakuBit(Ryuuiisou)
	}
	if sc.kans == 4 {
		y |= yakuBit(Suukantsu)
	}
	if sc.nMelds == 0 && suits == 1 && !honors {
		y |= sc.nineGates()
	}
	if flags&flagTenhou != 0 {
		y |= yakuBit(TenhouYaku)
	}
	if flags&flagChiihou != 0 {
		y |= yakuBit(Chiihou)
	}
	sc.handBits, sc.handHan = sc.sumHan(b)
	sc.yakuman = y
}

// nineGates checks chuuren poutou on a closed one-suit hand of 14 tiles:
// 1112345678999 and one more tile of the suit. It is the pure nine-sided
// form (chuuren_9) when the 13 tiles before the win were exactly
// 1112345678999, which waits on all nine.
func (sc *scorer) nineGates() uint64 {
	s := int(sc.win) / 9 * 9
	c := sc.c[s : s+9]
	pure := true
	for i, v := range c {
		need := uint8(1)
		if i == 0 || i == 8 {
			need = 3
		}
		if v < need {
			return 0
		}
		if s+i == int(sc.win) {
			v--
		}
		pure = pure && v == need
	}
	if pure {
		return yakuBit(Chuuren9)
	}
	return yakuBit(Chuuren)
}

// sumHan adds up the han of the non-yakuman yaku of b, leaving out those
// that count nothing in this hand (open tanyao without Rules.OpenTanyao).
func (sc *scorer) sumHan(b uint64) (uint64, int) {
	han := 0
	for y := Riichi; y < Dora; y++ {
		if b&yakuBit(y) == 0 {
			continue
		}
		h := hanOf(y, sc.closed, sc.rules)
		if h == 0 {
			b &^= yakuBit(y)
		}
		han += h
	}
	return b, han
}

// yakumanCount is the number of yakuman of the set b under the rules: their
// sum when yakuman stack, else the largest alone.
func (sc *scorer) yakumanCount(b uint64) int {
	n := 0
	for y := Kokushi; y < numYaku; y++ {
		if b&yakuBit(y) == 0 {
			continue
		}
		m := yakumanMultiple(y, sc.rules)
		if sc.rules.StackYakuman {
			n += m
		} else {
			n = max(n, m)
		}
	}
	return n
}

// readingFacts is what a reading adds to the hand, whatever place the
// winning tile takes in it.
type readingFacts struct {
	bits       uint64
	han        int
	trips      int // concealed triplets
	tripFu     int // their fu, all counted concealed
	pairFu     int
	pinfuShape bool // closed, four runs, no value pair
}

// reading scores every place of the winning tile in rd.
func (sc *scorer) reading(rd *Reading, best *candidate) {
	runMask, tripMask := sc.meldRunMask, sc.meldTripMask
	conRuns := 0
	var f readingFacts
	yaochu := sc.meldYaochu && rd.Pair.IsYaochu()
	peikou, same := 0, 0
	for i, g := range rd.Groups[:rd.N] {
		k := g.Kind
		if g.Type == Run {
			runMask |= 1 << k
			conRuns++
			yaochu = yaochu && (k%9 == 0 || k%9 == 6)
			// Identical runs are adjacent: groups are ordered by kind.
			if i > 0 && rd.Groups[i-1] == g {
				same++
				if same%2 == 1 {
					peikou++
				}
			} else {
				same = 0
			}
			continue
		}
		same = 0
		f.trips++
		if k < 27 {
			tripMask |= 1 << k
		}
		if k.IsYaochu() {
			f.tripFu += 8
		} else {
			f.tripFu += 4
			yaochu = false
		}
	}
	runs := sc.meldRuns + conRuns

	add := func(y Yaku) {
		f.bits |= yakuBit(y)
		f.han += hanOf(y, sc.closed, sc.rules)
	}
	switch {
	case runs > 0 && yaochu && sc.kinds&kindsHonor != 0:
		add(Chanta)
	case runs > 0 && yaochu:
		add(Junchan)
	}
	for s := range 3 {
		if runMask>>(9*s)&0b1001001 == 0b1001001 {
			add(Ittsu)
		}
	}
	if runMask&(runMask>>9)&(runMask>>18)&0x1FF != 0 {
		add(Sanshoku)
	}
	if tripMask&(tripMask>>9)&(tripMask>>18)&0x1FF != 0 {
		add(SanshokuDoukou)
	}
	if runs == 0 {
		add(Toitoi)
	}
	if sc.closed {
		switch peikou {
		case 1:
			add(Iipeikou)
		case 2:
			add(Ryanpeikou) // replaces iipeikou
		}
	}

	// Pair fu: dragons, the seat wind and the round wind, 2 each, so a
	// double-wind pair is 4.
	p := rd.Pair
	if p.IsDragon() {
		f.pairFu += 2
	}
	if p == sc.seat {
		f.pairFu += 2
	}
	if p == sc.round {
		f.pairFu += 2
	}
	f.pinfuShape = sc.nMelds == 0 && conRuns == 4 && f.pairFu == 0

	w := sc.win
	if p == w {
		sc.place(&f, waitTanki, false, best)
	}
	for i, g := range rd.Groups[:rd.N] {
		k := g.Kind
		switch {
		case g.Type == Triplet && k == w:
			sc.place(&f, waitShanpon, k.IsYaochu(), best)
		case g.Type == Run && w >= k && w <= k+2 && (i == 0 || rd.Groups[i-1] != g):
			var wt waitType
			switch {
			case w == k+1:
				wt = waitKanchan
			case w == k && k%9 == 6, w == k+2 && k%9 == 0:
				wt = waitPenchan
			default:
				wt = waitRyanmen
			}
			sc.place(&f, wt, false, best)
		}
	}
}
