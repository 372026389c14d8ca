// Package mcr is the judge of Chinese Official mahjong (MCR, 国标麻将):
// the 81 fans of the 1998 rule book with their exclusion rules, the
// 8-fan minimum (flowers not counted), and tenpai questions over the
// standard, seven-pairs, thirteen-orphans and knitted forms.
//
// Like package judge it is a pure function of a hand and a situation:
// no state between calls and no allocation when scoring. It reuses the
// judge's standard readings (every way concealed tiles split into sets
// and a pair) and adds what MCR needs on top: the special forms, the fan
// table, and the rules that keep a fan implied by another from counting
// twice. The rules are written out in docs/rules/mcr-fans.md.
package mcr

import "fmt"

// Fan is one of the 81 fans, numbered in the rule book's order (highest
// values first). The zero value is no fan.
type Fan uint8

// The fans, in the rule book's order. Their values are in Fan.Value.
const (
	BigFourWinds Fan = iota + 1
	BigThreeDragons
	AllGreen
	NineGates
	FourKongs
	SevenShiftedPairs
	ThirteenOrphans
	AllTerminals
	LittleFourWinds
	LittleThreeDragons
	AllHonors
	FourConcealedPungs
	PureTerminalChows
	QuadrupleChow
	FourPureShiftedPungs
	FourPureShiftedChows
	ThreeKongs
	AllTerminalsAndHonors
	SevenPairs
	GreaterHonorsAndKnittedTiles
	AllEvenPungs
	FullFlush
	PureTripleChow
	PureShiftedPungs
	UpperTiles
	MiddleTiles
	LowerTiles
	PureStraight
	ThreeSuitedTerminalChows
	PureShiftedChows
	AllFive
	TriplePung
	ThreeConcealedPungs
	LesserHonorsAndKnittedTiles
	KnittedStraight
	UpperFour
	LowerFour
	BigThreeWinds
	MixedStraight
	ReversibleTiles
	MixedTripleChow
	MixedShiftedPungs
	ChickenHand
	LastTileDraw
	LastTileClaim
	OutWithReplacementTile
	RobbingTheKong
	AllPungs
	HalfFlush
	MixedShiftedChows
	AllTypes
	MeldedHand
	TwoConcealedKongs
	TwoDragonPungs
	OutsideHand
	FullyConcealedHand
	TwoMeldedKongs
	LastTile
	DragonPung
	PrevalentWind
	SeatWind
	ConcealedHand
	AllChows
	TileHog
	DoublePung
	TwoConcealedPungs
	ConcealedKong
	AllSimples
	PureDoubleChow
	MixedDoubleChow
	ShortStraight
	TwoTerminalChows
	PungOfTerminalsOrHonors
	MeldedKong
	OneVoidedSuit
	NoHonors
	EdgeWait
	ClosedWait
	SingleWait
	SelfDrawn
	FlowerTiles

	// NumFans is the number of fans; Fan values run from 1 to NumFans.
	NumFans = int(FlowerTiles)
)

