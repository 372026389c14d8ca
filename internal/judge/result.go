package judge

// Rules is a riichi scoring rule set: plain data, so that tables carry it
// as a value and later rule sets plug in beside it. Use a preset.
type Rules struct {
	Name          string
	AkaDora       bool // red fives count as dora
	OpenTanyao    bool // kuitan: all simples counts in an open hand
	KazoeYakuman  bool // 13 han or more is a counted yakuman (else sanbaiman)
	Kiriage       bool // 4 han 30 fu and 3 han 60 fu round up to mangan
	DoubleYakuman bool // kokushi_13, suuankou_tanki, chuuren_9 and daisuushii count twice
	StackYakuman  bool // several yakuman in one hand add up
}

// The presets.
var (
	// Default is the rule set of docs/judge.md.
	Default = Rules{Name: "default", AkaDora: true, OpenTanyao: true, KazoeYakuman: true, DoubleYakuman: true, StackYakuman: true}
	// Tenhou is Tenhou's ranked rooms: the default without double yakuman
	// for single hands.
	Tenhou = Rules{Name: "tenhou", AkaDora: true, OpenTanyao: true, KazoeYakuman: true, StackYakuman: true}
	// MahjongSoul is Mahjong Soul's ranked rooms.
	MahjongSoul = Rules{Name: "mahjongsoul", AkaDora: true, OpenTanyao: true, KazoeYakuman: true, DoubleYakuman: true, StackYakuman: true}
)

// Limit is the scoring limit a hand reached.
type Limit uint8

// The limits, in the contract's names.
const (
	LimitNone Limit = iota
	Mangan
	Haneman
	Baiman
	Sanbaiman
	Yakuman
	KazoeYakuman
)

var limitNames = [...]string{"none", "mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe_yakuman"}

func (l Limit) String() string {
	if int(l) < len(limitNames) {
		return limitNames[l]
	}
	return "invalid"
}

// Reason says why a Result is not a win.
type Reason uint8

// The reasons, in the contract's names.
const (
	ReasonNone  Reason = iota // it is a win
	NotComplete               // the tiles do not form a winning shape
	NoYaku                    // complete, but without a yaku
)

var reasonNames = [...]string{"", "not_complete", "no_yaku"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid"
}

// Payment is what the winner is paid, honba included, riichi sticks not.
// A ron fills Ron; a tsumo fills TsumoDealer (what the dealer pays, zero when
// the winner is the dealer) and TsumoNonDealer (what each non-dealer pays).
type Payment struct {
	Ron            int
	TsumoDealer    int
	TsumoNonDealer int
}
