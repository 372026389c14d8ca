package classical

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

var update = flag.Bool("update", false, "rewrite the expected output of the scenario scripts")

// TestScripts runs the scenario scripts under testdata/*.txt. A script is
// commands, each on a line starting with "> ", each followed by the
// output it should give, indented; comments start with "#". go test -run
// TestScripts -update rewrites the output; review it as a diff.
//
// Commands:
//
//	rules [limit=n] [fishing_first=on|off] [rounds=n]   a new table
//	seat <s> <tiles>     the 13 tiles dealt to seat s (the first hand's East is seat 0)
//	front <tiles>        the live wall from its first tile (East's fourteenth)
//	back <tiles>         the replacement tiles from the back
//	deal                 deal a wall made of the above, the rest in set order
//	<seat> <action> [tile]   one action, e.g. "2 discard 5m", "1 fish"
//	legal <seat>         the seat's legal actions
//	view <seat>          the public part of the view: fishing flags and scores
//
// After every step the invariants are checked, and a refused action must
// leave every view exactly as it was.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runScript(t, file)
		})
	}
}

type scriptState struct {
	t     *testing.T
	tb    *Table
	seats [NumSeats][]tile.Tile
	front []tile.Tile
	back  []tile.Tile
}

func runScript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st := &scriptState{t: t}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			out.WriteString(line + "\n")
			for _, o := range st.run(strings.TrimPrefix(line, "> ")) {
				out.WriteString("  " + o + "\n")
			}
		case strings.HasPrefix(line, "  "):
			// expected output: made again above
		default:
			out.WriteString(line + "\n")
		}
	}
	if *update {
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := out.String(); got != string(data) {
		t.Errorf("%s: output differs (go test -run TestScripts -update, then review the diff):\n%s", file, got)
	}
}

func (st *scriptState) run(cmd string) []string {
	t := st.t
	f := strings.Fields(cmd)
	must := func(ts []tile.Tile, err error) []tile.Tile {
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return ts
	}
	switch f[0] {
	case "rules":
		r := Default
		for _, o := range f[1:] {
			k, v, _ := strings.Cut(o, "=")
			switch k {
			case "limit":
				r.Limit, _ = strconv.Atoi(v)
			case "fishing_first":
				r.FishingFirst = v == "on"
			case "rounds":
				r.Rounds, _ = strconv.Atoi(v)
			default:
				t.Fatalf("%s: unknown option %s", cmd, k)
			}
		}
		tb, err := New(Config{Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		st.tb = tb
		return nil
	case "seat":
		s, _ := strconv.Atoi(f[1])
		st.seats[s] = must(tile.Parse(f[2]))
		return nil
	case "front":
		st.front = must(tile.Parse(f[1]))
		return nil
	case "back":
		st.back = must(tile.Parse(f[1]))
		return nil
	case "deal":
		w := st.wall()
		return st.step(Action{Type: Deal, Wall: &w})
	case "legal":
		s, _ := strconv.Atoi(f[1])
		return []string{fmt.Sprint(st.tb.Legal(Seat(s)))}
	case "view":
		s, _ := strconv.Atoi(f[1])
		v := st.tb.View(Seat(s))
		var fish []int
		for o, sv := range v.Seats {
			if sv.Fishing {
				fish = append(fish, o)
			}
		}
		return []string{fmt.Sprintf("phase %v, fishing %v, scores %v, hand %s", v.Phase, fish, v.Scores, tile.Format(v.Tiles))}
	}
	s, err := strconv.Atoi(f[0])
	if err != nil || len(f) < 2 {
		t.Fatalf("bad command %q", cmd)
	}
	a := Action{Seat: Seat(s)}
	for typ := Deal; typ <= Pass; typ++ {
		if typ.String() == f[1] {
			a.Type = typ
		}
	}
	if len(f) > 2 {
		a.Tile = must(tile.Parse(f[2]))[0]
	}
	return st.step(a)
}

// wall is the 144-tile wall of the script's hands and draws, the other
// tiles in set order.
func (st *scriptState) wall() wall.Wall144 {
	var w wall.Wall144
	var placed [wall.Size144]bool
	left := map[tile.Tile]int{}
	for _, x := range wall.Set144() {
		left[x]++
	}
	put := func(pos int, x tile.Tile) {
		if left[x] == 0 {
			st.t.Fatalf("too many %v", x)
		}
		left[x]--
		w.Tiles[pos], placed[pos] = x, true
	}
	for s, ts := range st.seats {
		for i, x := range ts {
			put(wall.DealPos(s, i), x)
		}
	}
	for i, x := range st.front {
		put(wall.DealSize+i, x)
	}
	for i, x := range st.back {
		put(wall.Back144Pos(i), x)
	}
	pos := 0
	for _, x := range wall.Set144() {
		if left[x] == 0 {
			continue
		}
		left[x]--
		for placed[pos] {
			pos++
		}
		w.Tiles[pos], placed[pos] = x, true
	}
	return w
}

func (st *scriptState) step(a Action) []string {
	var views [NumSeats]View
	for s := range views {
		views[s] = st.tb.View(Seat(s))
	}
	evs, err := st.tb.Step(a)
	if err != nil {
		for s := range views {
			if v := st.tb.View(Seat(s)); !reflect.DeepEqual(v, views[s]) {
				st.t.Fatalf("refused %v changed seat %d's view", a, s)
			}
		}
		return []string{"error: " + err.Error()}
	}
	if err := st.tb.Verify(); err != nil {
		st.t.Fatalf("after %v: %v", a, err)
	}
	var out []string
	for _, e := range evs {
		checkCodec(st.t, e.Body)
		out = append(out, e.String())
	}
	return out
}
