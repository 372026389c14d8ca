package mcr

// The exclusion rules: a fan that implies another is counted without it.
//
// Most of the 1998 rule book's "not counted with" notes never need a rule
// here, because the scorer does not produce the implied fan in the first
// place: the fans of sets are looked for from the largest group down
// (four chows, then three, then pairs of chows; see chows.go and
// pungs.go), the wait fans only for a hand that waited on one kind, and
// the special forms build their own short lists. What is left is this
// table, applied in order to every decomposition once its fans are
// found. Each rule has a test hand in exclusions_test.go.

// exclusion says: when fan By counts, the fans in Drop do not.
type exclusion struct {
	By   Fan
	Drop []Fan
	// Swap, when set, is a fan By turns into another rather than drops:
	// Swap[0] is replaced by Swap[1] (four concealed pungs turn a fully
	// concealed hand into a plain self-draw).
	Swap [2]Fan
	// Less takes LessN from the count of fan Less, unless one of LessUnless
	// counts (big three winds holds three pungs of terminals or honours
	// already counted in its value; all honours and all terminals and
	// honours have dropped those pungs before).
	Less       Fan
	LessN      int8
	LessUnless [2]Fan
}

// exclusions is the table, in the order it is applied.
var exclusions = [...]exclusion{
	{By: BigFourWinds, Drop: []Fan{AllPungs, PungOfTerminalsOrHonors}},
	{By: BigThreeDragons, Drop: []Fan{DragonPung}},
	{By: AllGreen, Drop: []Fan{HalfFlush, OneVoidedSuit}},
	{By: FourKongs, Drop: []Fan{SingleWait}},
	{By: AllTerminals, Drop: []Fan{AllPungs, OutsideHand, PungOfTerminalsOrHonors, NoHonors, DoublePung}},
	{By: LittleFourWinds, Drop: []Fan{PungOfTerminalsOrHonors}},
	{By: LittleThreeDragons, Drop: []Fan{DragonPung}},
	{By: AllHonors, Drop: []Fan{AllPungs, OutsideHand, PungOfTerminalsOrHonors, OneVoidedSuit}},
	{By: FourConcealedPungs, Drop: []Fan{AllPungs, ConcealedHand}, Swap: [2]Fan{FullyConcealedHand, SelfDrawn}},
	{By: PureTerminalChows, Drop: []Fan{FullFlush, AllChows, NoHonors}},
	{By: FourPureShiftedPungs, Drop: []Fan{AllPungs}},
	{By: AllTerminalsAndHonors, Drop: []Fan{AllPungs, OutsideHand, PungOfTerminalsOrHonors}},
	{By: AllEvenPungs, Drop: []Fan{AllPungs, AllSimples, NoHonors}},
	{By: UpperTiles, Drop: []Fan{NoHonors}},
	{By: MiddleTiles, Drop: []Fan{AllSimples, NoHonors}},
	{By: LowerTiles, Drop: []Fan{NoHonors}},
	{By: ThreeSuitedTerminalChows, Drop: []Fan{AllChows, NoHonors}},
	{By: AllFive, Drop: []Fan{AllSimples, NoHonors}},
	{By: UpperFour, Drop: []Fan{NoHonors}},
	{By: LowerFour, Drop: []Fan{NoHonors}},
	{By: BigThreeWinds, Less: PungOfTerminalsOrHonors, LessN: 3, LessUnless: [2]Fan{AllHonors, AllTerminalsAndHonors}},
	{By: ReversibleTiles, Drop: []Fan{OneVoidedSuit}},
	{By: LastTileDraw, Drop: []Fan{SelfDrawn}},
	{By: OutWithReplacementTile, Drop: []Fan{SelfDrawn}},
	{By: MeldedHand, Drop: []Fan{SingleWait}},
	{By: TwoDragonPungs, Drop: []Fan{DragonPung}},
	{By: FullyConcealedHand, Drop: []Fan{SelfDrawn}},
	{By: AllChows, Drop: []Fan{NoHonors}},
	{By: AllSimples, Drop: []Fan{NoHonors}},
}

// exclude applies the exclusion table to t, but for rule skip-1 when skip
// is not 0 (tests leave a rule out to show what it does).
func (t *fanTable) exclude(skip int) {
	for i := range exclusions {
		e := &exclusions[i]
		if t[e.By] == 0 || i == skip-1 {
			continue
		}
		for _, d := range e.Drop {
			t[d] = 0
		}
		if e.Swap[0] != 0 && t[e.Swap[0]] != 0 {
			t[e.Swap[0]] = 0
			t[e.Swap[1]] = 1
		}
		if e.Less != 0 && t[e.LessUnless[0]] == 0 && t[e.LessUnless[1]] == 0 {
			t[e.Less] -= e.LessN
		}
	}
}
