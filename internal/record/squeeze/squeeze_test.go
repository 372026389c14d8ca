package squeeze_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/record/squeeze"
)

func ExampleSqueeze() {
	round := []byte(strings.Repeat(`"0 discard 1m","1 discard 9p",`, 40))
	kept := squeeze.Squeeze(round)
	back, err := squeeze.Expand(nil, kept, 1<<20)
	fmt.Println(len(round), len(kept) < len(round)/4, bytes.Equal(back, round), err)
	// Output: 1200 true true <nil>
}

// TestRoundTrip: what Squeeze squeezes expands to itself, appended after
// what dst held, for empty, small, repetitive and random inputs.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for _, src := range [][]byte{nil, {}, []byte("x"), []byte(strings.Repeat("1m2p3s", 5000)), random, random[:1000]} {
		kept := squeeze.Squeeze(src)
		got, err := squeeze.Expand([]byte("head"), kept, len(src))
		if err != nil || !bytes.Equal(got, append([]byte("head"), src...)) {
			t.Errorf("Expand(Squeeze(%d bytes)) = %d bytes, %v", len(src), len(got), err)
		}
	}
}

// TestExpandBound: a round larger than the bound is refused and dst is
// returned as it was.
func TestExpandBound(t *testing.T) {
	kept := squeeze.Squeeze([]byte(strings.Repeat("a", 1000)))
	got, err := squeeze.Expand([]byte("dst"), kept, 999)
	if !errors.Is(err, squeeze.ErrTooLarge) || string(got) != "dst" {
		t.Fatalf("Expand over the bound = %q, %v; want dst, ErrTooLarge", got, err)
	}
	if _, err := squeeze.Expand(nil, []byte{0xff, 0xfe}, 1000); err == nil {
		t.Fatal("Expand of garbage: no error")
	}
}

// BenchmarkSqueeze is the cost at a round's end of a riichi round's size.
func BenchmarkSqueeze(b *testing.B) {
	src := []byte(strings.Repeat(`"0 discard 1m","1 pon 5z","2 discard 9p",`, 45))
	b.ReportAllocs()
	for range b.N {
		squeeze.Squeeze(src)
	}
}

// BenchmarkExpand is the cost of reading such a round back.
func BenchmarkExpand(b *testing.B) {
	src := []byte(strings.Repeat(`"0 discard 1m","1 pon 5z","2 discard 9p",`, 45))
	kept := squeeze.Squeeze(src)
	var dst []byte
	b.ReportAllocs()
	for range b.N {
		dst, _ = squeeze.Expand(dst[:0], kept, len(src))
	}
}

// FuzzExpand: whatever it is given (a snapshot's rounds come from the
// store), Expand returns an error or at most max bytes after dst, never
// panics, and what Squeeze squeezed comes back whole.
func FuzzExpand(f *testing.F) {
	f.Add([]byte{}, []byte("x"))
	f.Add(squeeze.Squeeze([]byte(strings.Repeat("1m2p", 100))), []byte("round"))
	f.Fuzz(func(t *testing.T, in, plain []byte) {
		got, err := squeeze.Expand([]byte("dst"), in, 1000)
		if err == nil && len(got) > 1003 || err != nil && string(got) != "dst" {
			t.Fatalf("Expand = %d bytes, %v", len(got), err)
		}
		back, err := squeeze.Expand(nil, squeeze.Squeeze(plain), len(plain))
		if err != nil || !bytes.Equal(back, plain) {
			t.Fatalf("Expand(Squeeze(%q)) = %q, %v", plain, back, err)
		}
	})
}
