package table

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func TestGameOver(t *testing.T) {
	tests := []struct {
		name   string
		tonpuu bool
		round  string
		scores [4]int
		kind   RoundEndKind
		keep   bool
		want   bool
	}{
		{"east 1, nothing special", false, "E1", [4]int{40000, 20000, 20000, 20000}, EndWin, false, false},
		{"below zero ends at once", false, "E1", [4]int{60000, 20000, 20100, -100}, EndWin, false, true},
		{"zero is not below zero", false, "E1", [4]int{60000, 20000, 20000, 0}, EndWin, false, false},
		{"aborts never end it", false, "W4", [4]int{40000, 20000, 20000, 20000}, EndFourWinds, true, false},
		{"south 3 is not all-last", false, "S3", [4]int{40000, 20000, 20000, 20000}, EndWin, false, false},
		{"all-last, deal passes, someone has 30000", false, "S4", [4]int{30000, 25000, 25000, 20000}, EndExhaustive, false, true},
		{"all-last, deal passes, nobody has 30000", false, "S4", [4]int{29900, 25100, 25000, 20000}, EndWin, false, false},
		{"all-last, dealer keeps, dealer first with 30000", false, "S4", [4]int{20000, 20000, 20000, 40000}, EndWin, true, true},
		{"all-last, dealer keeps, dealer first under 30000", false, "S4", [4]int{25000, 25000, 20100, 29900}, EndExhaustive, true, false},
		{"all-last, dealer keeps, not first", false, "S4", [4]int{40000, 20000, 20000, 20000}, EndWin, true, false},
		{"all-last, dealer ties first: seat order puts it second", false, "S4", [4]int{35000, 15000, 15000, 35000}, EndWin, true, false},
		{"west 1, deal passes, nobody has 30000", false, "W1", [4]int{29000, 25000, 25000, 21000}, EndWin, false, false},
		{"west 2, someone reaches 30000", false, "W2", [4]int{30100, 25000, 25000, 19900}, EndWin, false, true},
		{"west 4 ends whatever the scores", false, "W4", [4]int{25000, 25000, 25000, 25000}, EndExhaustive, false, true},
		{"west 4, dealer keeps, not first: goes on", false, "W4", [4]int{29000, 25000, 25000, 21000}, EndExhaustive, true, false},
		{"nagashi counts as a draw", false, "S4", [4]int{33000, 25000, 25000, 17000}, EndNagashi, false, true},
		{"tonpuu east 3", true, "E3", [4]int{40000, 20000, 20000, 20000}, EndWin, false, false},
		{"tonpuu east 4 all-last", true, "E4", [4]int{30000, 25000, 25000, 20000}, EndWin, false, true},
		{"tonpuu south 4 is the last", true, "S4", [4]int{25000, 25000, 25000, 25000}, EndWin, false, true},
	}
	for _, tt := range tests {
		rules := TenhouHanchan
		if tt.tonpuu {
			rules = TenhouTonpuu
		}
		tb, err := New(Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := tile.ParseWind(tt.round[:1])
		tb.wind, tb.number, tb.scores = w, int(tt.round[1]-'0'), tt.scores
		if got := tb.gameOver(tt.kind, tt.keep); got != tt.want {
			t.Errorf("%s: gameOver(%v, keep %v) in %s with %v = %v, want %v", tt.name, tt.kind, tt.keep, tt.round, tt.scores, got, tt.want)
		}
	}
}

func TestRanks(t *testing.T) {
	tests := []struct {
		scores [4]int
		want   [4]int
	}{
		{[4]int{25000, 25000, 25000, 25000}, [4]int{1, 2, 3, 4}},
		{[4]int{10000, 30000, 30000, 30000}, [4]int{4, 1, 2, 3}},
		{[4]int{-500, 40000, 20000, 40500}, [4]int{4, 2, 3, 1}},
	}
	for _, tt := range tests {
		tb := &Table{scores: tt.scores}
		if got := tb.ranks(); got != tt.want {
			t.Errorf("ranks(%v) = %v, want %v", tt.scores, got, tt.want)
		}
	}
}

func TestNewConfig(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(zero config) error = %v, want ErrConfig", err)
	}
	if _, err := New(Config{Rules: TenhouHanchan, StartScores: [4]int{30000, 30000, 30000, -1}}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(negative start score) error = %v, want ErrConfig", err)
	}
	tb, err := New(Config{Rules: TenhouHanchan})
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.Scores(); got != [4]int{25000, 25000, 25000, 25000} {
		t.Errorf("New(default scores).Scores() = %v, want 25000 each", got)
	}
	if tb.Phase() != BetweenRounds {
		t.Errorf("New().Phase() = %v, want between_rounds", tb.Phase())
	}
}

