package tile

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in     string
		sorted string
		n      int
	}{
		{"", "", 0},
		{"123m", "123m", 3},
		{"1m2m3m", "123m", 3},
		{"3m21m", "123m", 3},
		{"123m456p789s1234567z", "123m456p789s1234567z", 16},
		{"0m5m", "05m", 2},
		{"550p", "055p", 3},
		{"0s", "0s", 1},
		{"12345678f", "12345678f", 8},
		{"11z 22z", "1122z", 4},
		{"7z1m", "1m7z", 2},
	}
	for _, tt := range tests {
		ts, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error %v", tt.in, err)
			continue
		}
		if len(ts) != tt.n {
			t.Errorf("Parse(%q) = %d tiles, want %d", tt.in, len(ts), tt.n)
		}
		if got := Format(ts); got != tt.sorted {
			t.Errorf("Format(Parse(%q)) = %q, want %q", tt.in, got, tt.sorted)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		pos int
	}{
		{"123", 3},      // no suit
		{"m", 0},        // suit without digits
		{"12x", 2},      // unknown letter
		{"8z", 0},       // no 8z
		{"0z", 0},       // no red honour
		{"19f", 1},      // no 9f
		{"0f", 0},       // no red flower
		{"12 3m", 2},    // digits interrupted
		{"123m4", 5},    // dangling digit
		{"1M", 1},       // capital suit
		{"1m\x002m", 2}, // control byte
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error does not match ErrSyntax", tt.in)
		}
		if se.Pos != tt.pos {
			t.Errorf("Parse(%q) error at %d, want %d (%v)", tt.in, se.Pos, tt.pos, err)
		}
	}
}

func TestParseTile(t *testing.T) {
	for in, want := range map[string]Tile{"5m": Plain(M5), "0p": RedP5, "7z": Plain(Chun), "1f": Plain(Plum), "9s": Plain(S9)} {
		got, err := ParseTile(in)
		if err != nil || got != want {
			t.Errorf("ParseTile(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12m", "x", "5"} {
		if _, err := ParseTile(in); err == nil {
			t.Errorf("ParseTile(%q) succeeded, want an error", in)
		}
	}
}

func TestKinds(t *testing.T) {
	count := 0
	for k := Kind(0); k < NumAllKinds; k++ {
		back, ok := KindOf(k.Suit(), k.Number())
		if !ok || back != k {
			t.Errorf("KindOf(%v, %d) = %v, %v; want %v", k.Suit(), k.Number(), back, ok, k)
		}
		if k.IsYaochu() {
			count++
			if k.IsSimple() || !(k.IsTerminal() || k.IsHonor()) {
				t.Errorf("%v: yaochu but simple", k)
			}
		}
	}
	if count != 13 || Yaochu.Len() != 13 {
		t.Errorf("%d yaochu kinds, want 13", count)
	}
	doras := map[Kind]Kind{M1: M2, M9: M1, P9: P1, S8: S9, East: South, North: East, Haku: Hatsu, Chun: Haku}
	for ind, want := range doras {
		if got := ind.DoraAfter(); got != want {
			t.Errorf("%v.DoraAfter() = %v, want %v", ind, got, want)
		}
	}
	if Tile(200).Valid() || (Plain(M4) | redBit).Valid() || !RedS5.Valid() {
		t.Error("Tile.Valid is wrong about red or out-of-range tiles")
	}
}

func TestKindSet(t *testing.T) {
	s := SetOf(M1, M4, M7, Chun, Winter)
	if s.Len() != 5 || !s.Has(M4) || s.Has(M5) {
		t.Errorf("SetOf = %v", s)
	}
	if got := s.String(); got != "147m7z8f" {
		t.Errorf("String() = %q, want %q", got, "147m7z8f")
	}
	if got := s.Without(Chun).String(); got != "147m8f" {
		t.Errorf("Without = %q", got)
	}
}

func TestCounts(t *testing.T) {
	c := CountsOf(MustParse("1120m55z1f"))
	if c.Total() != 6 || c[M5] != 1 || c[Haku] != 2 {
		t.Errorf("CountsOf = %v", c)
	}
	if got := c.String(); got != "1125m55z" {
		t.Errorf("String() = %q", got)
	}
	if got := c.Kinds().String(); got != "125m5z" {
		t.Errorf("Kinds() = %q", got)
	}
}

func TestWind(t *testing.T) {
	for i, s := range []string{"E", "S", "W", "N"} {
		w, err := ParseWind(s)
		if err != nil || int(w) != i || w.String() != s || w.Kind() != East+Kind(i) {
			t.Errorf("ParseWind(%q) = %v, %v", s, w, err)
		}
	}
	if _, err := ParseWind("east"); err == nil {
		t.Error("ParseWind(east) succeeded")
	}
	if WindNorth.Next() != WindEast {
		t.Error("North.Next() != East")
	}
}

// FuzzParse checks that Parse never panics and that formatting what it read
// reads back to the same tiles, in order and sorted.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"123m456p789s1234567z", "0m0p0s", "1f8f", "12", "m", "9z", "1m 2m", "33m0z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(s) {
				t.Fatalf("Parse(%q) error %v has no valid position", s, err)
			}
			return
		}
		for _, tl := range ts {
			if !tl.Valid() {
				t.Fatalf("Parse(%q) gave invalid tile %d", s, tl)
			}
		}
		again, err := Parse(FormatInOrder(ts))
		if err != nil || FormatInOrder(again) != FormatInOrder(ts) || len(again) != len(ts) {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
		for i := range ts {
			if again[i] != ts[i] {
				t.Fatalf("round trip of %q changed tile %d: %v != %v", s, i, again[i], ts[i])
			}
		}
		sorted, err := Parse(Format(ts))
		if err != nil || Format(sorted) != Format(ts) {
			t.Fatalf("sorted round trip of %q: %q, %v", s, Format(sorted), err)
		}
	})
}