// fanInfo is a fan's name in the judge contract and its value in points.
var fanInfo = [NumFans + 1]struct {
	name  string
	value int8
}{
	BigFourWinds:                 {"big_four_winds", 88},
	BigThreeDragons:              {"big_three_dragons", 88},
	AllGreen:                     {"all_green", 88},
	NineGates:                    {"nine_gates", 88},
	FourKongs:                    {"four_kongs", 88},
	SevenShiftedPairs:            {"seven_shifted_pairs", 88},
	ThirteenOrphans:              {"thirteen_orphans", 88},
	AllTerminals:                 {"all_terminals", 64},
	LittleFourWinds:              {"little_four_winds", 64},
	LittleThreeDragons:           {"little_three_dragons", 64},
	AllHonors:                    {"all_honors", 64},
	FourConcealedPungs:           {"four_concealed_pungs", 64},
	PureTerminalChows:            {"pure_terminal_chows", 64},
	QuadrupleChow:                {"quadruple_chow", 48},
	FourPureShiftedPungs:         {"four_pure_shifted_pungs", 48},
	FourPureShiftedChows:         {"four_pure_shifted_chows", 32},
	ThreeKongs:                   {"three_kongs", 32},
	AllTerminalsAndHonors:        {"all_terminals_and_honors", 32},
	SevenPairs:                   {"seven_pairs", 24},
	GreaterHonorsAndKnittedTiles: {"greater_honors_and_knitted_tiles", 24},
	AllEvenPungs:                 {"all_even_pungs", 24},
	FullFlush:                    {"full_flush", 24},
	PureTripleChow:               {"pure_triple_chow", 24},
	PureShiftedPungs:             {"pure_shifted_pungs", 24},
	UpperTiles:                   {"upper_tiles", 24},
	MiddleTiles:                  {"middle_tiles", 24},
	LowerTiles:                   {"lower_tiles", 24},
	PureStraight:                 {"pure_straight", 16},
	ThreeSuitedTerminalChows:     {"three_suited_terminal_chows", 16},
	PureShiftedChows:             {"pure_shifted_chows", 16},
	AllFive:                      {"all_five", 16},
	TriplePung:                   {"triple_pung", 16},
	ThreeConcealedPungs:          {"three_concealed_pungs", 16},
	LesserHonorsAndKnittedTiles:  {"lesser_honors_and_knitted_tiles", 12},
	KnittedStraight:              {"knitted_straight", 12},
	UpperFour:                    {"upper_four", 12},
	LowerFour:                    {"lower_four", 12},
	BigThreeWinds:                {"big_three_winds", 12},
	MixedStraight:                {"mixed_straight", 8},
	ReversibleTiles:              {"reversible_tiles", 8},
	MixedTripleChow:              {"mixed_triple_chow", 8},
	MixedShiftedPungs:            {"mixed_shifted_pungs", 8},
	ChickenHand:                  {"chicken_hand", 8},
	LastTileDraw:                 {"last_tile_draw", 8},
	LastTileClaim:                {"last_tile_claim", 8},
	OutWithReplacementTile:       {"out_with_replacement_tile", 8},
	RobbingTheKong:               {"robbing_the_kong", 8},
	AllPungs:                     {"all_pungs", 6},
	HalfFlush:                    {"half_flush", 6},
	MixedShiftedChows:            {"mixed_shifted_chows", 6},
	AllTypes:                     {"all_types", 6},
	MeldedHand:                   {"melded_hand", 6},
	TwoConcealedKongs:            {"two_concealed_kongs", 6},
	TwoDragonPungs:               {"two_dragon_pungs", 6},
	OutsideHand:                  {"outside_hand", 4},
	FullyConcealedHand:           {"fully_concealed_hand", 4},
	TwoMeldedKongs:               {"two_melded_kongs", 4},
	LastTile:                     {"last_tile", 4},
	DragonPung:                   {"dragon_pung", 2},
	PrevalentWind:                {"prevalent_wind", 2},
	SeatWind:                     {"seat_wind", 2},
	ConcealedHand:                {"concealed_hand", 2},
	AllChows:                     {"all_chows", 2},
	TileHog:                      {"tile_hog", 2},
	DoublePung:                   {"double_pung", 2},
	TwoConcealedPungs:            {"two_concealed_pungs", 2},
	ConcealedKong:                {"concealed_kong", 2},
	AllSimples:                   {"all_simples", 2},
	PureDoubleChow:               {"pure_double_chow", 1},
	MixedDoubleChow:              {"mixed_double_chow", 1},
	ShortStraight:                {"short_straight", 1},
	TwoTerminalChows:             {"two_terminal_chows", 1},
	PungOfTerminalsOrHonors:      {"pung_of_terminals_or_honors", 1},
	MeldedKong:                   {"melded_kong", 1},
	OneVoidedSuit:                {"one_voided_suit", 1},
	NoHonors:                     {"no_honors", 1},
	EdgeWait:                     {"edge_wait", 1},
	ClosedWait:                   {"closed_wait", 1},
	SingleWait:                   {"single_wait", 1},
	SelfDrawn:                    {"self_drawn", 1},
	FlowerTiles:                  {"flower_tiles", 1},
}

// Valid reports whether f is one of the 81 fans.
func (f Fan) Valid() bool { return f >= 1 && int(f) <= NumFans }

// String is the fan's name in the judge contract ("all_pungs").
func (f Fan) String() string {
	if !f.Valid() {
		return fmt.Sprintf("Fan(%d)", uint8(f))
	}
	return fanInfo[f].name
}

// Value is the fan's value in points (1 to 88); 0 for an invalid Fan.
func (f Fan) Value() int {
	if !f.Valid() {
		return 0
	}
	return int(fanInfo[f].value)
}

// FanCount is one line of a scored hand: a fan, how many times it
// applies, and its points (its value times Count).
type FanCount struct {
	Fan    Fan
	Count  int
	Points int
}

// MinimumFan is the least a hand must be worth, flowers not counted, to
// be declared a win.
const MinimumFan = 8

// MaxFlowers is the number of flowers and seasons in the 144-tile set.
const MaxFlowers = 8
