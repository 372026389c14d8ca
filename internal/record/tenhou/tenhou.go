// Package tenhou writes game records as tenhou.net/6 JSON logs, the format
// Tenhou's viewer (tenhou.net/6/#json=...), its mjlog2json service and
// tools such as mjai-reviewer read. The layout follows Tenhou's own output
// (docs/records.md sums it up): one 17-element array per round, tiles as
// two-digit codes, calls as strings whose letter position says whom the
// tile came from, results with Tenhou's point strings and Japanese yaku
// names.
package tenhou

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrNoEvents is returned for a record whose rounds carry no engine events
// (one read from JSON): replay it first (record.Replay, record.Verify).
var ErrNoEvents = errors.New("tenhou: the record has no engine events")

// Log is a tenhou.net/6 JSON log in the viewer's flavour.
type Log struct {
	Title [2]string `json:"title"`
	Name  [4]string `json:"name"`
	Rule  Rule      `json:"rule"`
	Log   [][]any   `json:"log"`
}

// Rule is the log's rule description.
type Rule struct {
	Disp string `json:"disp"` // e.g. 般南喰赤: room, length, open tanyao, red fives
	Aka  int    `json:"aka"`  // 1: red fives
}

// Write writes g as one tenhou.net/6 JSON log followed by a newline.
func Write(w io.Writer, g *record.Game) error {
	l, err := Convert(g)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return fmt.Errorf("tenhou: encode %q: %w", g.ID, err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// Convert builds the log of g, whose rounds must carry their engine events.
func Convert(g *record.Game) (*Log, error) {
	l := &Log{Title: [2]string{g.ID}, Log: make([][]any, 0, len(g.Rounds))}
	if g.TableID != g.ID {
		l.Title[1] = g.TableID
	}
	for s := range l.Name {
		l.Name[s] = fmt.Sprintf("seat %d", s)
		if s < len(g.Names) && g.Names[s] != "" {
			l.Name[s] = g.Names[s]
		}
	}
	l.Rule.Disp = "般南"
	if g.Rules.Length == "tonpuu" {
		l.Rule.Disp = "般東"
	}
	if g.Rules.Kuitan {
		l.Rule.Disp += "喰"
	}
	if g.Rules.Aka {
		l.Rule.Disp += "赤"
		l.Rule.Aka = 1
	}
	for i := range g.Rounds {
		r, err := convertRound(g.Rounds[i].Events)
		if err != nil {
			return nil, fmt.Errorf("tenhou: game %q round %d: %w", g.ID, i, err)
		}
		l.Log = append(l.Log, r)
	}
	return l, nil
}

// Code is a tile's two-digit code: 11..19 man, 21..29 pin, 31..39 sou,
// 41..47 east, south, west, north, white, green, red; 51, 52, 53 the red
// fives.
func Code(t tile.Tile) int {
	k := t.Kind()
	if t.Red() {
		return 51 + int(k.Suit())
	}
	if k.IsHonor() {
		return 41 + int(k-tile.East)
	}
	return 10*(int(k.Suit())+1) + k.Number()
}

// sortKey orders a dealt hand as Tenhou does: by code, a red five right
// after the plain fives of its suit.
func sortKey(t tile.Tile) int {
	if t.Red() {
		return 10*Code(tile.Plain(t.Kind())) + 1
	}
	return 10 * Code(t)
}

// plainCode is the code of t's kind (a red five written as a plain one).
func plainCode(t tile.Tile) int { return Code(tile.Plain(t.Kind())) }

type round struct {
	header   [3]int
	scores   [4]int
	dora     []int
	ura      []int
	haipai   [4][]int
	takes    [4][]any
	discards [4][]any
	result   []any

	dealer   table.Seat
	wind     tile.Wind
	riichi   [4]bool     // riichi accepted this round: its stick is not in the deltas
	pons     [4][]string // each seat's pon strings, by call
	ponKinds [4][]tile.Kind
}

func convertRound(evs []table.Body) ([]any, error) {
	if len(evs) == 0 {
		return nil, ErrNoEvents
	}
	var r round
	ended := false
	for _, e := range evs {
		switch b := e.(type) {
		case table.RoundStarted:
			r.dealer, r.wind = b.Dealer, b.RoundWind
			r.header = [3]int{4*int(b.RoundWind) + b.Number - 1, b.Honba, b.RiichiSticks}
			r.scores = b.Scores
			r.dora = []int{Code(b.Dora)}
		case table.Dealt:
			h := slices.Clone(b.Hand)
			slices.SortStableFunc(h, func(x, y tile.Tile) int { return sortKey(x) - sortKey(y) })
			for _, t := range h {
				r.haipai[b.Seat] = append(r.haipai[b.Seat], Code(t))
			}
		case table.Drew:
			r.takes[b.Seat] = append(r.takes[b.Seat], Code(b.Tile))
		case table.Discarded:
			var d any = Code(b.Tile)
			if b.Tsumogiri {
				d = 60
			}
			if b.Riichi {
				d = "r" + strconv.Itoa(codeOf(d))
			}
			r.discards[b.Seat] = append(r.discards[b.Seat], d)
		case table.Called:
			if err := r.call(b); err != nil {
				return nil, err
			}
		case table.DoraRevealed:
			r.dora = append(r.dora, Code(b.Indicator))
		case table.RiichiAccepted:
			r.riichi[b.Seat] = true
		case table.Won:
			r.win(b)
		case table.RoundEnded:
			r.end(b)
			ended = true
		}
	}
	if !ended {
		return nil, fmt.Errorf("%w: the round has no end", ErrNoEvents)
	}
	for s := range r.discards {
		// A daiminkan's placeholder is dropped when nothing follows it
		// (a win on the replacement tile), as Tenhou does.
		if d := r.discards[s]; len(d) > 0 && d[len(d)-1] == 0 {
			r.discards[s] = d[:len(d)-1]
		}
	}
	out := []any{r.header[:], r.scores[:], nonNil(r.dora), nonNil(r.ura)}
	for s := range 4 {
		out = append(out, nonNil(r.haipai[s]), nonNilAny(r.takes[s]), nonNilAny(r.discards[s]))
	}
	return append(out, r.result), nil
}

func codeOf(d any) int { return d.(int) }

func nonNil(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}

func nonNilAny(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

// rel is where from sits seen from s: 1 the next seat (shimocha), 2 the
// one opposite (toimen), 3 the previous one (kamicha).
func rel(s, from table.Seat) int { return (int(from) - int(s) + 4) % 4 }

// ownCodes returns the codes of the meld's tiles other than one copy of
// the called tile, plain ones first and a red five last, as Tenhou orders
// the own tiles of a pon or kan.
func ownCodes(m table.Meld, n int) []int {
	own := tile.WithoutOne(m.Tiles[:n], m.Called)
	slices.SortStableFunc(own, func(x, y tile.Tile) int { return sortKey(x) - sortKey(y) })
	codes := make([]int, len(own))
	for i, t := range own {
		codes[i] = Code(t)
	}
	return codes
}

func (r *round) call(b table.Called) error {
	s, m := b.Seat, b.Meld
	switch m.Type {
	case judge.Chi:
		own := ownCodes(m, 3)
		r.takes[s] = append(r.takes[s], fmt.Sprintf("c%d%d%d", Code(m.Called), own[0], own[1]))
	case judge.Pon:
		str := letterString("p", rel(s, m.From), Code(m.Called), ownCodes(m, 3))
		r.takes[s] = append(r.takes[s], str)
		r.pons[s] = append(r.pons[s], str)
		r.ponKinds[s] = append(r.ponKinds[s], m.Kind())
	case judge.OpenKan:
		r.takes[s] = append(r.takes[s], letterString("m", rel(s, m.From), Code(m.Called), ownCodes(m, 4)))
		r.discards[s] = append(r.discards[s], 0)
	case judge.AddedKan:
		i := slices.Index(r.ponKinds[s], m.Kind())
		if i < 0 {
			return fmt.Errorf("added kan of %v by seat %d without its pon", m.Kind(), s)
		}
		r.discards[s] = append(r.discards[s], strings.Replace(r.pons[s][i], "p", "k"+strconv.Itoa(Code(m.Added)), 1))
	case judge.ClosedKan:
		last := plainCode(m.Tiles[0])
		for _, t := range m.Tiles {
			if t.Red() {
				last = Code(t)
			}
		}
		b := plainCode(m.Tiles[0])
		r.discards[s] = append(r.discards[s], fmt.Sprintf("%d%d%da%d", b, b, b, last))
	}
	return nil
}

// letterString writes a pon ("p") or open kan ("m"): the letter and the
// called tile go first for a tile from the previous seat, after one own
// tile for the seat opposite, and last for the next seat.
func letterString(letter string, rel, called int, own []int) string {
	var b strings.Builder
	at := map[int]int{3: 0, 2: 1, 1: len(own)}[rel]
	for i := 0; i <= len(own); i++ {
		if i == at {
			b.WriteString(letter)
			b.WriteString(strconv.Itoa(called))
		}
		if i < len(own) {
			b.WriteString(strconv.Itoa(own[i]))
		}
	}
	return b.String()
}

func (r *round) win(w table.Won) {
	if len(r.result) == 0 {
		r.result = []any{"和了"}
	}
	if len(w.Ura) > 0 && len(r.ura) == 0 {
		for _, t := range w.Ura {
			r.ura = append(r.ura, Code(t))
		}
	}
	pao := w.Seat
	if w.PaoSet {
		pao = w.Pao
	}
	detail := []any{int(w.Seat), int(w.From), int(pao), pointString(&w, w.Seat == r.dealer)}
	for _, y := range yakuStrings(&w, r.wind, r.seatWind(w.Seat)) {
		detail = append(detail, y)
	}
	r.result = append(r.result, w.Deltas[:], detail)
}

func (r *round) seatWind(s table.Seat) tile.Wind {
	return tile.Wind((int(s) - int(r.dealer) + 4) % 4)
}

// drawNames are Tenhou's names of the ways a round ends without a win.
var drawNames = map[table.RoundEndKind]string{
	table.EndExhaustive:    "流局",
	table.EndNagashi:       "流し満貫",
	table.EndNineTerminals: "九種九牌",
	table.EndFourWinds:     "四風連打",
	table.EndFourRiichi:    "四家立直",
	table.EndFourKans:      "四槓散了",
	table.EndTripleRon:     "三家和了",
}

func (r *round) end(e table.RoundEnded) {
	if e.Kind == table.EndWin {
		return
	}
	// Tenhou's deltas leave out the riichi deposits of the round.
	d := e.Deltas
	zero := true
	for s := range d {
		if r.riichi[s] {
			d[s] += 1000
		}
		zero = zero && d[s] == 0
	}
	name := drawNames[e.Kind]
	if e.Kind == table.EndExhaustive {
		n := 0
		for _, t := range e.Tenpai {
			if t {
				n++
			}
		}
		switch n {
		case 0:
			name = "全員不聴"
		case 4:
			name = "全員聴牌"
		}
	}
	r.result = []any{name}
	if !zero {
		r.result = append(r.result, d[:])
	}
}

// pointString is Tenhou's description of a win's value: the rank (fu and
// han, or the limit) and the bare hand value without honba or sticks.
func pointString(w *table.Won, dealer bool) string {
	var rank string
	base := 0
	switch {
	case w.Yakuman > 0:
		rank, base = "役満", 8000*w.Yakuman
	case w.Limit == judge.KazoeYakuman || w.Limit == judge.Yakuman:
		rank, base = "役満", 8000
	case w.Limit == judge.Sanbaiman:
		rank, base = "三倍満", 6000
	case w.Limit == judge.Baiman:
		rank, base = "倍満", 4000
	case w.Limit == judge.Haneman:
		rank, base = "跳満", 3000
	case w.Limit == judge.Mangan:
		rank, base = "満貫", 2000
	default:
		rank, base = fmt.Sprintf("%d符%d飜", w.Fu, w.Han), w.Fu<<(w.Han+2)
	}
	p := judge.Pay(base, dealer, w.Tsumo, 0)
	switch {
	case !w.Tsumo:
		return fmt.Sprintf("%s%d点", rank, p.Ron)
	case dealer:
		return fmt.Sprintf("%s%d点∀", rank, p.TsumoNonDealer)
	}
	return fmt.Sprintf("%s%d-%d点", rank, p.TsumoNonDealer, p.TsumoDealer)
}