func TestRedOf(t *testing.T) {
	for k := Kind(0); k < NumKinds; k++ {
		r := RedOf(k)
		if r.Kind() != k || r.Red() != k.HasRed() || !r.Valid() {
			t.Errorf("RedOf(%v) = %v, HasRed %v", k, r, k.HasRed())
		}
	}
	if RedOf(P5) != RedP5 || RedOf(M5) != RedM5 || RedOf(S5) != RedS5 {
		t.Error("RedOf of the fives is not the red five")
	}
}

func TestWithoutOne(t *testing.T) {
	for _, tc := range []struct{ ts, t, want string }{
		{"1234m", "3m", "124m"},
		{"555m", "5m", "55m"},
		{"5055m", "0m", "555m"},
		{"5055m", "5m", "055m"},
		{"123p", "4p", "123p"},
		{"", "1z", ""},
	} {
		got := WithoutOne(MustParse(tc.ts), MustParse(tc.t)[0])
		if FormatInOrder(got) != FormatInOrder(MustParse(tc.want)) {
			t.Errorf("WithoutOne(%s, %s) = %s, want %s", tc.ts, tc.t, FormatInOrder(got), tc.want)
		}
	}
	ts := MustParse("111z")
	WithoutOne(ts, ts[0])[0] = Plain(Chun)
	if FormatInOrder(ts) != "111z" {
		t.Errorf("WithoutOne changed its argument: %s", FormatInOrder(ts))
	}
}

// TestTileString checks every tile's name against the parser and that a
// name costs no allocation: the wire form of every event names tiles.
func TestTileString(t *testing.T) {
	tiles := []Tile{RedM5, RedP5, RedS5}
	for k := Kind(0); k < NumAllKinds; k++ {
		tiles = append(tiles, Plain(k))
	}
	for _, tl := range tiles {
		s := tl.String()
		if back, err := ParseTile(s); err != nil || back != tl {
			t.Errorf("ParseTile(%v.String() = %q) = %v, %v; want %v", uint8(tl), s, back, err, tl)
		}
	}
	if s := Tile(200).String(); s != "?" {
		t.Errorf("Tile(200).String() = %q, want ?", s)
	}
	if n := testing.AllocsPerRun(100, func() {
		for _, tl := range tiles {
			_ = tl.String()
		}
	}); n != 0 {
		t.Errorf("Tile.String allocates %v times for %d tiles, want 0", n, len(tiles))
	}
}
