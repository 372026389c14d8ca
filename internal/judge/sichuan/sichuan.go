// Package sichuan is the judge of Sichuan bloody battle (血战到底): pure
// functions of a seat's hand and its void suit. It scores a win in the
// fan-count model (fans, a cap, hand value 2^fan), refuses a win while the
// void suit is held, and answers what a table asks after every discard:
// is a seat ready (tenpai), may it win on a tile, and what is the best hand
// it could win (for the draw-end check of ready hands). docs/rules/sichuan-judge.md
// describes the model.
//
// Sichuan has 108 tiles: the three suits, no honours, no flowers, no red
// fives, so a hand is a count array and a meld is a type and a kind. The
// shape analysis is the riichi judge's (package judge): its part tables
// answer for the two live suits. Nothing here allocates.
package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// MeldType is the kind of a declared meld. Sichuan has no chi.
type MeldType uint8

// The meld types. The zero value is invalid.
const (
	Pon       MeldType = iota + 1 // a triplet claimed from a discard
	OpenKan                       // a quad claimed from a discard (直杠)
	AddedKan                      // a fourth tile added to a pon (巴杠)
	ClosedKan                     // four tiles declared from the hand (暗杠)
)

var meldNames = [...]string{"", "pon", "open_kan", "added_kan", "closed_kan"}

func (t MeldType) String() string {
	if int(t) < len(meldNames) && t != 0 {
		return meldNames[t]
	}
	return "invalid"
}

// Meld is a declared meld: its type and the kind of its tiles.
type Meld struct {
	Type MeldType
	Kind tile.Kind
}

// Len is the number of tiles in the meld: 3 for a pon, 4 for a kan.
func (m Meld) Len() int {
	if m.IsKan() {
		return 4
	}
	return 3
}

// IsKan reports whether the meld is a quad of any kind.
func (m Meld) IsKan() bool { return m.Type >= OpenKan && m.Type <= ClosedKan }

// valid reports whether m is a meld a Sichuan hand can hold.
func (m Meld) valid() bool { return m.Type >= Pon && m.Type <= ClosedKan && m.Kind < 27 }

// Hand is a seat's hand as the judge sees it: the concealed tiles, the
// declared melds and the void suit (定缺). Concealed holds 13 tiles less 3
// per meld between turns (and without the winning tile when scoring), one
// more after a draw.
type Hand struct {
	Concealed tile.Counts
	Melds     []Meld
	// Void is the missing suit: tile.Man, tile.Pin or tile.Sou. Any other
	// value leaves all three suits live (a table without 定缺).
	Void tile.Suit
}

// voidRange returns the kinds [lo, hi) of the void suit; empty when no
// suit is void.
func (h *Hand) voidRange() (lo, hi tile.Kind) {
	if h.Void > tile.Sou {
		return 0, 0
	}
	lo = tile.Kind(h.Void) * 9
	return lo, lo + 9
}

// isVoid reports whether kind k is of the void suit.
func (h *Hand) isVoid(k tile.Kind) bool {
	lo, hi := h.voidRange()
	return k >= lo && k < hi
}

// HoldsVoid reports whether the hand still holds a tile of its void suit,
// concealed or in a meld: such a hand may not win, and at an exhaustive
// draw its seat is a 花猪 (flower pig).
func HoldsVoid(h *Hand) bool {
	lo, hi := h.voidRange()
	for k := lo; k < hi; k++ {
		if h.Concealed[k] != 0 {
			return true
		}
	}
	for _, m := range h.Melds {
		if h.isVoid(m.Kind) {
			return true
		}
	}
	return false
}

// Situation is how a win came about: the flags that add fan.
type Situation struct {
	Tsumo           bool // self-drawn; false is a win on a discard
	Rinshan         bool // self-drawn on a kan's replacement tile (杠上花)
	AfterKanDiscard bool // won on the discard made right after the discarder's kan (杠上炮)
	Chankan         bool // robbed an added kan (抢杠胡)
	Haitei          bool // self-drew the last tile of the wall
	Houtei          bool // won on the last discard
}

// Rules are the scoring options of the fan-count model.
type Rules struct {
	// FanCap caps the fan of a hand: its value is 2^min(fan, FanCap).
	// A negative cap counts as 0.
	FanCap int
}

// Default is the model's default: a cap of 3 fan (a hand is worth at most
// 8 units).
var Default = Rules{FanCap: 3}

// Fan is one of the scoring elements of the model.
type Fan uint8

// The fans, in the order a win lists them.
const (
	Gen          Fan = iota + 1 // 根: each set of four identical tiles, 1 each
	DuiDuiHu                    // 对对胡: all pungs and kans and a pair, 1
	JinGouDiao                  // 金钩钓: the winning tile completes the pair of an all-pungs reading, 1
	QingYiSe                    // 清一色: every tile of one suit, 2
	QiDui                       // 七对: seven pairs, no melds, 2
	GangShangHua                // 杠上花: self-drawn on a kan's replacement, 1
	GangShangPao                // 杠上炮: won on the discard after the discarder's kan, 1
	QiangGangHu                 // 抢杠胡: robbed an added kan, 1
	HaiDi                       // 海底: the last tile or the last discard, 1
	numFans
)

var fanNames = [...]string{"", "gen", "dui_dui_hu", "jin_gou_diao", "qing_yi_se", "qi_dui",
	"gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di"}

// String is the fan's name in the judge contract.
func (f Fan) String() string {
	if f != 0 && f < numFans {
		return fanNames[f]
	}
	return "invalid"
}

// Line is one line of a scored win: a fan and how much fan it adds (1; 2
// for qing_yi_se and qi_dui; the number of sets of four for gen).
type Line struct {
	Fan   Fan
	Count int
}

// Reason says why a Result is not a win.
type Reason uint8

// The reasons, in the contract's names.
const (
	ReasonNone  Reason = iota // it is a win
	NotComplete               // the tiles do not form a winning shape
	MissingSuit               // the hand, a meld or the winning tile holds the void suit
)

var reasonNames = [...]string{"", "not_complete", "missing_suit"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid"
}

// Result is a scored win, or why a hand is not one.
type Result struct {
	Win    bool
	Reason Reason // why not, when Win is false
	Fan    int    // the total after the cap
	RawFan int    // the total before the cap: the sum of the lines
	Value  int    // hand value in units: 2^Fan

	lines  [numFans - 1]Line
	nLines int
}

// Lines returns the fans of the win in the contract's order; none for a
// plain hand (平胡). The slice is a view of r's own storage: it costs no
// allocation and is valid as long as r is.
func (r *Result) Lines() []Line { return r.lines[:r.nLines:r.nLines] }

func (r *Result) add(f Fan, n int) {
	if n > 0 {
		r.lines[r.nLines] = Line{Fan: f, Count: n}
		r.nLines++
		r.RawFan += n
	}
}