func TestStepErrors(t *testing.T) {
	tb, _ := New(Config{Rules: TenhouHanchan})
	seed := [32]byte{9}
	good := wall.New(seed, true)
	shuffledWrong := good
	shuffledWrong.Tiles[0], shuffledWrong.Tiles[135] = shuffledWrong.Tiles[135], shuffledWrong.Tiles[0]
	dup := good
	dup.Seed = [32]byte{}
	dup.Tiles[0] = dup.Tiles[1]
	plain := wall.New(seed, false)
	tests := []struct {
		name string
		a    Action
		want error
	}{
		{"discard before the deal", Action{Type: Discard, Tile: tile.Plain(tile.M1)}, ErrPhase},
		{"deal without a wall", Action{Type: Deal}, ErrBadAction},
		{"deal a wall that is not its seed's shuffle", Action{Type: Deal, Wall: &shuffledWrong}, ErrBadWall},
		{"deal a wall with a tile twice", Action{Type: Deal, Wall: &dup}, ErrBadWall},
		{"deal a wall without red fives", Action{Type: Deal, Wall: &plain}, ErrBadWall},
	}
	for _, tt := range tests {
		before := cloneTable(tb)
		if _, err := tb.Step(tt.a); !errors.Is(err, tt.want) {
			t.Errorf("%s: Step error = %v, want %v", tt.name, err, tt.want)
		}
		var ae *ActionError
		if _, err := tb.Step(tt.a); !errors.As(err, &ae) || ae.Action.Type != tt.a.Type {
			t.Errorf("%s: Step error %v is not an *ActionError for the action", tt.name, err)
		}
		if tb.seq != before.seq || tb.phase != before.phase {
			t.Errorf("%s: a refused deal changed the table", tt.name)
		}
	}
	evs, err := tb.Step(Action{Type: Deal, Wall: &good})
	if err != nil {
		t.Fatal(err)
	}
	var last uint64
	checkStep(t, tb, evs, &last)
	dealer := tb.r.toAct
	other := dealer.Next()
	notHeld := tile.Plain(tile.Chun)
	for tb.r.seats[dealer].has(notHeld) > 0 {
		notHeld--
	}
	tests = []struct {
		name string
		a    Action
		want error
	}{
		{"deal during a round", Action{Type: Deal, Wall: &good}, ErrPhase},
		{"another seat discards", Action{Seat: other, Type: Discard, Tile: tb.r.seats[other].hand[0]}, ErrNotToAct},
		{"a tile not in hand", Action{Seat: dealer, Type: Discard, Tile: notHeld}, ErrIllegal},
		{"no such tile", Action{Seat: dealer, Type: Discard, Tile: tile.Tile(200)}, ErrBadAction},
		{"tsumogiri of a tile not drawn", Action{Seat: dealer, Type: Discard, Tile: notHeld + 1, Tsumogiri: true}, ErrIllegal},
		{"a pass in a turn", Action{Seat: dealer, Type: Pass}, ErrPhase},
		{"an unknown action", Action{Seat: dealer, Type: ActionType(99)}, ErrPhase},
		{"a seat that does not exist", Action{Seat: 7, Type: Discard}, ErrNotToAct},
	}
	for _, tt := range tests {
		before := cloneTable(tb)
		_, err := tb.Step(tt.a)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: Step(%v) error = %v, want %v", tt.name, tt.a, err, tt.want)
		}
		if after := cloneTable(tb); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: a refused action changed the table", tt.name)
		}
	}
}

