package mjai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/replay"
)

const gamesFile = "../../../testdata/replays/tenhou-games.jsonl"

var (
	sharedOnce sync.Once
	shared     []*record.Game
	sharedErr  error
)

// sharedRecords replays the shared games once for all tests.
func sharedRecords(t testing.TB) []*record.Game {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = loadShared() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func loadShared() ([]*record.Game, error) {
	f, err := os.Open(gamesFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*record.Game
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		c, err := replay.Decode(sc.Bytes())
		if err != nil {
			return nil, err
		}
		g, err := record.Replay(c)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// TestSharedGames writes the 99 shared games as mjai logs and checks each
// against the format (check): every event type and its fields, the order
// of events, the tiles of every hand and the scores.
func TestSharedGames(t *testing.T) {
	counts := map[string]int{}
	for _, g := range sharedRecords(t) {
		var buf bytes.Buffer
		if err := Write(&buf, g); err != nil {
			t.Fatal(err)
		}
		if err := check(buf.Bytes(), counts); err != nil {
			t.Errorf("game %s: %v", g.ID, err)
		}
	}
	// Every event type occurs in the shared games.
	for _, typ := range []string{"start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "dora", "reach", "reach_accepted", "hora", "ryukyoku", "end_kyoku", "end_game"} {
		if counts[typ] == 0 {
			t.Errorf("no %s event in the shared games", typ)
		}
	}
	if counts["start_game"] != 99 || counts["start_kyoku"] != 1028 || counts["hora"] != 870 {
		t.Errorf("counts %v, want 99 games, 1028 rounds, 870 wins", counts)
	}
}

// fields lists, per event type, the fields it must have and nothing else,
// with their JSON kinds: s string, i int (seat: 0..3), b bool, p tile,
// P list of tiles, I list of 4 ints, h 4 hands of 13 tiles, S list of 4
// strings.
var fields = map[string]map[string]byte{
	"start_game":     {"names": 'S'},
	"start_kyoku":    {"bakaze": 's', "dora_marker": 'p', "kyoku": 'i', "honba": 'i', "kyotaku": 'i', "oya": 'a', "scores": 'I', "tehais": 'h'},
	"tsumo":          {"actor": 'a', "pai": 'p'},
	"dahai":          {"actor": 'a', "pai": 'p', "tsumogiri": 'b'},
	"chi":            {"actor": 'a', "target": 'a', "pai": 'p', "consumed": 'P'},
	"pon":            {"actor": 'a', "target": 'a', "pai": 'p', "consumed": 'P'},
	"daiminkan":      {"actor": 'a', "target": 'a', "pai": 'p', "consumed": 'P'},
	"kakan":          {"actor": 'a', "pai": 'p', "consumed": 'P'},
	"ankan":          {"actor": 'a', "consumed": 'P'},
	"dora":           {"dora_marker": 'p'},
	"reach":          {"actor": 'a'},
	"reach_accepted": {"actor": 'a'},
	"hora":           {"actor": 'a', "target": 'a', "deltas": 'I', "ura_markers": 'P'},
	"ryukyoku":       {"deltas": 'I'},
	"end_kyoku":      {},
	"end_game":       {},
}

var consumedLen = map[string]int{"chi": 2, "pon": 2, "daiminkan": 3, "kakan": 3, "ankan": 4}

var paiNames = func() map[string]bool {
	m := map[string]bool{"5mr": true, "5pr": true, "5sr": true}
	for _, s := range "mps" {
		for n := 1; n <= 9; n++ {
			m[fmt.Sprintf("%d%c", n, s)] = true
		}
	}
	for _, s := range "ESWNPFC" {
		m[string(s)] = true
	}
	return m
}()

type event struct {
	typ  string
	m    map[string]any
	line int
}

func (e *event) int(k string) int { return int(e.m[k].(float64)) }
func (e *event) str(k string) string {
	s, _ := e.m[k].(string)
	return s
}
func (e *event) strs(k string) []string {
	var out []string
	for _, v := range e.m[k].([]any) {
		out = append(out, v.(string))
	}
	return out
}
func (e *event) ints(k string) []int {
	var out []int
	for _, v := range e.m[k].([]any) {
		out = append(out, int(v.(float64)))
	}
	return out
}

// parse decodes a log and checks every event's fields.
func parse(log []byte) ([]event, error) {
	var evs []event
	for n, line := range bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		e := event{m: m, line: n + 1}
		e.typ = e.str("type")
		want, ok := fields[e.typ]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown type %q", n+1, e.typ)
		}
		if len(m) != len(want)+1 {
			return nil, fmt.Errorf("line %d: %s has fields %v, want %v", n+1, e.typ, keys(m), want)
		}
		for k, kind := range want {
			if err := checkField(m[k], kind); err != nil {
				return nil, fmt.Errorf("line %d: %s.%s: %v", n+1, e.typ, k, err)
			}
		}
		if n, ok := consumedLen[e.typ]; ok && len(e.strs("consumed")) != n {
			return nil, fmt.Errorf("line %d: %s consumes %d tiles, want %d", e.line, e.typ, len(e.strs("consumed")), n)
		}
		evs = append(evs, e)
	}
	return evs, nil
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func checkField(v any, kind byte) error {
	switch kind {
	case 's':
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%v is not a string", v)
		}
	case 'i', 'a':
		f, ok := v.(float64)
		if !ok || f != float64(int(f)) {
			return fmt.Errorf("%v is not an int", v)
		}
		if kind == 'a' && (f < 0 || f > 3) {
			return fmt.Errorf("seat %v", f)
		}
	case 'b':
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%v is not a bool", v)
		}
	case 'p':
		if s, ok := v.(string); !ok || !paiNames[s] {
			return fmt.Errorf("%v is not a tile", v)
		}
	case 'P', 'S':
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%v is not a list", v)
		}
		if kind == 'S' && len(l) != 4 {
			return fmt.Errorf("%d names", len(l))
		}
		for _, x := range l {
			if kind == 'P' {
				if err := checkField(x, 'p'); err != nil {
					return err
				}
			} else if err := checkField(x, 's'); err != nil {
				return err
			}
		}
	case 'I':
		l, ok := v.([]any)
		if !ok || len(l) != 4 {
			return fmt.Errorf("%v is not 4 ints", v)
		}
		for _, x := range l {
			if err := checkField(x, 'i'); err != nil {
				return err
			}
		}
	case 'h':
		l, ok := v.([]any)
		if !ok || len(l) != 4 {
			return fmt.Errorf("%v is not 4 hands", v)
		}
		for _, h := range l {
			if hl, ok := h.([]any); !ok || len(hl) != 13 {
				return fmt.Errorf("hand %v is not 13 tiles", h)
			}
			if err := checkField(h, 'P'); err != nil {
				return err
			}
		}
	}
	return nil
}

