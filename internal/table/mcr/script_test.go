package mcr

import (
	"flag"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/scripttest"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

var update = flag.Bool("update", false, "rewrite the expected output of the scenario scripts")

// TestScripts runs the scenario scripts under testdata/: commands in,
// expected events out. A block is a command line, optional input lines,
// "----", and the expected output up to a blank line. go test -run
// TestScripts -update rewrites the expected output; review it as a diff.
//
// Commands:
//
//	new [hands=n] [at=i]   a table; at=i starts it at hand i (from 0) of
//	                 the game, with its winds and seats
//	deal             input: "<seat>: tiles" hands (14 for the dealer, its
//	                 fourteenth last; 13 for the others), "draws:" (from the
//	                 first draw after the deal on), "back:" (the
//	                 replacements, from the last tile of the wall on),
//	                 "draw<i>:" (from the i-th draw on); the rest filled in
//	                 set order
//	<seat> <action> [tile]   one action, e.g. "2 discard 5m", "1 chi 345m"
//	                 (or "1 chi 3m": the run from 3m)
//	do               input: one action per line
//	pass             every seat the claim window waits for passes
//	play <n>         n times: pass any window, then the seat to act plays
//	                 its Default; shows only the events that are not draws
//	                 or discards
//	legal <seat>     the seat's legal actions
//	view <seat>      what the seat sees
//	winds <i>        the round wind and the seats' winds of hand i
//
// After every step the table's invariants are checked, and a refused
// action must leave the table exactly as it was.
func TestScripts(t *testing.T) {
	scripttest.Run(t, *update, func(t *testing.T) func(*scripttest.Block) []string {
		h := &harness{t: t}
		return h.run
	})
}

type harness struct {
	t       *testing.T
	tb      *Table
	lastSeq uint64
}

func (h *harness) run(b *scripttest.Block) []string {
	f := strings.Fields(b.Cmd)
	switch {
	case f[0] == "new":
		return h.newTable(f[1:])
	case f[0] == "winds":
		i, _ := strconv.Atoi(f[1])
		round, winds := Winds(i)
		return []string{fmt.Sprintf("round=%c winds=%s", "ESWN"[round], formatWinds(winds))}
	case h.tb == nil:
		return []string{"error: no table: start with new"}
	case f[0] == "deal":
		return h.deal(b.Input)
	case f[0] == "do":
		var out []string
		for _, l := range b.Input {
			out = append(out, h.action(l)...)
		}
		return out
	case f[0] == "pass":
		return h.passAll(false)
	case f[0] == "play":
		n, _ := strconv.Atoi(f[1])
		var out []string
		for range n {
			out = append(out, h.passAll(true)...)
			s, ok := h.tb.ToAct()
			if !ok {
				break
			}
			a, _ := h.tb.Default(s)
			out = append(out, filterQuiet(h.step(a))...)
		}
		return out
	case f[0] == "legal":
		s, _ := strconv.Atoi(f[1])
		var out []string
		for _, a := range h.tb.Legal(Seat(s)) {
			out = append(out, a.String())
		}
		if out == nil {
			out = []string{"(none)"}
		}
		return out
	case f[0] == "view":
		s, _ := strconv.Atoi(f[1])
		return formatView(h.tb.View(Seat(s)))
	case f[0][0] >= '0' && f[0][0] <= '9':
		return h.action(b.Cmd)
	}
	return []string{"error: unknown command " + f[0]}
}

func (h *harness) newTable(args []string) []string {
	rules := OneHand
	at := 0
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "hands":
			rules.Hands = n
			if n == 16 {
				rules = Default
			}
		case "at":
			at = n
		default:
			return []string{"error: new: unknown argument " + a}
		}
	}
	tb, err := New(Config{Rules: rules})
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	tb.hands = at // tests may start anywhere in the game
	h.tb, h.lastSeq = tb, 0
	return []string{"ok"}
}

// stack144 builds a 144-tile wall from known tiles at known positions,
// filling the rest in set order.
type stack144 struct {
	tiles [WallSize]tile.Tile
	set   [WallSize]bool
}

func (st *stack144) put(pos int, x tile.Tile) error {
	if pos < 0 || pos >= WallSize || st.set[pos] {
		return fmt.Errorf("position %d taken or out of the wall", pos)
	}
	st.tiles[pos], st.set[pos] = x, true
	return nil
}

func (st *stack144) wall() (wall.Wall144, error) {
	var left [tile.NumAllKinds]int
	for _, x := range wall.Set144() {
		left[x.Kind()]++
	}
	for pos, ok := range st.set {
		if ok {
			k := st.tiles[pos].Kind()
			if left[k] == 0 {
				return wall.Wall144{}, fmt.Errorf("too many %v", k)
			}
			left[k]--
		}
	}
	var w wall.Wall144
	k := 0
	for pos := range w.Tiles {
		if st.set[pos] {
			w.Tiles[pos] = st.tiles[pos]
			continue
		}
		for left[k] == 0 {
			k++
		}
		left[k]--
		w.Tiles[pos] = tile.Plain(tile.Kind(k))
	}
	return w, w.Check()
}

