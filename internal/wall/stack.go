package wall

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

// Errors of stacked walls. Every error returned here matches one of them
// with errors.Is.
var (
	ErrNotSet   = errors.New("wall: not a tile set")
	ErrPosition = errors.New("wall: no such position")
	ErrPlaced   = errors.New("wall: position already placed")
	ErrTooMany  = errors.New("wall: more copies than the set holds")
	ErrTooLong  = errors.New("wall: more tiles than the layout has room for")
)

// StackError says which placement of a stacked wall went wrong.
type StackError struct {
	Pos  int
	Tile tile.Tile
	Err  error // one of the Err values
}

func (e *StackError) Error() string {
	return fmt.Sprintf("%v: %v at position %d", e.Err, e.Tile, e.Pos)
}

func (e *StackError) Unwrap() error { return e.Err }

// Stack is a wall under construction from an explicit layout: replays,
// tests and puzzles put the tiles they know at their positions, and Wall
// fills the rest. The zero value is an empty stack.
type Stack struct {
	tiles [Size]tile.Tile
	known [Size]bool
}

// Put places t at position pos (see the layout in the package comment).
// On error the stack is unchanged.
func (s *Stack) Put(pos int, t tile.Tile) error {
	switch {
	case pos < 0 || pos >= Size:
		return &StackError{pos, t, ErrPosition}
	case !t.Valid() || t.Kind() >= tile.NumKinds:
		return &StackError{pos, t, ErrNotSet}
	case s.known[pos]:
		return &StackError{pos, t, ErrPlaced}
	}
	s.tiles[pos], s.known[pos] = t, true
	return nil
}

// Wall returns the stacked wall: the placed tiles where they were put, and
// every other position filled, in position order, with the tiles of the set
// (see Set) not yet placed, in set order. It fails with ErrTooMany when the
// placed tiles are not part of one set. The wall has no seed.
func (s *Stack) Wall(aka bool) (Wall, error) {
	left := setCounts(aka)
	for pos, t := range s.tiles {
		if !s.known[pos] {
			continue
		}
		i := faceIndex(t)
		if left[i] == 0 {
			return Wall{}, &StackError{pos, t, ErrTooMany}
		}
		left[i]--
	}
	var w Wall
	set := Set(aka)
	next := 0
	for pos := range w.Tiles {
		if s.known[pos] {
			w.Tiles[pos] = s.tiles[pos]
			continue
		}
		for left[faceIndex(set[next])] == 0 {
			next++
		}
		w.Tiles[pos] = set[next]
		left[faceIndex(set[next])]--
	}
	return w, nil
}

// Script is a round as a record tells it: what was dealt, drawn and
// revealed, in the order it happened.
type Script struct {
	// Hands are the 13 dealt tiles by seat offset from the dealer (0 is
	// the dealer), in any order.
	Hands [4][]tile.Tile
	// Draws are the live-wall draws in order, the dealer's first draw first.
	Draws []tile.Tile
	// Rinshan are the replacement draws after kans, in order.
	Rinshan []tile.Tile
	// Dora and Ura are the dora and ura indicators in order, the first one
	// at the start of the round, then one per kan.
	Dora, Ura []tile.Tile
}

// Stack places the script's tiles at their layout positions.
func (sc *Script) Stack() (*Stack, error) {
	s := new(Stack)
	if err := sc.stackInto(s); err != nil {
		return nil, err
	}
	return s, nil
}

// stackInto places the script's tiles on s. The names in its errors are
// formatted only when one happens: replays stack a wall every round.
func (sc *Script) stackInto(s *Stack) error {
	for off, h := range sc.Hands {
		if err := s.putAll(h, 13, func(i int) int { return DealPos(off, i) }); err != nil {
			return fmt.Errorf("hand %d: %w", off, err)
		}
	}
	for _, f := range [...]struct {
		what string
		ts   []tile.Tile
		room int
		pos  func(int) int
	}{
		{"draws", sc.Draws, LiveSize(0), LivePos},
		{"rinshan", sc.Rinshan, MaxKans, RinshanPos},
		{"dora indicators", sc.Dora, MaxDora, DoraPos},
		{"ura indicators", sc.Ura, MaxDora, UraPos},
	} {
		if err := s.putAll(f.ts, f.room, f.pos); err != nil {
			return fmt.Errorf("%s: %w", f.what, err)
		}
	}
	return nil
}

// putAll puts ts[i] at pos(i), for at most room tiles.
func (s *Stack) putAll(ts []tile.Tile, room int, pos func(int) int) error {
	if len(ts) > room {
		return fmt.Errorf("%d tiles for %d places: %w", len(ts), room, ErrTooLong)
	}
	for i, t := range ts {
		if err := s.Put(pos(i), t); err != nil {
			return err
		}
	}
	return nil
}

// Stacked is the wall of a script, its unknown tiles filled as Stack.Wall
// fills them.
func Stacked(sc *Script, aka bool) (Wall, error) {
	var s Stack
	if err := sc.stackInto(&s); err != nil {
		return Wall{}, err
	}
	return s.Wall(aka)
}