// check validates a log: fields (parse), then order and content by
// playing it: every hand is followed from its deal, every tile a seat
// gives up must be in its hand, every draw is followed by that seat's
// move, riichi is declared, discarded and accepted in that order, kan
// indicators come where libriichi puts them (after an ankan, before the
// next discard after a daiminkan or kakan), and each round's scores are
// the previous round's plus the deltas minus the riichi sticks.
func check(log []byte, counts map[string]int) error {
	evs, err := parse(log)
	if err != nil {
		return err
	}
	for _, e := range evs {
		counts[e.typ]++
	}
	if len(evs) < 2 || evs[0].typ != "start_game" {
		return fmt.Errorf("the log does not start with start_game")
	}
	var (
		hands    [4][]string
		scores   []int
		expect   []int // the next start_kyoku's scores, once known
		inRound  bool
		last     *event // the previous event of the round
		drawn    [4]string
		reach    = -1 // seat whose reach awaits its dahai
		reached  = -1 // seat whose riichi dahai awaits acceptance
		pending  int  // kan indicators owed by open and added kans
		kans     int
		doraSeen int
		ended    bool
	)
	take := func(s int, t string) error {
		i := slices.Index(hands[s], t)
		if i < 0 {
			return fmt.Errorf("seat %d gives up %s, its hand is %v", s, t, hands[s])
		}
		hands[s] = slices.Delete(hands[s], i, i+1)
		return nil
	}
	for i := 1; i < len(evs); i++ {
		e := &evs[i]
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d (%s): %s", e.line, e.typ, fmt.Sprintf(format, args...))
		}
		if ended {
			return fail("event after end_game")
		}
		if !inRound && e.typ != "start_kyoku" && e.typ != "end_game" {
			return fail("outside a round")
		}
		if reach >= 0 && e.typ != "dora" && (e.typ != "dahai" || e.int("actor") != reach) {
			return fail("reach of seat %d not followed by its discard", reach)
		}
		if reached >= 0 && e.typ != "reach_accepted" && e.typ != "hora" && e.typ != "ryukyoku" && e.typ != "end_kyoku" {
			return fail("riichi discard of seat %d followed by %s, not reach_accepted or a win", reached, e.typ)
		}
		if last != nil && last.typ == "tsumo" && e.typ != "dahai" && e.typ != "reach" && e.typ != "ankan" && e.typ != "kakan" && e.typ != "hora" && e.typ != "ryukyoku" && e.typ != "dora" {
			return fail("a draw followed by %s", e.typ)
		}
		if a, ok := e.m["actor"]; ok && last != nil && last.typ == "tsumo" && e.typ != "hora" && int(a.(float64)) != last.int("actor") {
			return fail("seat %d acts after seat %d drew", int(a.(float64)), last.int("actor"))
		}
		switch e.typ {
		case "start_kyoku":
			if inRound {
				return fail("round not ended")
			}
			inRound, kans, pending, doraSeen = true, 0, 0, 0
			scores = e.ints("scores")
			if expect != nil && !slices.Equal(scores, expect) {
				return fail("scores %v, the previous round ends with %v", scores, expect)
			}
			expect = slices.Clone(scores)
			for s, h := range e.m["tehais"].([]any) {
				hands[s] = nil
				for _, t := range h.([]any) {
					hands[s] = append(hands[s], t.(string))
				}
			}
			if k := e.int("kyoku"); k < 1 || k > 4 || e.int("oya") != k-1 {
				return fail("kyoku %d oya %d", k, e.int("oya"))
			}
			if !strings.Contains("ESW", e.str("bakaze")) {
				return fail("bakaze %s", e.str("bakaze"))
			}
			if n := &evs[i+1]; n.typ != "tsumo" || n.int("actor") != e.int("oya") {
				return fail("the dealer does not draw first")
			}
		case "tsumo":
			s := e.int("actor")
			hands[s] = append(hands[s], e.str("pai"))
			drawn[s] = e.str("pai")
		case "dahai":
			s := e.int("actor")
			if err := take(s, e.str("pai")); err != nil {
				return fail("%v", err)
			}
			if e.m["tsumogiri"].(bool) && (last.typ != "tsumo" && last.typ != "reach" && last.typ != "dora" || drawn[s] != e.str("pai")) {
				return fail("tsumogiri of %s, seat %d drew %s", e.str("pai"), s, drawn[s])
			}
			if pending > 0 {
				return fail("a kan indicator is owed before this discard")
			}
			if reach == s {
				reach, reached = -1, s
			}
			drawn[s] = ""
		case "reach":
			reach = e.int("actor")
		case "reach_accepted":
			if e.int("actor") != reached {
				return fail("seat %d accepted, seat %d declared", e.int("actor"), reached)
			}
			reached = -1
			expect[e.int("actor")] -= 1000
		case "chi", "pon", "daiminkan":
			s := e.int("actor")
			if last.typ != "dahai" && last.typ != "reach_accepted" || e.int("target") == s {
				return fail("a call not on another seat's discard")
			}
			if e.typ == "chi" && e.int("target") != (s+3)%4 {
				return fail("chi from seat %d by seat %d", e.int("target"), s)
			}
			for _, t := range e.strs("consumed") {
				if err := take(s, t); err != nil {
					return fail("%v", err)
				}
			}
			if e.typ == "daiminkan" {
				kans++
				pending++
				if n := &evs[i+1]; n.typ != "tsumo" || n.int("actor") != s {
					return fail("no replacement draw after the kan")
				}
			} else if n := &evs[i+1]; n.typ != "dahai" || n.int("actor") != s {
				return fail("a call not followed by the caller's discard")
			}
		case "kakan", "ankan":
			s := e.int("actor")
			if e.typ == "kakan" {
				if err := take(s, e.str("pai")); err != nil {
					return fail("%v", err)
				}
				pending++
			} else {
				for _, t := range e.strs("consumed") {
					if err := take(s, t); err != nil {
						return fail("%v", err)
					}
				}
				if n := &evs[i+1]; n.typ != "dora" {
					return fail("a closed kan does not reveal its indicator at once")
				}
				pending++ // paid by the next event
			}
			kans++
		case "dora":
			doraSeen++
			if pending == 0 {
				return fail("an indicator no kan owes")
			}
			pending--
		case "hora":
			d := e.ints("deltas")
			for s := range expect {
				expect[s] += d[s]
			}
			if s, tg := e.int("actor"), e.int("target"); s == tg && drawn[s] == "" {
				return fail("tsumo by seat %d without a draw", s)
			}
		case "ryukyoku":
			d := e.ints("deltas")
			for s := range expect {
				expect[s] += d[s]
			}
		case "end_kyoku":
			if last.typ != "hora" && last.typ != "ryukyoku" {
				return fail("the round ends without a result")
			}
			if doraSeen > kans {
				return fail("%d kan indicators for %d kans", doraSeen, kans)
			}
			inRound, last, reach, reached, drawn = false, nil, -1, -1, [4]string{}
			continue
		case "end_game":
			ended = true
		}
		last = e
	}
	if inRound {
		return fmt.Errorf("the log ends inside a round")
	}
	return nil
}

