package host

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// strCodec encodes a string action as itself.
type strCodec struct{}

func (strCodec) AppendAction(dst []byte, a string) []byte { return append(dst, a...) }
func (strCodec) DecodeAction(b []byte) (string, error)    { return string(b), nil }

// TestHistory: the actions come back in order, whatever their encoded
// length (one byte of length up to 127, more from 128: a riichi deal is
// 206), with a codec or without, sealed in pieces (at every round's end)
// or not, a piece sealed twice or sealed empty.
func TestHistory(t *testing.T) {
	var want []string
	for _, n := range []int{0, 1, 6, 127, 128, 129, 206, 16383, 16384, 70000, 3} {
		want = append(want, strings.Repeat(string(rune('a'+len(want))), n))
	}
	for _, c := range []actionCodec[string]{strCodec{}, nil} {
		h := history[string]{codec: c}
		h.seal()
		for k, a := range want {
			h.add(a)
			if k%3 == 1 {
				h.seal()
				h.seal()
			}
		}
		if c != nil && len(h.sealed) != (len(want)+1)/3 {
			t.Fatalf("%d pieces sealed, want %d", len(h.sealed), (len(want)+1)/3)
		}
		var got []string
		if err := h.each(func(i int, a string) error {
			if i != len(got) {
				t.Fatalf("action %d numbered %d", len(got), i)
			}
			got = append(got, a)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("codec %v: history of %d actions gave back %d, or changed them", c, len(want), len(got))
		}
		stop := errors.New("stop")
		n := 0
		if err := h.each(func(int, string) error { n++; return stop }); err != stop || n != 1 {
			t.Fatalf("each after f's error = %v after %d calls, want stop after 1", err, n)
		}
		h.reset([]byte("base"))
		if err := h.each(func(int, string) error { t.Fatal("an action after reset"); return nil }); err != nil || string(h.base) != "base" {
			t.Fatalf("after reset: %v, base %q", err, h.base)
		}
	}
}

// TestHistoryDropped: a history dropped at the end of a game holds
// nothing and refuses to replay, with a codec or without, so a rebuild
// after it keeps the game as it is rather than replay nothing.
func TestHistoryDropped(t *testing.T) {
	for _, h := range []*history[string]{{codec: strCodec{}}, {}} {
		h.add("discard 1m")
		h.drop()
		if h.packed != nil || h.plain != nil || h.base != nil {
			t.Fatalf("dropped history holds %v %v %v", h.packed, h.plain, h.base)
		}
		if err := h.each(func(int, string) error { return nil }); !errors.Is(err, errDropped) {
			t.Fatalf("each after drop = %v, want errDropped", err)
		}
	}
}
