package judge

// Basic points at the limits. A yakuman is worth yakumanBase per multiple.
const (
	manganBase    = 2000
	hanemanBase   = 3000
	baimanBase    = 4000
	sanbaimanBase = 6000
	yakumanBase   = 8000
)

// limitBase returns the limit and the basic points of a hand of han han and
// fu fu without yakuman: fu x 2^(2+han) below mangan, which a hand reaches
// at 5 han or at 2000 basic points (4 han 40 fu, 3 han 70 fu; with kiriage
// also 4 han 30 fu and 3 han 60 fu, worth 1920).
func limitBase(han, fu int, r *Rules) (Limit, int) {
	switch {
	case han >= 13 && r.KazoeYakuman:
		return KazoeYakuman, yakumanBase
	case han >= 11:
		return Sanbaiman, sanbaimanBase
	case han >= 8:
		return Baiman, baimanBase
	case han >= 6:
		return Haneman, hanemanBase
	case han >= 5:
		return Mangan, manganBase
	case han <= 0:
		return LimitNone, 0
	}
	base := fu << (2 + han)
	if base >= manganBase || r.Kiriage && (han == 4 && fu == 30 || han == 3 && fu == 60) {
		return Mangan, manganBase
	}
	return LimitNone, base
}

// roundUp100 rounds a payment up to the next 100 points.
func roundUp100(p int) int { return (p + 99) / 100 * 100 }

// Pay returns what the winner is paid for basic points base: a ron is 4 x
// base from the discarder (6 x for the dealer); a tsumo is 2 x base from the
// dealer and base from each other seat, or 2 x base from each seat when the
// dealer wins. Each payment is rounded up to 100, then honba add 300 to a
// ron and 100 to each tsumo payment.
func Pay(base int, dealer, tsumo bool, honba int) Payment {
	switch {
	case !tsumo && dealer:
		return Payment{Ron: roundUp100(6*base) + 300*honba}
	case !tsumo:
		return Payment{Ron: roundUp100(4*base) + 300*honba}
	case dealer:
		return Payment{TsumoNonDealer: roundUp100(2*base) + 100*honba}
	}
	return Payment{TsumoDealer: roundUp100(2*base) + 100*honba, TsumoNonDealer: roundUp100(base) + 100*honba}
}

// Received is everything the payers of p hand over, riichi sticks not
// included: the ron, or the tsumo payments of the three other seats (three
// non-dealers when the winner is the dealer).
func (p Payment) Received(dealer bool) int {
	if dealer {
		return p.Ron + 3*p.TsumoNonDealer
	}
	return p.Ron + p.TsumoDealer + 2*p.TsumoNonDealer
}