func TestRiichiKanKeepsHand(t *testing.T) {
	tests := []struct {
		hand string // 13 tiles before the fourth copy is drawn
		kind string
		want bool
	}{
		{"111p45p234m567s88s", "1p", true},  // 111p is a triplet in every reading
		{"111222333m45p66s", "1m", false},   // also three runs of 123m
		{"11123m45p678s999s", "1m", false},  // waits 36p; after the kan, not tenpai
		{"2223m456p789s111z", "2m", false},  // waits 134m; after the kan, 3m only
		{"555m12345p678s99s", "5m", true},   // waits 36p either way
		{"444m345m6789p1122z", "4m", false}, // 444m345m can be 3x34+45...: reading changes
		{"777s123m456m999p1z", "7s", true},  // tanki 1z
		{"78999m44055566s", "9m", false},    // waits 69m; after the kan, 6m only
		{"11123m44055566s", "1m", false},    // waits 14m; after the kan, 4m only
	}
	for _, tt := range tests {
		var p seatState
		p.hand = p.handBuf[:0]
		for _, x := range tile.MustParse(tt.hand) {
			p.add(x)
		}
		p.updateWaits()
		k := tile.MustParse(tt.kind)[0]
		p.add(k)
		if got := riichiKanKeepsHand(&p, k.Kind()); got != tt.want {
			t.Errorf("riichiKanKeepsHand(%s + %s) = %v, want %v (waits %v)", tt.hand, tt.kind, got, tt.want, p.waits)
		}
	}
}

// TestRiichiKanKeepsHandOracle holds riichiKanKeepsHand to the rule read
// plainly, on random tenpai hands holding three of a kind k that draw the
// fourth: the waits after the kan (all four k in it) are the waits before,
// and for every wait every reading judge.Readings gives has a triplet of
// k.
func TestRiichiKanKeepsHandOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	allowed, tried := 0, 0
	for tried < 20000 {
		k, c := randomTenpaiWithTriplet(rng)
		var p seatState
		p.hand = p.handBuf[:0]
		for kk, n := range c {
			for range n {
				p.add(tile.Plain(tile.Kind(kk)))
			}
		}
		p.updateWaits()
		if p.shanten != 0 {
			continue
		}
		tried++
		want := true
		after := c
		after[k] = 0
		if _, w := tenpai(&p, &after); w.Without(k) != p.waits {
			want = false
		}
		var buf [8]judge.Reading
		for w := range p.waits.All() {
			full := c
			full[w]++
			for _, rd := range judge.Readings(&full, buf[:0]) {
				trip := false
				for _, g := range rd.Groups[:rd.N] {
					trip = trip || g.Type == judge.Triplet && g.Kind == k
				}
				want = want && trip
			}
		}
		p.add(tile.Plain(k))
		if got := riichiKanKeepsHand(&p, k); got != want {
			t.Fatalf("riichiKanKeepsHand(%v + %v) = %v, want %v (waits %v)", &c, k, got, want, p.waits)
		}
		if want {
			allowed++
		}
	}
	if allowed < 100 || allowed > tried-100 {
		t.Errorf("%d kans allowed of %d: the hands do not test both answers", allowed, tried)
	}
}

