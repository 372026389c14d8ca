package judge

// waitType is where the winning tile sits in a reading.
type waitType uint8

const (
	waitRyanmen waitType = iota // two-sided run: no fu
	waitShanpon                 // one of two pairs made a triplet: no fu
	waitKanchan                 // the middle of a run: 2 fu
	waitPenchan                 // 3 of 123 or 7 of 789: 2 fu
	waitTanki                   // the pair: 2 fu
)

// place scores a reading with the winning tile in the given place. On a ron
// the triplet the winning tile completes counts as open (minkou): for fu,
// and for sanankou and suuankou.
func (sc *scorer) place(f *readingFacts, wait waitType, yaochuTrip bool, best *candidate) {
	anko := sc.closedKans + f.trips
	tripFu := f.tripFu
	if wait == waitShanpon && !sc.tsumo {
		anko--
		tripFu -= 2
		if yaochuTrip {
			tripFu -= 2
		}
	}
	y := sc.yakuman
	if anko == 4 {
		if wait == waitTanki {
			y |= yakuBit(SuuankouTanki)
		} else {
			y |= yakuBit(Suuankou)
		}
	}
	if y != 0 {
		sc.considerYakuman(y, best)
		return
	}
	bits, han := sc.handBits|f.bits, sc.handHan+f.han
	if anko == 3 {
		bits |= yakuBit(Sanankou)
		han += hanOf(Sanankou, sc.closed, sc.rules)
	}
	pinfu := f.pinfuShape && wait == waitRyanmen
	if pinfu {
		bits |= yakuBit(Pinfu)
		han += hanOf(Pinfu, sc.closed, sc.rules)
	}
	// Fu: 20, closed ron 10 or tsumo 2, sets, pair and wait, rounded up to
	// 10. Pinfu takes no tsumo fu; an open hand of 20 fu counts 30.
	raw := 20 + sc.winFu + sc.meldFu + tripFu + f.pairFu
	if wait >= waitKanchan {
		raw += 2
	}
	fu := max((raw+9)/10*10, 30)
	if pinfu && sc.tsumo {
		raw, fu = 20, 20
	}
	sc.consider(bits, han, raw, fu, best)
}
