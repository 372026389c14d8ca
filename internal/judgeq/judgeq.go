// Package judgeq is one question to the judge as the outside world asks
// it: a hand in MPSZ notation, melds, situation flags and winds by name,
// checked and answered. It is its own package because two front ends ask
// exactly the same questions - the JSON-lines contract of `tablectl judge`
// (docs/judge.md) and the gRPC JudgeService - and
// must check them alike and answer them alike; each only decodes its wire
// format into a Question and encodes the Answer.
package judgeq

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrFlower is wrapped by the error of a tile field holding a flower: the
// notation is fine, but riichi has none. Notation errors wrap
// tile.ErrSyntax; both are bad tiles.
var ErrFlower = errors.New("riichi has no flowers")

// MaxCount bounds honba and riichi_sticks: far beyond any game, and small
// enough that every payment fits the int32 fields of the JudgeService
// (larger counts wrapped there, and overflowed even as Go ints).
const MaxCount = 100_000

// Question is one question. A nil field is absent: Rules is then riichi,
// the winds East, the indicators none; WinTile nil asks for shanten and
// waits instead of a score. The JSON names are those of the contract.
type Question struct {
	Rules          *string `json:"rules"`
	Hand           *string `json:"hand"`
	WinTile        *string `json:"win_tile"`
	Melds          []Meld  `json:"melds"`
	Tsumo          bool    `json:"tsumo"`
	Riichi         bool    `json:"riichi"`
	DoubleRiichi   bool    `json:"double_riichi"`
	Ippatsu        bool    `json:"ippatsu"`
	Rinshan        bool    `json:"rinshan"`
	Chankan        bool    `json:"chankan"`
	Haitei         bool    `json:"haitei"`
	Houtei         bool    `json:"houtei"`
	Tenhou         bool    `json:"tenhou"`
	Chiihou        bool    `json:"chiihou"`
	SeatWind       *string `json:"seat_wind"`
	RoundWind      *string `json:"round_wind"`
	DoraIndicators *string `json:"dora_indicators"`
	UraIndicators  *string `json:"ura_indicators"`
	Honba          int     `json:"honba"`
	RiichiSticks   int     `json:"riichi_sticks"`

	// Sichuan: the void suit (m, p or s), the discard after a kan, the
	// cap on fan (3 when absent).
	MissingSuit     *string `json:"missing_suit"`
	AfterKanDiscard bool    `json:"after_kan_discard"`
	FanCap          *int    `json:"fan_cap"`

	// Classical: the flowers and seasons set aside (1f..8f), the table's
	// limit (1000 when absent), fishing declared on the dealt hand.
	BonusTiles   *string `json:"bonus_tiles"`
	Limit        *int    `json:"limit"`
	OriginalCall bool    `json:"original_call"`

	// MCR: flowers and seasons set aside, the last tile of its kind.
	Flowers  int  `json:"flowers"`
	LastTile bool `json:"last_tile"`
}

// Meld is a declared meld: "chi", "pon" or "kan"; open unless a kan says
// Open false.
type Meld struct {
	Type  string `json:"type"`
	Tiles string `json:"tiles"`
	Open  *bool  `json:"open"`
}

// Answer is a checked question's answer: shanten and waits for a tenpai
// question, or the judge's result for a win question (Result.Win false
// with its Reason when the hand does not win).
type Answer struct {
	TenpaiQuestion bool
	Shanten        int
	// Waits are the kinds that complete a hand of 13 tiles less 3 per
	// meld; none for a hand of winning size.
	Waits tile.KindSet

	// Rules is the rule set that answered: "riichi", "sichuan", "mcr"
	// or "classical". It
	// says which of the results below a win question filled.
	Rules string

	Result judge.Result // riichi
	Points Points       // riichi

	Sichuan sichuan.Result

	// Classical: the scored win and the limit it was scored under; for a
	// tenpai question, the special hands fished for.
	Classical      classical.Result
	ClassicalLimit int
	Fishing        classical.Fishing

	MCR mcr.Result
}

// Points are the payments of a win that apply: Ron for a ron;
// TsumoNonDealer alone for the dealer's tsumo; both tsumo payments for
// another seat's.
type Points struct {
	Ron            *int
	TsumoDealer    *int
	TsumoNonDealer *int
}

// A ruleSet checks and answers the questions of one rule set; each reads
// the fields it needs from the Question.
type ruleSet func(q *Question) (Answer, error)

// ruleSets are the rule sets the judge answers, by the value of the
// "rules" field. A new rule set is one more line here and its own ask
// function.
var ruleSets = map[string]ruleSet{
	"riichi":    askRiichi,
	"sichuan":   askSichuan,
	"mcr":       askMCR,
	"classical": askClassical,
}