// randomTenpaiWithTriplet returns 13 tiles, three of them of kind k (a
// number kind), made of four sets and a pair less one tile that is not a
// k, so that the hand is usually tenpai.
func randomTenpaiWithTriplet(rng *rand.Rand) (tile.Kind, tile.Counts) {
	for {
		var c tile.Counts
		k := tile.Kind(rng.IntN(27))
		c[k] = 3
		ok := true
		// Most groups near k, so that runs through k are common.
		near := func() tile.Kind {
			if rng.IntN(3) == 0 {
				return tile.Kind(rng.IntN(tile.NumKinds))
			}
			lo := int(k) - int(k)%9
			return tile.Kind(lo + rng.IntN(9))
		}
		for range 3 {
			g := near()
			if rng.IntN(3) == 0 || g >= 27 || g%9 > 6 {
				c[g] += 3
			} else {
				c[g]++
				c[g+1]++
				c[g+2]++
			}
		}
		c[near()] += 2
		for kk, n := range c {
			if n > 4 || tile.Kind(kk) == k && n != 3 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		var held []tile.Kind
		for kk := range c.Kinds().All() {
			if kk != k {
				held = append(held, kk)
			}
		}
		if len(held) == 0 {
			continue
		}
		c[held[rng.IntN(len(held))]]--
		return k, c
	}
}

func TestCountReadings(t *testing.T) {
	tests := []struct {
		tiles string
		pair  bool
		want  int
	}{
		{"111222333m44p", true, 2}, // three triplets, or three runs of 123m
		{"111123m", false, 1},      // 111m 123m, whichever group is taken first
		{"112233m", false, 1},      // 123m twice
		{"11123m", true, 1},        // 11m 123m
		{"1112m", true, 0},
		{"", false, 1},
		{"", true, 0},
	}
	for _, tt := range tests {
		c := tile.CountsOf(tile.MustParse(tt.tiles))
		if got := countReadings(&c, tt.pair); got != tt.want {
			t.Errorf("countReadings(%s, %v) = %d, want %d", tt.tiles, tt.pair, got, tt.want)
		}
	}
}

func TestTenpaiAllFourHeld(t *testing.T) {
	tests := []struct {
		hand  string
		sh    int
		waits string
	}{
		{"1111m234p567s789s", 1, ""},    // waits only on a fifth 1m: not tenpai
		{"33388m23444456p", 0, "8m17p"}, // 4p, held four times, does not count; the others do
		{"123m456p789s1122z", 0, "12z"},
		{"1112345678999m", 0, "123456789m"},
	}
	for _, tt := range tests {
		var p seatState
		c := tile.CountsOf(tile.MustParse(tt.hand))
		sh, w := tenpai(&p, &c)
		if sh != tt.sh || w.String() != tt.waits {
			t.Errorf("tenpai(%s) = %d %q, want %d %q", tt.hand, sh, w, tt.sh, tt.waits)
		}
	}
}

func TestVerifyCatches(t *testing.T) {
	corrupt := []struct {
		name string
		f    func(tb *Table)
	}{
		{"a tile lost", func(tb *Table) { p := &tb.r.seats[1]; p.hand = p.hand[:len(p.hand)-1] }},
		{"a tile changed", func(tb *Table) {
			// The counts follow, so only the accounting of the 136 sees it.
			p := &tb.r.seats[2]
			x := p.hand[len(p.hand)-1]
			y := tile.Plain((x.Kind() + 1) % tile.NumKinds)
			if x.Kind() == tile.Chun {
				y = tile.Plain(tile.Haku)
			}
			p.counts[x.Kind()]--
			p.counts[y.Kind()]++
			p.hand[len(p.hand)-1] = y
			sortTiles(p.hand)
			p.updateWaits()
		}},
		{"points out of thin air", func(tb *Table) { tb.scores[0] += 1000 }},
		{"counts out of step", func(tb *Table) { tb.r.seats[3].counts[0]++ }},
		{"stale waits", func(tb *Table) { tb.r.seats[1].waits ^= 1 }},
	}
	for _, c := range corrupt {
		tb, _ := New(Config{Rules: TenhouHanchan})
		w := wall.New([32]byte{3}, true)
		if _, err := tb.Step(Action{Type: Deal, Wall: &w}); err != nil {
			t.Fatal(err)
		}
		if err := tb.Verify(); err != nil {
			t.Fatalf("fresh table: Verify() = %v", err)
		}
		c.f(tb)
		if err := tb.Verify(); err == nil {
			t.Errorf("%s: Verify() = nil, want an error", c.name)
		}
	}
}

// chiKinds, on the kinds a seat holds, says what the counts say: both other
// kinds of some run with the discard, within its suit.
func TestChiKinds(t *testing.T) {
	tests := []struct {
		hand string
		k    tile.Kind
		want bool
	}{
		{"23m", tile.M1, true},
		{"23m", tile.M4, true},
		{"13m", tile.M2, true},
		{"24m", tile.M5, false},
		{"89m", tile.M7, true},
		{"89m1p", tile.P1 - 1, false}, // 9m: no 10m
		{"9m1p", tile.P2, false},      // runs stay in their suit
		{"12p", tile.P3, true},
		{"12s", tile.S3, true},
		{"89s", tile.S7, true},
		{"12z", tile.West, false}, // honours make no runs
		{"2m", tile.M1, false},
	}
	for _, tt := range tests {
		var p seatState
		p.hand = p.handBuf[:0]
		for _, x := range tile.MustParse(tt.hand) {
			p.add(x)
		}
		if got := p.chiKinds().Has(tt.k); got != tt.want {
			t.Errorf("chiKinds(%s).Has(%v) = %v, want %v", tt.hand, tt.k, got, tt.want)
		}
	}
	// Every kind against random hands, by brute force on the counts.
	set := wall.Set(true)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
		var p seatState
		p.hand = p.handBuf[:0]
		for _, x := range set[:1+rng.IntN(13)] {
			p.add(x)
		}
		for k := range tile.Kind(tile.NumKinds) {
			want := false
			if k < 27 {
				n := int(k.Number())
				for lo := n - 2; lo <= n; lo++ { // the run lo, lo+1, lo+2
					if lo < 1 || lo+2 > 9 {
						continue
					}
					ok := true
					for m := lo; m <= lo+2; m++ {
						if m != n && p.counts[int(k)+m-n] == 0 {
							ok = false
						}
					}
					want = want || ok
				}
			}
			if got := p.chiKinds().Has(k); got != want {
				t.Fatalf("chiKinds(%s).Has(%v) = %v, want %v", tile.Format(p.hand), k, got, want)
			}
			for _, x := range []tile.Tile{tile.Plain(k), tile.RedM5, tile.RedP5, tile.RedS5} {
				if got, want := p.holds(x), p.has(x) > 0; got != want {
					t.Fatalf("holds(%s, %v) = %v, want %v", tile.Format(p.hand), x, got, want)
				}
			}
		}
	}
}

