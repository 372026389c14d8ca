package table

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
// expected events out, in the style of etcd raft's interaction tests. A
// block is a command line, optional input lines, "----", and the expected
// output up to a blank line. go test -run TestScripts -update rewrites the
// expected output; review it as a diff.
//
// Commands:
//
//	new [tonpuu] [scores=a,b,c,d] [round=S4] [honba=n] [sticks=n]
//	deal             input: "<seat>: tiles" hands (13 tiles), "draws:" (from the
//	                 first draw on), "draw<i>:" (from the i-th draw on),
//	                 "rinshan:", "dora:", "ura:"; the rest filled in set order
//	<seat> <action> [tile or tiles] [tsumogiri]    one action, e.g. "2 chi 34m"
//	do               input: one action per line
//	pass             every seat the claim window waits for passes
//	tsumogiri <n>    n times: pass any window, then the seat to act discards
//	                 its drawn tile; shows only the events that are not
//	                 draws, discards or fishing
//	legal <seat>     the seat's legal actions
//	view <seat>      what the seat sees
//
// After every step the table's invariants are checked, and a refused action
// must leave the table exactly as it was.
func TestScripts(t *testing.T) {
	scripttest.Run(t, *update, func(t *testing.T) func(*scripttest.Block) []string {
		h := &harness{t: t}
		return h.run
	})
}

// harness drives one table for a script, checking invariants after every
// step.
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
		return h.deal(b.Input)
	case f[0] == "do":
		var out []string
		for _, l := range b.Input {
			out = append(out, h.action(l)...)
		}
		return out
	case f[0] == "pass":
		return h.passAll(false)
	case f[0] == "tsumogiri":
		n, _ := strconv.Atoi(f[1])
		var out []string
		for range n {
			out = append(out, h.passAll(true)...)
			if h.tb.Phase() != Turn {
				break
			}
			v := h.tb.View(h.tb.r.toAct)
			if !v.HasDrawn {
				out = append(out, "error: tsumogiri: no drawn tile")
				break
			}
			out = append(out, filterQuiet(h.step(Action{Seat: v.Seat, Type: Discard, Tile: v.Drawn, Tsumogiri: true}))...)
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
	rules := TenhouHanchan
	var cfg Config
	wind, number, honba, sticks := tile.WindEast, 1, 0, 0
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "tonpuu":
			rules = TenhouTonpuu
		case "scores":
			for i, s := range strings.Split(v, ",") {
				cfg.StartScores[i], _ = strconv.Atoi(s)
			}
		case "round":
			wind, _ = tile.ParseWind(v[:1])
			number, _ = strconv.Atoi(v[1:])
		case "honba":
			honba, _ = strconv.Atoi(v)
		case "sticks":
			sticks, _ = strconv.Atoi(v)
		default:
			return []string{"error: new: unknown argument " + a}
		}
	}
	cfg.Rules = rules
	tb, err := New(cfg)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	// Tests may start anywhere in a game: the fields are set directly.
	tb.wind, tb.number, tb.honba, tb.sticks = wind, number, honba, sticks
	tb.total += 1000 * sticks
	h.tb, h.lastSeq = tb, 0
	return []string{"ok"}
}

func (h *harness) deal(input []string) []string {
	var st wall.Stack
	dealer := h.tb.dealer()
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
			pos = wall.LivePos
		case strings.HasPrefix(k, "draw"):
			n, err := strconv.Atoi(k[4:])
			if err != nil {
				return []string{"error: deal: bad line " + l}
			}
			pos = func(i int) int { return wall.LivePos(n + i) }
		case k == "rinshan":
			pos = wall.RinshanPos
		case k == "dora":
			pos = wall.DoraPos
		case k == "ura":
			pos = wall.UraPos
		default:
			s, err := strconv.Atoi(k)
			if err != nil || s < 0 || s > 3 || len(ts) != 13 {
				return []string{"error: deal: bad line " + l}
			}
			off := int((Seat(s) + NumSeats - dealer) % NumSeats)
			pos = func(i int) int { return wall.DealPos(off, i) }
		}
		for i, x := range ts {
			if err := st.Put(pos(i), x); err != nil {
				return []string{"error: " + err.Error()}
			}
		}
	}
	w, err := st.Wall(h.tb.rules.Aka)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return h.step(Action{Type: Deal, Wall: &w})
}

// parseAction reads "<seat> <type> [tile or tiles] [tsumogiri]".
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
	for _, x := range f[2:] {
		if x == "tsumogiri" {
			a.Tsumogiri = true
			continue
		}
		ts, err := tile.Parse(x)
		if err != nil {
			return a, err
		}
		switch {
		case len(ts) == 1:
			a.Tile = ts[0]
		case len(ts) == 2:
			a.Tiles = [2]tile.Tile{ts[0], ts[1]}
		default:
			return a, fmt.Errorf("bad tiles in %q", l)
		}
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

// step applies a, checks the invariants, and formats the events; a refused
// action must leave the table exactly as it was.
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

// filterQuiet drops draws, discards and fishing events.
func filterQuiet(lines []string) []string {
	var out []string
	for _, l := range lines {
		_, body, _ := strings.Cut(l, "] ")
		if strings.HasPrefix(body, "drew ") || strings.HasPrefix(body, "discarded ") || strings.HasPrefix(body, "fishing ") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func formatView(v View) []string {
	out := []string{
		fmt.Sprintf("seat=%d phase=%v round=%v%d dealer=%d honba=%d sticks=%d wall=%d to_act=%d", v.Seat, v.Phase, v.RoundWind, v.Number, v.Dealer, v.Honba, v.RiichiSticks, v.WallLeft, v.ToAct),
		fmt.Sprintf("scores=%v dora=%s", v.Scores, tile.FormatInOrder(v.Dora)),
	}
	hand := "hand=" + tile.Format(v.Hand)
	if v.HasDrawn {
		hand += " drawn=" + v.Drawn.String()
	}
	out = append(out, hand)
	for s, sv := range v.Seats {
		var ds []string
		for _, d := range sv.Discards {
			x := d.Tile.String()
			if d.Riichi {
				x += "*"
			}
			if d.Called {
				x += "^"
			}
			ds = append(ds, x)
		}
		var ms []string
		for _, m := range sv.Melds {
			ms = append(ms, FormatMeld(m))
		}
		out = append(out, fmt.Sprintf("seat %d: score=%d riichi=%v hand_size=%d discards=[%s] melds=[%s]", s, sv.Score, sv.Riichi, sv.HandSize, strings.Join(ds, " "), strings.Join(ms, ", ")))
	}
	var legal []string
	for _, a := range v.Legal {
		legal = append(legal, strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat)))
	}
	return append(out, "legal: "+strings.Join(legal, ", "))
}
