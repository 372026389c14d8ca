package mcr

// The special forms. Each builds its own list of fans: most of what a
// standard hand counts is either implied by the form or cannot occur.

// specialForm scores seven pairs, seven shifted pairs, honours and
// knitted tiles, and thirteen orphans (14 concealed tiles).
func (sc *scorer) specialForm(t *fanTable) bool {
	if sc.sevenPairs() {
		if s := sc.win.suit(); sc.win.num() && sc.sevenShifted(s) {
			t[SevenShiftedPairs] = 1
			if sc.stand[mk(s, 1)] == 0 && sc.stand[mk(s, 9)] == 0 {
				t[AllSimples] = 1
			}
			sc.winFlags(t)
			return true
		}
		t[SevenPairs] = 1
		sc.tileTraits(t)
		hogs := 0
		for _, c := range sc.uniq[:sc.nUniq] {
			if sc.stand[c] == 4 {
				hogs++
			}
		}
		t[TileHog] = int8(hogs)
		sc.winFlags(t)
		t.exclude(sc.skipRule)
		return true
	}
	if sc.honorsAndKnitted(t) {
		sc.winFlags(t)
		return true
	}
	if sc.thirteenOrphans() {
		t[ThirteenOrphans] = 1
		sc.winFlags(t)
		return true
	}
	return false
}

// sevenPairs: every kind held an even number of times (four of a kind
// are two pairs).
func (sc *scorer) sevenPairs() bool {
	for _, c := range sc.uniq[:sc.nUniq] {
		if sc.stand[c]&1 != 0 {
			return false
		}
	}
	return true
}

// sevenShifted: seven pairs of consecutive numbers in suit s.
func (sc *scorer) sevenShifted(s int) bool {
	for r := 3; r <= 7; r++ {
		if sc.stand[mk(s, r)] != 2 {
			return false
		}
	}
	if sc.stand[mk(s, 2)] == 2 {
		return sc.stand[mk(s, 1)] == 2 || sc.stand[mk(s, 8)] == 2
	}
	return sc.stand[mk(s, 8)] == 2 && sc.stand[mk(s, 9)] == 2
}

// thirteenOrphans: each terminal and honour, one of them twice.
func (sc *scorer) thirteenOrphans() bool {
	if sc.nUniq != 13 {
		return false
	}
	for _, c := range sc.uniq[:sc.nUniq] {
		if !c.yaochu() {
			return false
		}
	}
	return true
}

// honorsAndKnitted: 14 different kinds, the numbers all from one knitted
// straight, the rest honours. All seven honours and seven numbers are the
// greater form; otherwise it is the lesser, with a knitted straight when
// all nine numbers are there.
func (sc *scorer) honorsAndKnitted(t *fanTable) bool {
	if sc.nUniq != 14 {
		return false
	}
	nums := 0
	for _, c := range sc.uniq[:sc.nUniq] {
		if c.num() {
			nums++
		}
	}
	if nums < 7 || nums > 9 {
		return false
	}
	match := false
	for i := range knittedPatterns {
		in := 0
		for _, c := range knittedPatterns[i] {
			if sc.stand[c] != 0 {
				in++
			}
		}
		if in == nums {
			match = true
			break
		}
	}
	if !match {
		return false
	}
	if nums == 7 {
		t[GreaterHonorsAndKnittedTiles] = 1
		return true
	}
	t[LesserHonorsAndKnittedTiles] = 1
	if nums == 9 {
		t[KnittedStraight] = 1
	}
	return true
}

