package mahjong

import (
	"bytes"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

var testFrame = Frame{Size: 3, Flags: 1 | 2, Wall: 2, WallSize: 4 + 64}

func TestFrameSplit(t *testing.T) {
	wall := AppendWall(nil, []tile.Tile{1, 2, 3, 4}, &[32]byte{5}, &[32]byte{6})
	for _, tc := range []struct {
		name   string
		in     []byte
		ok     bool
		isWall bool
	}{
		{"move", []byte{7, 8, 1}, true, false},
		{"deal", append([]byte{0, 9, 2}, wall...), true, true},
		{"short head", []byte{7, 8}, false, false},
		{"unknown flag", []byte{7, 8, 4}, false, false},
		{"bytes after a move", []byte{7, 8, 1, 0}, false, false},
		{"deal without its wall", []byte{0, 9, 2}, false, false},
		{"short wall", append([]byte{0, 9, 3}, wall[1:]...), false, false},
		{"long wall", append(append([]byte{0, 9, 3}, wall...), 0), false, false},
	} {
		head, w, err := testFrame.Split(tc.in)
		if (err == nil) != tc.ok || tc.ok && (len(head) != testFrame.Size || (w != nil) != tc.isWall) {
			t.Errorf("%s: Split(%x) = %x, %x, %v", tc.name, tc.in, head, w, err)
		}
	}
}

func TestWallRoundTrip(t *testing.T) {
	tiles := []tile.Tile{0, 135, 7, 77}
	seed, commitment := [32]byte{1, 2}, [32]byte{3, 4}
	b := AppendWall([]byte{9}, tiles, &seed, &commitment)
	b = append(b, 42) // what a rule set's wall adds after
	var got [4]tile.Tile
	var s, c [32]byte
	rest := ReadWall(b[1:], got[:], &s, &c)
	if !bytes.Equal(rest, []byte{42}) || got != [4]tile.Tile(tiles) || s != seed || c != commitment {
		t.Errorf("ReadWall(AppendWall(...)) = %v %x %x, rest %x", got, s[:2], c[:2], rest)
	}
}

// FuzzFrameSplit: Split of any bytes either refuses them or returns a
// head of the frame's size and a wall of its size or none, as the flags
// say.
func FuzzFrameSplit(f *testing.F) {
	f.Add([]byte{7, 8, 1})
	f.Add(append([]byte{0, 9, 2}, make([]byte, 68)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		head, w, err := testFrame.Split(b)
		if err != nil {
			return
		}
		if len(head) != testFrame.Size || (w != nil) != (head[testFrame.Size-1]&testFrame.Wall != 0) || w != nil && len(w) != testFrame.WallSize {
			t.Fatalf("Split(%x) = %x, %x", b, head, w)
		}
	})
}