// plannedRules are named by the contract but not answered yet.
var plannedRules = map[string]bool{"chinese": true}

// Ask checks a question whole and answers it under the rule set its Rules
// field names (riichi when absent). Errors say which field is wrong and
// why; tile fields wrap tile.ErrSyntax or ErrFlower.
func Ask(q *Question) (Answer, error) {
	name := "riichi"
	if q.Rules != nil {
		name = *q.Rules
	}
	ask, ok := ruleSets[name]
	switch {
	case !ok && plannedRules[name]:
		return Answer{}, fmt.Errorf("rules %q are not supported yet: only %s", name, supportedRules())
	case !ok:
		return Answer{}, fmt.Errorf("unknown rules %q: only %s supported", name, supportedRules())
	}
	a, err := ask(q)
	a.Rules = name
	return a, err
}

// supportedRules lists the rule sets answered, for an error message:
// `"riichi" and "sichuan" are`.
func supportedRules() string {
	names := slices.Sorted(maps.Keys(ruleSets))
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	if len(names) == 1 {
		b.WriteString(" is")
	} else {
		b.WriteString(" are")
	}
	return b.String()
}

// checkSize checks the number of concealed tiles against the melds: 13
// less 3 per meld beside a winning tile; a tenpai question may also ask
// about a hand of winning size.
func checkSize(hand, melds int, win bool) error {
	size := 13 - 3*melds
	switch {
	case win && hand != size:
		return fmt.Errorf("hand has %d tiles: with %s and a win_tile it needs %d", hand, meldCount(melds), size)
	case !win && hand != size && hand != size+1:
		return fmt.Errorf("hand has %d tiles: with %s it needs %d (or %d)", hand, meldCount(melds), size, size+1)
	}
	return nil
}

// parseWinTile reads the win_tile field: one tile.
func parseWinTile(s string) (tile.Tile, error) {
	ts, err := ParseTiles("win_tile", s)
	if err != nil {
		return 0, err
	}
	if len(ts) != 1 {
		return 0, fmt.Errorf("win_tile: want one tile, have %d", len(ts))
	}
	return ts[0], nil
}

// askRiichi answers a riichi question.
func askRiichi(q *Question) (Answer, error) {
	if q.Hand == nil {
		return Answer{}, errors.New("missing hand")
	}
	hand, err := ParseTiles("hand", *q.Hand)
	if err != nil {
		return Answer{}, err
	}
	h := judge.Hand{Concealed: hand}
	if len(q.Melds) > 4 {
		return Answer{}, fmt.Errorf("%d melds: a hand has at most 4", len(q.Melds))
	}
	for i, jm := range q.Melds {
		m, err := ParseMeld(jm)
		if err != nil {
			return Answer{}, fmt.Errorf("meld %d: %w", i+1, err)
		}
		h.Melds = append(h.Melds, m)
	}
	var win tile.Tile
	if q.WinTile != nil {
		if win, err = parseWinTile(*q.WinTile); err != nil {
			return Answer{}, err
		}
	}
	if err := checkSize(len(hand), len(h.Melds), q.WinTile != nil); err != nil {
		return Answer{}, err
	}
	size := 13 - 3*len(h.Melds)
	all := append([]tile.Tile(nil), hand...)
	for _, m := range h.Melds {
		all = append(all, m.Tiles[:m.Len()]...)
	}
	if q.WinTile != nil {
		all = append(all, win)
	}
	if err := CheckCopies(all); err != nil {
		return Answer{}, err
	}

	if q.WinTile == nil {
		c := tile.CountsOf(hand)
		a := Answer{TenpaiQuestion: true, Shanten: judge.Shanten(&c)}
		if len(hand) == size {
			a.Waits = judge.Waits(&c)
		}
		return a, nil
	}

	s := judge.Situation{
		Tsumo:        q.Tsumo,
		Riichi:       q.Riichi || q.DoubleRiichi,
		DoubleRiichi: q.DoubleRiichi,
		Ippatsu:      q.Ippatsu,
		Rinshan:      q.Rinshan,
		Chankan:      q.Chankan,
		Haitei:       q.Haitei,
		Houtei:       q.Houtei,
		Tenhou:       q.Tenhou,
		Chiihou:      q.Chiihou,
		Honba:        q.Honba,
		RiichiSticks: q.RiichiSticks,
	}
	if s.SeatWind, err = ParseWind("seat_wind", q.SeatWind); err != nil {
		return Answer{}, err
	}
	if s.RoundWind, err = ParseWind("round_wind", q.RoundWind); err != nil {
		return Answer{}, err
	}
	if q.DoraIndicators != nil {
		if s.DoraIndicators, err = ParseTiles("dora_indicators", *q.DoraIndicators); err != nil {
			return Answer{}, err
		}
	}
	if q.UraIndicators != nil {
		if s.UraIndicators, err = ParseTiles("ura_indicators", *q.UraIndicators); err != nil {
			return Answer{}, err
		}
	}
	if s.Honba < 0 || s.RiichiSticks < 0 {
		return Answer{}, errors.New("honba and riichi_sticks cannot be negative")
	}
	if s.Honba > MaxCount || s.RiichiSticks > MaxCount {
		return Answer{}, fmt.Errorf("honba and riichi_sticks cannot exceed %d", MaxCount)
	}
	if err := judge.CheckSituation(&h, &s); err != nil {
		return Answer{}, err
	}

	a := Answer{Result: judge.Score(&h, win, &s, &judge.Default)}
	if !a.Result.Win {
		return a, nil
	}
	p := &a.Result.Pay
	switch {
	case !s.Tsumo:
		a.Points.Ron = &p.Ron
	case s.Dealer():
		a.Points.TsumoNonDealer = &p.TsumoNonDealer
	default:
		a.Points.TsumoDealer = &p.TsumoDealer
		a.Points.TsumoNonDealer = &p.TsumoNonDealer
	}
	return a, nil
}

