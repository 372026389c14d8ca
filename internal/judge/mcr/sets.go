package mcr

// The fans of groups of sets. A chow is named by its middle tile, a pung
// or kong by its tile; the inputs of the functions for three and four
// sets are sorted by code.
//
// The "account once" principle (套算一次): a set that has made a fan with
// another set may make a fan with one further set only once, and two sets
// that made a fan together make no second fan of the same kind. So the
// largest pattern is looked for first: four chows that make a fan of four
// make nothing else; three chows that make a fan of three leave the
// fourth at most one fan of two chows with one of them; otherwise four
// chows make at most three fans of two (fewer when a chow pairs with
// none), three chows at most two. Pungs go the same way.

// shift1Any reports whether three numbers are consecutive in some order.
func shift1Any(a, b, c int) bool {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return a+1 == b && b+1 == c
}

func threeSuits(a, b, c code) bool {
	return a.suit() != b.suit() && a.suit() != c.suit() && b.suit() != c.suit()
}

// fourChowsFan is the fan four chows make together, or 0.
func fourChowsFan(t0, t1, t2, t3 code) Fan {
	switch {
	case t0+2 == t1 && t1+2 == t2 && t2+2 == t3, t0+1 == t1 && t1+1 == t2 && t2+1 == t3:
		return FourPureShiftedChows
	case t0 == t1 && t0 == t2 && t0 == t3:
		return QuadrupleChow
	}
	return 0
}

// threeChowsFan is the fan three chows make together, or 0.
func threeChowsFan(t0, t1, t2 code) Fan {
	r0, r1, r2 := t0.rank(), t1.rank(), t2.rank()
	if threeSuits(t0, t1, t2) {
		switch {
		case shift1Any(r0, r1, r2):
			return MixedShiftedChows
		case r0 == r1 && r1 == r2:
			return MixedTripleChow
		case r0 != r1 && r0 != r2 && r1 != r2 && (r0 == 2 || r0 == 5 || r0 == 8) &&
			(r1 == 2 || r1 == 5 || r1 == 8) && (r2 == 2 || r2 == 5 || r2 == 8):
			return MixedStraight
		}
		return 0
	}
	switch {
	case t0+3 == t1 && t1+3 == t2:
		return PureStraight
	case t0+2 == t1 && t1+2 == t2, t0+1 == t1 && t1+1 == t2:
		return PureShiftedChows
	case t0 == t1 && t0 == t2:
		return PureTripleChow
	}
	return 0
}

// twoChowsFan is the fan two chows make together, or 0.
func twoChowsFan(a, b code) Fan {
	if a.suit() != b.suit() {
		if a.rank() == b.rank() {
			return MixedDoubleChow
		}
		return 0
	}
	switch {
	case a+3 == b || b+3 == a:
		return ShortStraight
	case a.rank() == 2 && b.rank() == 8, a.rank() == 8 && b.rank() == 2:
		return TwoTerminalChows
	case a == b:
		return PureDoubleChow
	}
	return 0
}

// extraChowFan is the one fan a fourth chow x may still make with the
// three that made a fan of three: the first of pure double chow, mixed
// double chow, short straight and two terminal chows that it makes with
// any of them.
func extraChowFan(t0, t1, t2, x code) Fan {
	f0, f1, f2 := twoChowsFan(t0, x), twoChowsFan(t1, x), twoChowsFan(t2, x)
	for _, f := range [...]Fan{PureDoubleChow, MixedDoubleChow, ShortStraight, TwoTerminalChows} {
		if f0 == f || f1 == f || f2 == f {
			return f
		}
	}
	return 0
}

// capPairFans counts fans of pairs of chows, at most max of them. When
// there are more, the surplus goes from the end of the list (two terminal
// chows first, pure double chow last), first cutting each fan down to
// one, then to none.
func capPairFans(fans []Fan, max int, t *fanTable) {
	var n [4]int // pure double, mixed double, short straight, two terminal
	cnt := 0
	for _, f := range fans {
		if f != 0 {
			n[f-PureDoubleChow]++
			cnt++
		}
	}
	for limit := 1; limit >= 0 && cnt > max; limit-- {
		for i := 3; i >= 0 && cnt > max; i-- {
			for n[i] > limit && cnt > max {
				n[i]--
				cnt--
			}
		}
	}
	for i, v := range n {
		t[PureDoubleChow+Fan(i)] = int8(v)
	}
}

// fourChows scores four chows, middles sorted.
func fourChows(m *[4]code, t *fanTable) {
	if f := fourChowsFan(m[0], m[1], m[2], m[3]); f != 0 {
		t[f] = 1
		return
	}
	// Three of them, the one left over last, in this order.
	for _, q := range [...][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}} {
		if f := threeChowsFan(m[q[0]], m[q[1]], m[q[2]]); f != 0 {
			t[f] = 1
			if x := extraChowFan(m[q[0]], m[q[1]], m[q[2]], m[q[3]]); x != 0 {
				t[x] = 1
			}
			return
		}
	}
	fans := [6]Fan{
		twoChowsFan(m[0], m[1]), twoChowsFan(m[0], m[2]), twoChowsFan(m[0], m[3]),
		twoChowsFan(m[1], m[2]), twoChowsFan(m[1], m[3]), twoChowsFan(m[2], m[3]),
	}
	// Three fans at most, one fewer for each chow that makes none.
	max := 3
	for _, p := range [...][3]int{{0, 1, 2}, {0, 3, 4}, {1, 3, 5}, {2, 4, 5}} {
		if fans[p[0]] == 0 && fans[p[1]] == 0 && fans[p[2]] == 0 {
			max--
		}
	}
	if max > 0 {
		capPairFans(fans[:], max, t)
	}
}

