package sichuan

import (
	"errors"
	"reflect"
	"testing"
)

// TestCodecRoundTrip encodes and decodes every event of recorded matches.
func TestCodecRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 64 && len(seen) < tagMatchEnded; seed++ {
		rules := fuzzRules[seed%uint64(len(fuzzRules))]
		rec := recordMatch(t, seed, rules)
		for _, evs := range rec.events {
			for _, e := range evs {
				b, err := AppendBody(nil, e.Body)
				if err != nil {
					t.Fatal(err)
				}
				got, err := DecodeBody(b)
				if err != nil {
					t.Fatalf("%v: %v", e, err)
				}
				if !reflect.DeepEqual(got, e.Body) {
					t.Fatalf("DecodeBody(AppendBody(%#v)) = %#v", e.Body, got)
				}
				seen[reflect.TypeOf(e.Body).Name()] = true
			}
		}
	}
	if len(seen) != tagMatchEnded {
		t.Errorf("round trip saw %d body types of %d: %v", len(seen), tagMatchEnded, seen)
	}
	// Turn offers are the host's: every legal list of a random match.
	tb, _ := New(Config{Rules: Default})
	rec := recordMatch(t, 1, Default)
	for _, a := range rec.actions {
		for s := range Seat(NumSeats) {
			if legal := tb.Legal(s); len(legal) > 0 && tb.Phase() == Turn {
				b := TurnOffer{Seat: s, Options: legal}
				enc, _ := AppendBody(nil, b)
				if got, err := DecodeBody(enc); err != nil || !reflect.DeepEqual(got, Body(b)) {
					t.Fatalf("TurnOffer %v decodes as %v, %v", b, got, err)
				}
			}
		}
		if _, err := tb.Step(a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := AppendBody(nil, nil); !errors.Is(err, ErrBody) {
		t.Errorf("AppendBody(nil) = %v, want ErrBody", err)
	}
}

// FuzzDecodeBody: DecodeBody never panics, and what it accepts encodes to
// the same bytes.
func FuzzDecodeBody(f *testing.F) {
	rec := recordMatch(f, 2, BloodyRiver)
	for _, evs := range rec.events[:40] {
		for _, e := range evs {
			b, _ := AppendBody(nil, e.Body)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		body, err := DecodeBody(b)
		if err != nil {
			return
		}
		again, err := AppendBody(nil, body)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeBody(again)
		if err != nil || !reflect.DeepEqual(back, body) {
			t.Fatalf("%#v re-decodes as %#v, %v", body, back, err)
		}
	})
}