func meldCount(n int) string {
	switch n {
	case 0:
		return "no meld"
	case 1:
		return "1 meld"
	}
	return fmt.Sprintf("%d melds", n)
}

// ParseTiles reads riichi tiles: MPSZ notation without flowers.
func ParseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	for _, t := range ts {
		if t.Kind().IsFlower() {
			return nil, fmt.Errorf("%s: %v: %w", field, t, ErrFlower)
		}
	}
	return ts, nil
}

// ParseMeld reads a meld: chi a run, pon a triplet, kan four of a kind;
// open unless a kan says open false.
func ParseMeld(jm Meld) (judge.Meld, error) {
	var m judge.Meld
	ts, err := ParseTiles("tiles", jm.Tiles)
	if err != nil {
		return m, err
	}
	open := jm.Open == nil || *jm.Open
	switch jm.Type {
	case "chi":
		m.Type = judge.Chi
	case "pon":
		m.Type = judge.Pon
	case "kan":
		m.Type = judge.OpenKan
		if !open {
			m.Type = judge.ClosedKan
		}
	default:
		return m, fmt.Errorf("unknown meld type %q: want chi, pon or kan", jm.Type)
	}
	if !open && !m.IsKan() {
		return m, fmt.Errorf("a %s is always open: only a kan can be closed", jm.Type)
	}
	if len(ts) != m.Len() {
		return m, fmt.Errorf("%s %q has %d tiles, want %d", jm.Type, jm.Tiles, len(ts), m.Len())
	}
	tile.Sort(ts)
	k := ts[0].Kind()
	for i, t := range ts {
		want := k
		if m.Type == judge.Chi {
			want = k + tile.Kind(i)
		}
		if t.Kind() != want || (m.Type == judge.Chi && (k.IsHonor() || k.Number() > 7)) {
			if m.Type == judge.Chi {
				return m, fmt.Errorf("chi %q is not a run of one suit", jm.Tiles)
			}
			return m, fmt.Errorf("%s %q is not %d of a kind", jm.Type, jm.Tiles, m.Len())
		}
	}
	copy(m.Tiles[:], ts)
	return m, nil
}

// CheckCopies rejects more than four tiles of a kind or two red fives of a
// suit among the tiles of a hand.
func CheckCopies(ts []tile.Tile) error {
	var c tile.Counts
	var red [3]int
	for _, t := range ts {
		c[t.Kind()]++
		if t.Red() {
			red[t.Kind().Suit()]++
		}
	}
	for k, n := range c {
		if n > 4 {
			return fmt.Errorf("%d copies of %v among hand, melds and win_tile: there are 4", n, tile.Kind(k))
		}
	}
	for s, n := range red {
		if n > 1 {
			return fmt.Errorf("%d red fives 0%c: there is one", n, tile.Suit(s).Letter())
		}
	}
	return nil
}

// ParseWind reads a wind letter, East when absent.
func ParseWind(field string, s *string) (tile.Wind, error) {
	if s == nil {
		return tile.WindEast, nil
	}
	w, err := tile.ParseWind(*s)
	if err != nil {
		return 0, fmt.Errorf("%s: want E, S, W or N, have %q", field, *s)
	}
	return w, nil
}