// threeChows scores three chows, middles sorted.
func threeChows(m *[3]code, t *fanTable) {
	if f := threeChowsFan(m[0], m[1], m[2]); f != 0 {
		t[f] = 1
		return
	}
	fans := [3]Fan{twoChowsFan(m[0], m[1]), twoChowsFan(m[0], m[2]), twoChowsFan(m[1], m[2])}
	capPairFans(fans[:], 2, t)
}

// fourPungsFan is the fan four pungs make together, or 0.
func fourPungsFan(t0, t1, t2, t3 code) Fan {
	switch {
	case t0.num() && t0+1 == t1 && t1+1 == t2 && t2+1 == t3:
		return FourPureShiftedPungs
	case t0 == codeEast && t1 == codeSouth && t2 == codeWest && t3 == codeNorth:
		return BigFourWinds
	}
	return 0
}

// threePungsFan is the fan three pungs make together, or 0.
func threePungsFan(t0, t1, t2 code) Fan {
	if t0.num() && t1.num() && t2.num() {
		if threeSuits(t0, t1, t2) {
			switch r0, r1, r2 := t0.rank(), t1.rank(), t2.rank(); {
			case shift1Any(r0, r1, r2):
				return MixedShiftedPungs
			case r0 == r1 && r1 == r2:
				return TriplePung
			}
			return 0
		}
		if t0+1 == t1 && t1+1 == t2 {
			return PureShiftedPungs
		}
		return 0
	}
	switch {
	case t0.wind() && t1.wind() && t2.wind() && t0 < t1 && t1 < t2:
		return BigThreeWinds
	case t0 == codeRed && t1 == codeGreen && t2 == codeWhite:
		return BigThreeDragons
	}
	return 0
}

// twoPungsFan is the fan two pungs make together, or 0.
func twoPungsFan(a, b code) Fan {
	switch {
	case a.num() && b.num():
		if a.rank() == b.rank() {
			return DoublePung
		}
	case a.dragon() && b.dragon():
		return TwoDragonPungs
	}
	return 0
}

// onePungFan is the fan of a pung on its own, or 0.
func onePungFan(c code) Fan {
	switch {
	case c.dragon():
		return DragonPung
	case c.terminal() || c.wind():
		return PungOfTerminalsOrHonors
	}
	return 0
}

// fourPungs scores four pungs, sorted.
func fourPungs(m *[4]code, t *fanTable) {
	if f := fourPungsFan(m[0], m[1], m[2], m[3]); f != 0 {
		t[f] = 1
		return
	}
	for _, q := range [...][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}} {
		f := threePungsFan(m[q[0]], m[q[1]], m[q[2]])
		if f == 0 {
			continue
		}
		t[f] = 1
		// The pung left over makes at most one fan of two, with the
		// first of the others that it makes one with.
		free := q[3]
		for i := range 4 {
			if i == free {
				continue
			}
			if g := twoPungsFan(m[i], m[free]); g != 0 {
				t[g]++
				break
			}
		}
		return
	}
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			if g := twoPungsFan(m[i], m[j]); g != 0 {
				t[g]++
			}
		}
	}
}

// threePungs scores three pungs, sorted.
func threePungs(m *[3]code, t *fanTable) {
	if f := threePungsFan(m[0], m[1], m[2]); f != 0 {
		t[f] = 1
		return
	}
	for _, p := range [...][2]int{{0, 1}, {0, 2}, {1, 2}} {
		if g := twoPungsFan(m[p[0]], m[p[1]]); g != 0 {
			t[g]++
		}
	}
}

// kongFans counts the kong fans and the concealed-pung fans, which a
// concealed kong counts toward. Kongs and concealed pungs of one hand
// come to one fan of each family, the larger ones excluding the smaller:
// two concealed kongs are not also two concealed pungs, and so on.
func kongFans(concealedPungs, meldedKongs, concealedKongs int, t *fanTable) {
	concealed := concealedPungs + concealedKongs // every concealed set of three or four
	switch meldedKongs + concealedKongs {
	case 1:
		if meldedKongs == 1 {
			t[MeldedKong] = 1
		} else {
			t[ConcealedKong] = 1
		}
	case 2:
		switch concealedKongs {
		case 0:
			t[TwoMeldedKongs] = 1
		case 1:
			t[MeldedKong] = 1
			t[ConcealedKong] = 1
		case 2:
			t[TwoConcealedKongs] = 1
			if concealed == 2 {
				return // the two concealed kongs are the two concealed pungs
			}
		}
	case 3:
		t[ThreeKongs] = 1
	case 4:
		t[FourKongs] = 1
	}
	switch concealed {
	case 2:
		t[TwoConcealedPungs] = 1
	case 3:
		t[ThreeConcealedPungs] = 1
	case 4:
		t[FourConcealedPungs] = 1
	}
}
