package pack_test

import (
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/pack"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	b = pack.AppendInt(b, -300)
	b = pack.AppendUint(b, 1<<40)
	b = pack.AppendBool(b, true)
	b = pack.AppendString(b, "héllo")
	b = pack.AppendBytes(b, []byte{1, 2, 3})
	b = append(b, 7)
	r := pack.NewReader(b)
	if got := r.Int("int", -1000, 1000); got != -300 {
		t.Errorf("Int = %d, want -300", got)
	}
	if got := r.Uint("uint", 1<<41); got != 1<<40 {
		t.Errorf("Uint = %d, want %d", got, uint64(1<<40))
	}
	if got := r.Bool("bool"); !got {
		t.Errorf("Bool = false, want true")
	}
	if got := r.String("string", 10); got != "héllo" {
		t.Errorf("String = %q, want héllo", got)
	}
	if got := r.Bytes("bytes", 3); len(got) != 3 || got[2] != 3 {
		t.Errorf("Bytes = %v, want [1 2 3]", got)
	}
	if got := r.Byte("byte"); got != 7 {
		t.Errorf("Byte = %d, want 7", got)
	}
	if err := r.Done(); err != nil {
		t.Errorf("Done = %v", err)
	}
}

// TestErrors: every read past the end, out of its bounds or after an
// error fails with ErrCorrupt and returns a zero value; the first error
// sticks.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		read func(r *pack.Reader) any
	}{
		{"byte of nothing", nil, func(r *pack.Reader) any { return r.Byte("b") }},
		{"int above max", pack.AppendInt(nil, 5), func(r *pack.Reader) any { return r.Int("i", 0, 4) }},
		{"int below min", pack.AppendInt(nil, -1), func(r *pack.Reader) any { return r.Int("i", 0, 4) }},
		{"uint above max", pack.AppendUint(nil, 9), func(r *pack.Reader) any { return r.Uint("u", 8) }},
		{"bad varint", []byte{0xff, 0xff}, func(r *pack.Reader) any { return r.Uint("u", 8) }},
		{"bool 2", []byte{2}, func(r *pack.Reader) any { return r.Bool("b") }},
		{"bytes too long", pack.AppendBytes(nil, make([]byte, 9)), func(r *pack.Reader) any { return len(r.Bytes("b", 8)) }},
		{"bytes truncated", []byte{5, 1}, func(r *pack.Reader) any { return len(r.Bytes("b", 8)) }},
		{"fixed negative", []byte{1}, func(r *pack.Reader) any { return len(r.Fixed("f", -1)) }},
		{"trailing", []byte{1, 2}, func(r *pack.Reader) any { return r.Byte("b") }},
	} {
		r := pack.NewReader(c.in)
		c.read(r)
		if err := r.Done(); !errors.Is(err, pack.ErrCorrupt) {
			t.Errorf("%s: Done() = %v, want ErrCorrupt", c.name, err)
		}
		if got := r.Byte("after"); got != 0 {
			t.Errorf("%s: Byte after an error = %d, want 0", c.name, got)
		}
	}
}