// TestCheckCatches makes sure check is a real test: each broken variant of
// a real log must fail it.
func TestCheckCatches(t *testing.T) {
	var logs [][]string
	for _, g := range sharedRecords(t) {
		var buf bytes.Buffer
		if err := Write(&buf, g); err != nil {
			t.Fatal(err)
		}
		logs = append(logs, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"))
	}
	// logWith returns a copy of the first log that has every sub, and
	// the line of the first sub.
	logWith := func(subs ...string) ([]string, int) {
		for _, ls := range logs {
			at := -1
			for _, sub := range subs {
				i := slices.IndexFunc(ls, func(l string) bool { return strings.Contains(l, sub) })
				if i < 0 {
					at = -2
					break
				}
				if at == -1 {
					at = i
				}
			}
			if at >= 0 {
				return slices.Clone(ls), at
			}
		}
		t.Fatalf("no shared game with %v", subs)
		return nil, 0
	}
	join := func(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }
	broken := map[string][]byte{}
	{
		ls, i := logWith(`"type":"reach"`)
		ls[i], ls[i+1] = ls[i+1], ls[i]
		broken["reach after its discard"] = join(ls)
	}
	{
		ls, i := logWith(`"type":"reach_accepted"`)
		broken["reach_accepted dropped"] = join(slices.Delete(ls, i, i+1))
	}
	{
		ls, i := logWith(`"type":"ankan"`)
		broken["ankan's indicator dropped"] = join(slices.Delete(ls, i+1, i+2))
	}
	{
		ls, i := logWith(`"type":"daiminkan"`)
		broken["daiminkan's replacement draw dropped"] = join(slices.Delete(ls, i+1, i+2))
	}
	{
		ls, i := logWith(`"type":"kakan"`, `"type":"dora"`)
		for j := i; j < len(ls); j++ {
			if strings.Contains(ls[j], `"type":"dora"`) {
				broken["kakan's indicator dropped"] = join(slices.Delete(ls, j, j+1))
				break
			}
		}
	}
	{
		// The dealer's first discard (line 3) becomes a tile that is
		// neither in its deal nor its first draw.
		ls, _ := logWith(`"type":"end_game"`)
		var start struct{ Tehais [4][]string }
		var first struct{ Pai string }
		if err := json.Unmarshal([]byte(ls[1]), &start); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(ls[2]), &first); err != nil {
			t.Fatal(err)
		}
		hand := append(start.Tehais[0], first.Pai)
		for p := range paiNames {
			if !slices.Contains(hand, p) {
				ls[3] = fmt.Sprintf(`{"type":"dahai","actor":0,"pai":%q,"tsumogiri":false}`, p)
				break
			}
		}
		broken["a discard of a tile not in the hand"] = join(ls)
	}
	{
		ls, i := logWith(`"type":"dahai"`)
		ls[i] = strings.Replace(ls[i], `{`, `{"x":1,`, 1)
		broken["an unknown field"] = join(ls)
	}
	{
		ls, i := logWith(`"type":"hora"`)
		var m map[string]any
		if err := json.Unmarshal([]byte(ls[i]), &m); err != nil {
			t.Fatal(err)
		}
		m["deltas"].([]any)[0] = m["deltas"].([]any)[0].(float64) + 100
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		ls[i] = string(b)
		broken["deltas that do not add up to the next scores"] = join(ls)
	}
	{
		ls, _ := logWith(`"type":"end_game"`)
		broken["a round after end_game"] = join(append(ls, ls[1:4]...))
	}
	for name, log := range broken {
		err := check(log, map[string]int{})
		if err == nil {
			t.Errorf("check(%s) = nil, want an error", name)
		}
		t.Logf("check(%s) = %v", name, err)
	}
	if len(broken) != 9 {
		t.Errorf("%d broken logs, want 9", len(broken))
	}
}

// TestSeededGame checks the export of a game played on seeded walls with
// open and added kans (testdata/records/seeded-game.jsonl), rebuilt from
// its native record.
func TestSeededGame(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/records/seeded-game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Events(g); !errors.Is(err, ErrNoEvents) {
		t.Errorf("Events(record read from JSON) error = %v, want ErrNoEvents", err)
	}
	if g, err = record.Rebuild(g); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	if err := check(buf.Bytes(), counts); err != nil {
		t.Fatal(err)
	}
	if counts["daiminkan"] == 0 || counts["kakan"] == 0 || counts["dora"] < 3 {
		t.Errorf("counts %v: want open and added kans with their indicators", counts)
	}
}