// tileLess is tile.Sort's order on every pair of faces.
func TestTileLess(t *testing.T) {
	set := wall.Set(true)
	for _, a := range set {
		for _, b := range set {
			ts := []tile.Tile{b, a}
			tile.Sort(ts)
			want := ts[0] == a && a != b
			if got := tileLess(a, b); got != want {
				t.Fatalf("tileLess(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// StepInto gives the events Step gives, into the caller's buffer, and
// leaves it as it was on error.
func TestStepInto(t *testing.T) {
	a, _ := New(Config{Rules: TenhouHanchan})
	b, _ := New(Config{Rules: TenhouHanchan})
	rng := rand.New(rand.NewPCG(11, 12))
	var buf []Event
	rounds := 0
	for steps := 0; a.Phase() != GameOver; steps++ {
		if steps > 200_000 {
			t.Fatal("the game did not end")
		}
		var act Action
		if a.Phase() == BetweenRounds {
			var seed [32]byte
			seed[0], seed[1] = byte(rounds), 0xaa
			w := wall.New(seed, true)
			act = Action{Type: Deal, Wall: &w}
			rounds++
		} else {
			for s := range Seat(NumSeats) {
				if legal := a.Legal(s); len(legal) > 0 {
					act = pick(rng, legal)
					break
				}
			}
		}
		// A refused action first: the buffer comes back as it was.
		kept := append(buf[:0], Event{Seq: 99})
		if got, err := b.StepInto(kept, Action{Seat: NumSeats, Type: Discard}); err == nil || len(got) != 1 || got[0].Seq != 99 {
			t.Fatalf("StepInto of a refused action = %v, %v; want the buffer back and an error", got, err)
		}
		want, err := a.Step(act)
		if err != nil {
			t.Fatal(err)
		}
		buf, err = b.StepInto(buf[:0], act)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 && len(buf) == 0 {
			continue
		}
		if !reflect.DeepEqual(want, buf) {
			t.Fatalf("step %d %v: Step gave %v, StepInto %v", steps, act, want, buf)
		}
	}
	if a.Scores() != b.Scores() {
		t.Errorf("final scores %v (Step) and %v (StepInto)", a.Scores(), b.Scores())
	}
}
