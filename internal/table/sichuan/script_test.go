package sichuan

import (
	"flag"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/scripttest"
	"github.com/mahjong-authority/authority/internal/tile"
)

var update = flag.Bool("update", false, "rewrite the expected output of the scenario scripts")

// TestScripts runs the scenario scripts under testdata/: commands in,
// expected events out. A block is a command line, optional input lines,
// "----", and the expected output up to a blank line. go test -run
// TestScripts -update rewrites the expected output; review it as a diff.
//
// Commands:
//
//	new [bloody] [exchange=off] [voidfirst=off] [passlock=off] [cap=n] [hands=n] [dealer=n]
//	deal [dir=next|previous|across]   input: "<seat>: tiles" hands (14 for
//	                 the dealer, 13 for the others), "draws:" (from the first
//	                 draw on), "draw<i>:" (from the i-th draw on); the rest
//	                 filled in set order
//	<seat> <action> [tile, tiles or suit]   one action, e.g. "2 exchange 345p"
//	do               input: one action per line
//	pass             every seat the claim window waits for passes
//	defaults         every seat the table waits for plays its Default, in seat order
//	play <n>         n times: pass any window, then the seat to act plays its
//	                 Default; shows only the events that are not draws or discards
//	legal <seat>     the seat's legal actions
//	view <seat>      what the seat sees
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
	case h.tb == nil:
		return []string{"error: no table: start with new"}
	case f[0] == "deal":
		return h.deal(f[1:], b.Input)
	case f[0] == "do":
		var out []string
		for _, l := range b.Input {
			out = append(out, h.action(l)...)
		}
		return out
	case f[0] == "pass":
		return h.passAll(false)
	case f[0] == "defaults":
		var out []string
		for s := range Seat(NumSeats) {
			if a, ok := h.tb.Default(s); ok {
				out = append(out, h.step(a)...)
			}
		}
		return out
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
	rules := Default
	dealer := 0
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "bloody":
			rules = BloodyRiver
		case "exchange":
			rules.Exchange = v == "on"
		case "voidfirst":
			rules.VoidFirst = v == "on"
		case "passlock":
			rules.PassLock = v == "on"
		case "cap":
			rules.FanCap = n
		case "hands":
			rules.Hands = n
		case "dealer":
			dealer = n
		default:
			return []string{"error: new: unknown argument " + a}
		}
	}
	tb, err := New(Config{Rules: rules})
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	tb.dealer = Seat(dealer) // tests may start with any dealer
	h.tb, h.lastSeq = tb, 0
	return []string{"ok"}
}

func (h *harness) deal(args, input []string) []string {
	dir := ToNext
	for _, a := range args {
		switch a {
		case "dir=next":
			dir = ToNext
		case "dir=previous":
			dir = ToPrevious
		case "dir=across":
			dir = Across
		default:
			return []string{"error: deal: unknown argument " + a}
		}
	}
	var st Stack
	dealer := h.tb.dealer
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
			pos = LivePos
		case strings.HasPrefix(k, "draw"):
			n, err := strconv.Atoi(k[4:])
			if err != nil {
				return []string{"error: deal: bad line " + l}
			}
			pos = func(i int) int { return LivePos(n + i) }
		default:
			s, err := strconv.Atoi(k)
			off := (s + NumSeats - int(dealer)) % NumSeats
			if err != nil || s < 0 || s > 3 || len(ts) != 13+b2i(off == 0) {
				return []string{"error: deal: bad line " + l}
			}
			pos = func(i int) int { return DealPos(off, i) }
		}
		for i, x := range ts {
			if err := st.Put(pos(i), x); err != nil {
				return []string{"error: " + err.Error()}
			}
		}
	}
	w, err := st.Wall(dir)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return h.step(Action{Type: Deal, Wall: &w})
}

// parseAction reads "<seat> <type> [tile, tiles or suit]".
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
	if a.Type == Void {
		switch f[2] {
		case "m":
			a.Suit = tile.Man
		case "p":
			a.Suit = tile.Pin
		case "s":
			a.Suit = tile.Sou
		default:
			a.Suit = tile.Honor
		}
		return a, nil
	}
	ts, err := tile.Parse(f[2])
	if err != nil {
		return a, err
	}
	switch {
	case len(ts) == 1:
		a.Tile = ts[0]
	case len(ts) == 3 && a.Type == Exchange:
		a.Tiles = [3]tile.Tile{ts[0], ts[1], ts[2]}
	default:
		return a, fmt.Errorf("bad tiles in %q", l)
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
	before := cloneTable(h.tb)
	evs, err := h.tb.Step(a)
	if err != nil {
		if !reflect.DeepEqual(before, cloneTable(h.tb)) {
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
		fmt.Sprintf("seat=%d phase=%v hand=%d dealer=%d wall=%d to_act=%d scores=%v", v.Seat, v.Phase, v.Index, v.Dealer, v.WallLeft, v.ToAct, v.Scores),
	}
	tiles := "tiles=" + tile.Format(v.Tiles)
	if v.HasDrawn {
		tiles += " drawn=" + v.Drawn.String()
	}
	out = append(out, tiles)
	ex := "exchange direction=-"
	if v.Direction != 0 {
		ex = "exchange direction=" + v.Direction.String()
	}
	if v.Chose {
		ex += " gave=" + tile.FormatInOrder(v.Gave[:])
	}
	if v.Direction != 0 {
		ex += " got=" + tile.FormatInOrder(v.Got[:])
	}
	void := "void=-"
	if v.VoidSet {
		void = "void=" + v.Void.String()
	}
	out = append(out, ex+" "+void+fmt.Sprintf(" revealed=%v", v.Revealed))
	for s, sv := range v.Seats {
		var ds []string
		for _, d := range sv.Discards {
			x := d.Tile.String()
			if d.Called {
				x += "^"
			}
			ds = append(ds, x)
		}
		line := fmt.Sprintf("seat %d: score=%d hand_size=%d discards=[%s] melds=[%s] won=%s kan_money=%d", s, sv.Score, sv.HandSize, strings.Join(ds, " "), formatMelds(sv.Melds), tile.FormatInOrder(sv.Won), sv.KanMoney)
		if v.Revealed {
			line += " void=" + sv.Void.String()
		}
		if sv.Left {
			line += " left"
		}
		out = append(out, line)
	}
	var legal []string
	for _, a := range v.Legal {
		legal = append(legal, strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat)))
	}
	return append(out, "legal: "+strings.Join(legal, ", "))
}