func (h *harness) deal(input []string) []string {
	var st stack144
	_, winds := Winds(h.tb.hands)
	for _, l := range input {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return []string{"error: deal: bad line " + l}
		}
		ts, err := tile.Parse(strings.TrimSpace(v))
		if err != nil {
			return []string{"error: " + err.Error()}
		}
		k = strings.TrimSpace(k)
		var pos func(i int) int
		switch {
		case k == "draws":
			pos = func(i int) int { return liveStart + 1 + i }
		case strings.HasPrefix(k, "draw"):
			n, err := strconv.Atoi(k[4:])
			if err != nil {
				return []string{"error: deal: bad line " + l}
			}
			pos = func(i int) int { return liveStart + 1 + n + i }
		case k == "back":
			pos = wall.Back144Pos
		default:
			s, err := strconv.Atoi(k)
			if err != nil || s < 0 || s > 3 {
				return []string{"error: deal: bad line " + l}
			}
			off := int(winds[s])
			if len(ts) != 13+b2i(off == 0) {
				return []string{"error: deal: bad line " + l}
			}
			pos = func(i int) int {
				if i == 13 {
					return liveStart
				}
				return wall.DealPos(off, i)
			}
		}
		for i, x := range ts {
			if err := st.put(pos(i), x); err != nil {
				return []string{"error: " + err.Error()}
			}
		}
	}
	w, err := st.wall()
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return h.step(Action{Type: Deal, Wall: &w})
}

// parseAction reads "<seat> <type> [tile] [run]".
func parseAction(l string) (Action, error) {
	f := strings.Fields(l)
	if len(f) < 2 {
		return Action{}, fmt.Errorf("bad action %q", l)
	}
	s, err := strconv.Atoi(f[0])
	if err != nil {
		return Action{}, fmt.Errorf("bad seat in %q", l)
	}
	a := Action{Seat: Seat(s)}
	for i, n := range actionNames {
		if n == f[1] && i > 0 {
			a.Type = ActionType(i)
		}
	}
	if a.Type == 0 {
		return a, fmt.Errorf("bad action type in %q", l)
	}
	if len(f) < 3 {
		return a, nil
	}
	ts, err := tile.Parse(f[2])
	if err != nil || len(ts) == 0 {
		return a, fmt.Errorf("bad tile in %q", l)
	}
	if a.Type == Chi {
		a.Run = ts[0].Kind() // "4m" or "456m": the run from 4m
	} else {
		a.Tile = ts[0]
	}
	return a, nil
}

func (h *harness) action(l string) []string {
	a, err := parseAction(l)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return h.step(a)
}

func (h *harness) step(a Action) []string {
	before := tableState(h.tb)
	evs, err := h.tb.Step(a)
	if err != nil {
		if !reflect.DeepEqual(before, tableState(h.tb)) {
			h.t.Errorf("refused %v changed the table", a)
		}
		return []string{"error: " + err.Error()}
	}
	checkStep(h.t, h.tb, evs, &h.lastSeq)
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.String()
	}
	return out
}

// tableState is everything a refused action must leave as it was: every
// seat's view and a spectator's.
func tableState(t *Table) [NumSeats + 1]View {
	var vs [NumSeats + 1]View
	for s := range vs {
		vs[s] = t.View(Seat(s))
	}
	return vs
}

// checkStep checks a step's events and the table after it.
func checkStep(t testing.TB, tb *Table, evs []Event, lastSeq *uint64) {
	t.Helper()
	for _, e := range evs {
		if e.Seq != *lastSeq+1 {
			t.Fatalf("event %v: seq after %d", e, *lastSeq)
		}
		*lastSeq = e.Seq
	}
	if err := tb.Verify(); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) passAll(quiet bool) []string {
	var out []string
	for h.tb.Phase() == ClaimWindow {
		for s := range Seat(NumSeats) {
			if h.tb.Waiting(s) {
				evs := h.step(Action{Seat: s, Type: Pass})
				if quiet {
					evs = filterQuiet(evs)
				}
				out = append(out, evs...)
				break
			}
		}
	}
	return out
}

func filterQuiet(lines []string) []string {
	var out []string
	for _, l := range lines {
		_, body, _ := strings.Cut(l, "] ")
		if strings.HasPrefix(body, "drew ") || strings.HasPrefix(body, "discarded ") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func formatView(v View) []string {
	out := []string{
		fmt.Sprintf("seat=%d phase=%v hand=%d round=%c dealer=%d winds=%s wall=%d to_act=%d scores=%v", v.Seat, v.Phase, v.Hand, "ESWN"[v.Round&3], v.Dealer, formatWinds(v.Winds), v.WallLeft, v.ToAct, v.Scores),
	}
	tiles := "tiles=" + tile.FormatInOrder(v.Tiles)
	if v.HasDrawn {
		tiles += " drawn=" + v.Drawn.String()
	}
	out = append(out, tiles)
	for s, sv := range v.Seats {
		var ds []string
		for _, d := range sv.Discards {
			x := d.Tile.String()
			if d.Called {
				x += "^"
			}
			ds = append(ds, x)
		}
		out = append(out, fmt.Sprintf("seat %d: score=%d hand_size=%d discards=[%s] melds=[%s] flowers=%s", s, sv.Score, sv.HandSize, strings.Join(ds, " "), formatMelds(sv.Melds), tile.FormatInOrder(sv.Flowers)))
	}
	var legal []string
	for _, a := range v.Legal {
		legal = append(legal, strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat)))
	}
	return append(out, "legal: "+strings.Join(legal, ", "))
}
