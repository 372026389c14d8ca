package card

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", "", false},
		{"T9J", "9TJ", false},
		{"DX2A3", "3A2XD", false},
		{"2222", "2222", false},
		{"22222", "", true},
		{"XX", "", true},
		{"t", "", true},
		{"3 4", "", true},
		{"1", "", true},
	}
	for _, tt := range tests {
		c, err := Parse(tt.in)
		if (err != nil) != tt.err || (err != nil && !errors.Is(err, ErrNotation)) {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if got := c.String(); err == nil && got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestCards(t *testing.T) {
	seen := map[Card]bool{}
	var all Counts
	for r := range Rank(NumRanks) {
		for cp := range r.Copies() {
			c := Of(r, cp)
			if !c.Valid() || c.Rank() != r || seen[c] {
				t.Fatalf("Of(%v, %d) = %d (rank %v)", r, cp, c, c.Rank())
			}
			seen[c] = true
			all[r]++
		}
	}
	if len(seen) != NumCards || All.Counts() != all || All.Len() != NumCards {
		t.Fatalf("%d cards, All counts %s", len(seen), All.String())
	}
	if Of(RedJoker, 0) != 53 || Of(BlackJoker, 0) != 52 || Card(52).String() != "X" {
		t.Error("jokers are not cards 52 (X) and 53 (D)")
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"789TJ", "89TJQ", -1},
		{"33345", "33356", -1},
		{"XD", "XD", 0},
		{"3334", "3335", -1},
		{"4445", "3336", 1},
		{"2X", "2D", -1},
	}
	for _, tt := range tests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if got := Compare(&a, &b); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSetTake(t *testing.T) {
	var s Set
	for _, c := range []Card{0, 1, 2, 5, 6, 52} {
		s = s.With(c)
	}
	want := MustParse("3334X")
	took, ok := s.Take(&want)
	if !ok || took.Counts() != want || took&^s != 0 || took.Has(6) {
		t.Errorf("Take(%s) from %s = %s, %v", want.String(), s, took, ok)
	}
	four := MustParse("3333")
	if _, ok := s.Take(&four); ok {
		t.Errorf("took four 3s from %s", s)
	}
	c := s.Counts()
	if !c.Contains(&want) || want.Contains(&c) {
		t.Errorf("Contains is wrong for %s and %s", c.String(), want.String())
	}
	c.Sub(&want)
	if c.String() != "4" {
		t.Errorf("Sub = %s, want 4", c.String())
	}
}
