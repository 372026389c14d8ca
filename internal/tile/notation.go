package tile

import (
	"errors"
	"fmt"
	"slices"
)

// ErrSyntax is what every notation error matches with errors.Is.
var ErrSyntax = errors.New("tile: bad notation")

// SyntaxError says where MPSZ notation went wrong.
type SyntaxError struct {
	Input string // the whole input
	Pos   int    // byte offset of the offending character (len(Input) at the end)
	Msg   string
}

func (e *SyntaxError) Error() string {
	if e.Pos < len(e.Input) {
		return fmt.Sprintf("tile: bad notation %q: %q at position %d: %s", e.Input, e.Input[e.Pos], e.Pos, e.Msg)
	}
	return fmt.Sprintf("tile: bad notation %q: at the end: %s", e.Input, e.Msg)
}

// Is makes errors.Is(err, ErrSyntax) true.
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// Parse reads tiles in MPSZ notation: digits followed by a suit letter
// ("123m0p77z1f"), in any order and grouping; spaces between tiles are
// ignored. 0 is a red five (m, p, s only). The tiles come back in input
// order. An empty string is no tiles.
func Parse(s string) ([]Tile, error) {
	return AppendParse(nil, s)
}

// AppendParse is Parse appending to dst.
func AppendParse(dst []Tile, s string) ([]Tile, error) {
	start := len(dst)
	pending := -1 // byte offset of the first digit not yet given a suit
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if pending < 0 {
				pending = i
			}
		case c == ' ':
			if pending >= 0 {
				return dst[:start], &SyntaxError{s, i, "digits need a suit letter before a space"}
			}
		default:
			suit, ok := suitOf(c)
			if !ok {
				return dst[:start], &SyntaxError{s, i, "expected a digit or a suit letter m, p, s, z, f"}
			}
			if pending < 0 {
				return dst[:start], &SyntaxError{s, i, "suit letter without digits"}
			}
			for j := pending; j < i; j++ {
				t, ok := tileOf(suit, int(s[j]-'0'))
				if !ok {
					return dst[:start], &SyntaxError{s, j, fmt.Sprintf("no tile %c%c", s[j], c)}
				}
				dst = append(dst, t)
			}
			pending = -1
		}
	}
	if pending >= 0 {
		return dst[:start], &SyntaxError{s, len(s), "digits without a suit letter"}
	}
	return dst, nil
}

// ParseTile reads exactly one tile ("5m", "0p", "7z").
func ParseTile(s string) (Tile, error) {
	var buf [2]Tile
	ts, err := AppendParse(buf[:0], s)
	if err != nil {
		return 0, err
	}
	if len(ts) != 1 {
		return 0, &SyntaxError{s, 0, fmt.Sprintf("want exactly one tile, have %d", len(ts))}
	}
	return ts[0], nil
}

// MustParse is Parse for tests and constants; it panics on bad notation.
func MustParse(s string) []Tile {
	ts, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return ts
}

func suitOf(c byte) (Suit, bool) {
	switch c {
	case 'm':
		return Man, true
	case 'p':
		return Pin, true
	case 's':
		return Sou, true
	case 'z':
		return Honor, true
	case 'f':
		return Flower, true
	}
	return 0, false
}

func tileOf(s Suit, n int) (Tile, bool) {
	if n == 0 {
		if s > Sou {
			return 0, false
		}
		k, _ := KindOf(s, 5)
		return Tile(k) | redBit, true
	}
	k, ok := KindOf(s, n)
	return Tile(k), ok
}

// Format writes tiles sorted and grouped by suit ("123m0456p11z"); a red
// five sorts just before the plain fives of its suit. ts is not changed.
func Format(ts []Tile) string {
	sorted := slices.Clone(ts)
	slices.SortFunc(sorted, compare)
	return formatGrouped(sorted)
}

// FormatInOrder writes tiles in the given order, grouping only neighbours of
// the same suit ("2s4s1s9s3p" becomes "241s9s3p"), so that Parse gives the
// same sequence back.
func FormatInOrder(ts []Tile) string { return formatGrouped(ts) }

func formatGrouped(ts []Tile) string {
	var buf [64]byte // a hand's worth, on the stack
	return string(AppendInOrder(buf[:0], ts))
}

// AppendInOrder appends FormatInOrder(ts) to b: for encoders that write
// tiles into a message without making a string.
func AppendInOrder(b []byte, ts []Tile) []byte {
	for i, t := range ts {
		if t.Red() {
			b = append(b, '0')
		} else {
			b = append(b, byte('0'+t.Kind().Number()))
		}
		if i == len(ts)-1 || ts[i+1].Kind().Suit() != t.Kind().Suit() {
			b = append(b, t.Kind().Suit().Letter())
		}
	}
	return b
}

// compare orders tiles by kind, a red five before the plain fives.
func compare(a, b Tile) int {
	if ka, kb := a.Kind(), b.Kind(); ka != kb {
		return int(ka) - int(kb)
	}
	switch {
	case a.Red() == b.Red():
		return 0
	case a.Red():
		return -1
	default:
		return 1
	}
}

// Sort sorts tiles in place in the order Format writes them.
func Sort(ts []Tile) { slices.SortFunc(ts, compare) }

// WithoutOne returns a new slice of ts without its first copy of t (exactly
// t: a red five is not a plain five), or all of ts if it holds none: the
// tiles a call took from the hand are its meld's less the called one.
func WithoutOne(ts []Tile, t Tile) []Tile {
	out := make([]Tile, 0, len(ts))
	skipped := false
	for _, x := range ts {
		if !skipped && x == t {
			skipped = true
			continue
		}
		out = append(out, x)
	}
	return out
}
