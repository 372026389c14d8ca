package judge

// Yaku is one scoring element of a riichi win: a yaku, a yakuman, or one of
// the dora counts. Its String is the contract's canonical name.
type Yaku uint8

// The yaku, in the contract's order. The zero value is invalid.
const (
	Riichi Yaku = iota + 1
	DoubleRiichi
	Ippatsu
	MenzenTsumo
	Pinfu
	Tanyao
	Iipeikou
	YakuhaiHaku
	YakuhaiHatsu
	YakuhaiChun
	YakuhaiSeatWind
	YakuhaiRoundWind
	Haitei
	Houtei
	Rinshan
	Chankan
	Chiitoitsu
	Chanta
	Ittsu
	Sanshoku
	SanshokuDoukou
	Toitoi
	Sanankou
	Sankantsu
	Honroutou
	Shousangen
	Honitsu
	Junchan
	Ryanpeikou
	Chinitsu
	Dora
	AkaDora
	UraDora
	// Yakuman.
	Kokushi
	Kokushi13
	Suuankou
	SuuankouTanki
	Daisangen
	Shousuushii
	Daisuushii
	Tsuuiisou
	Chinroutou
	Ryuuiisou
	Chuuren
	Chuuren9
	Suukantsu
	TenhouYaku // "tenhou": the dealer's win on the first draw
	Chiihou
	numYaku
)

var yakuNames = [numYaku]string{"",
	"riichi", "double_riichi", "ippatsu", "menzen_tsumo", "pinfu", "tanyao", "iipeikou",
	"yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun", "yakuhai_seat_wind", "yakuhai_round_wind",
	"haitei", "houtei", "rinshan", "chankan", "chiitoitsu", "chanta", "ittsu", "sanshoku",
	"sanshoku_doukou", "toitoi", "sanankou", "sankantsu", "honroutou", "shousangen", "honitsu",
	"junchan", "ryanpeikou", "chinitsu", "dora", "aka_dora", "ura_dora",
	"kokushi", "kokushi_13", "suuankou", "suuankou_tanki", "daisangen", "shousuushii",
	"daisuushii", "tsuuiisou", "chinroutou", "ryuuiisou", "chuuren", "chuuren_9", "suukantsu",
	"tenhou", "chiihou",
}

func (y Yaku) String() string {
	if y != 0 && y < numYaku {
		return yakuNames[y]
	}
	return "invalid"
}

// IsYakuman reports whether y is a yakuman.
func (y Yaku) IsYakuman() bool { return y >= Kokushi && y < numYaku }

// IsDora reports whether y is one of the dora counts, which add han but do
// not make a hand winnable on their own.
func (y Yaku) IsDora() bool { return y == Dora || y == AkaDora || y == UraDora }

// YakuHan is one line of a scored hand: a yaku and what it counts. A
// yakuman counts 13 han per multiple (26 for a double).
type YakuHan struct {
	Yaku Yaku
	Han  int
}