// knitted scores a knitted straight with a set and a pair (the set may
// be the one meld).
func (sc *scorer) knitted(t *fanTable) bool {
	pairs := false
	for _, c := range sc.uniq[:sc.nUniq] {
		pairs = pairs || sc.stand[c] >= 2
	}
	if !pairs {
		return false
	}
	var body *[9]code
patterns:
	for i := range knittedPatterns {
		for _, c := range knittedPatterns[i] {
			if sc.stand[c] == 0 {
				continue patterns
			}
		}
		body = &knittedPatterns[i]
		break
	}
	if body == nil {
		return false
	}
	rest := sc.stand
	for _, c := range body {
		rest[c]--
	}
	// What is left is a set and a pair, or the pair beside the meld.
	var set, pair pack
	if sc.nMelds == 1 {
		set = sc.melds[0]
		var ok bool
		if pair, ok = onlyPair(&rest); !ok {
			return false
		}
	} else {
		var ok bool
		if set, pair, ok = setAndPair(&rest); !ok {
			return false
		}
	}

	t[KnittedStraight] = 1
	merged := func(c code) int { return int(sc.stand[c]) + int(sc.fixed[c]) }
	if set.typ == packChow {
		if pair.t.num() {
			t[AllChows] = 1
		}
		if merged(pair.t) == 4 {
			t[TileHog] = 1
		}
	} else {
		c := set.t
		switch {
		case c.wind():
			t[PungOfTerminalsOrHonors] = 1
			sc.windFans(c, t)
			if pair.t.dragon() {
				t[AllTypes] = 1
			}
		case c.dragon():
			t[DragonPung] = 1
			if pair.t.wind() {
				t[AllTypes] = 1
			}
		default:
			if c.terminal() {
				t[PungOfTerminalsOrHonors] = 1
			}
			if !pair.t.honor() {
				t[NoHonors] = 1
			}
			if set.typ != packKong && merged(c) == 4 {
				t[TileHog] = 1
			}
		}
	}
	sc.winFlags(t)
	if set.melded {
		if set.typ == packKong {
			t[MeldedKong] = 1
		}
	} else {
		if set.typ == packKong {
			t[ConcealedKong] = 1
		}
		if sc.selfDrawn {
			t[FullyConcealedHand] = 1
			t[SelfDrawn] = 0
		} else {
			t[ConcealedHand] = 1
		}
	}
	// The wait is judged on the set and the pair alone, as if the knitted
	// body were three sets already made.
	if sc.nMelds == 0 {
		if rest[sc.win] != 0 && restWaitUnique(&rest, sc.win) {
			waitFans([]pack{set, pair}, sc.win, t)
		}
	} else {
		inBody := false
		for _, c := range body {
			inBody = inBody || c == sc.win
		}
		if !inBody || sc.stand[sc.win] == 3 {
			t[SingleWait] = 1
		}
	}
	t.exclude(sc.skipRule)
	return true
}

// onlyPair reads two tiles as a pair.
func onlyPair(rest *codeCounts) (pack, bool) {
	for c, n := range rest {
		switch n {
		case 0:
		case 2:
			return pack{typ: packPair, t: code(c)}, true
		default:
			return pack{}, false
		}
	}
	return pack{}, false
}

// setAndPair reads five tiles as one set and a pair: there is at most
// one way.
func setAndPair(rest *codeCounts) (set, pair pack, ok bool) {
	var r codeCounts = *rest
	for c := code(0); c < codeSpace; c++ {
		if r[c] < 2 {
			continue
		}
		r[c] -= 2
		if s, ok := oneSet(&r); ok {
			return s, pack{typ: packPair, t: c}, true
		}
		r[c] += 2
	}
	return pack{}, pack{}, false
}

// oneSet reads three tiles as a pung or a chow.
func oneSet(r *codeCounts) (pack, bool) {
	for c := code(0); c < codeSpace; c++ {
		switch {
		case r[c] == 0:
			continue
		case r[c] == 3:
			return pack{typ: packPung, t: c}, true
		case r[c] == 1 && c.num() && c.rank() <= 7 && r[c+1] == 1 && r[c+2] == 1:
			return pack{typ: packChow, t: c + 1}, true
		}
		return pack{}, false
	}
	return pack{}, false
}

// restWaitUnique reports whether the four tiles of rest less the winning
// tile waited on one kind only to make a set and a pair.
func restWaitUnique(rest *codeCounts, win code) bool {
	r := *rest
	r[win]--
	waits := 0
	for c := code(0); c < codeSpace; c++ {
		if !validCode[c] {
			continue
		}
		r[c]++
		if _, _, ok := setAndPair(&r); ok {
			waits++
		}
		r[c]--
	}
	return waits == 1
}

// nineGates: 1112345678999 of one suit and the winning tile of that suit,
// all concealed. It counts the sets the tiles make with the winning tile
// beside it.
func (sc *scorer) nineGates(t *fanTable) bool {
	if !sc.win.num() {
		return false
	}
	s, r := sc.win.suit(), sc.win.rank()
	for n := 1; n <= 9; n++ {
		want := uint8(1)
		if n == 1 || n == 9 {
			want = 3
		}
		if n == r {
			want++
		}
		if sc.stand[mk(s, n)] != want {
			return false
		}
	}
	t[NineGates] = 1
	switch r {
	case 1, 9:
		t[PureStraight] = 1
		t[TileHog] = 1
	case 2, 8:
		t[TwoConcealedPungs] = 1
		t[ShortStraight] = 1
		t[PungOfTerminalsOrHonors] = 1
	case 5:
		t[TwoConcealedPungs] = 1
		t[PungOfTerminalsOrHonors] = 1
	default:
		t[ShortStraight] = 1
	}
	sc.winFlags(t)
	return true
}
