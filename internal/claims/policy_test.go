package claims

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// TestPolicyOffers checks what each policy offers on one discard: chi
// only where the policy has it, nothing for a seat out of play, and
// riichi's policy the same whether named or left nil.
func TestPolicyOffers(t *testing.T) {
	seats := [4]Claimant{
		{},
		{Hand: tile.MustParse("2355m06m9p")}, // chi shapes on 4m, no pair
		{Hand: tile.MustParse("44m9p")},      // a pair: pon
		{Hand: tile.MustParse("44m9p"), Out: true},
	}
	for _, tc := range []struct {
		name   string
		policy *Policy
		want   [4]string
	}{
		{"nil is riichi", nil, [4]string{"", "chi 23m, chi 35m, chi 30m, chi 56m, chi 06m", "pon 44m", ""}},
		{"riichi", &Riichi, [4]string{"", "chi 23m, chi 35m, chi 30m, chi 56m, chi 06m", "pon 44m", ""}},
		{"official", &Official, [4]string{"", "chi 23m, chi 35m, chi 30m, chi 56m, chi 06m", "pon 44m", ""}},
		{"sichuan: no chi", &Sichuan, [4]string{"", "", "pon 44m", ""}},
	} {
		ctx := Context{Source: Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true, Kan: true, Policy: tc.policy}
		for _, counts := range []bool{false, true} {
			ss := seats
			var cs [4]tile.Counts
			if counts {
				for i := range ss {
					cs[i] = tile.CountsOf(ss[i].Hand)
					ss[i].Counts = &cs[i]
				}
			}
			offers := Offers(&ctx, &ss)
			for s := range offers {
				if got := offerString(&offers[s]); got != tc.want[s] {
					t.Errorf("%s (counts %t): seat %d offered %q, want %q", tc.name, counts, s, got, tc.want[s])
				}
			}
		}
	}
}

// TestPolicyResolve checks how each policy resolves the same answers:
// several winners or the nearest only, three winners an abortive draw or
// three wins, and whose turn it is when play goes on.
func TestPolicyResolve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  *Policy
		from    Seat
		answers [4]Option
		rons    []Seat
		triple  bool
		playOn  bool
		next    Seat
	}{
		{"riichi double ron", &Riichi, 2, [4]Option{opt(Ron, ""), opt(Ron, ""), {}, opt(Pass, "")}, []Seat{0, 1}, false, false, 0},
		{"riichi triple ron aborts", nil, 1, [4]Option{opt(Ron, ""), {}, opt(Ron, ""), opt(Ron, "")}, []Seat{2, 3, 0}, true, false, 0},
		{"official head bump", &Official, 2, [4]Option{opt(Ron, ""), opt(Ron, ""), {}, opt(Pass, "")}, []Seat{0}, false, false, 0},
		{"official head bump of three", &Official, 1, [4]Option{opt(Ron, ""), {}, opt(Ron, ""), opt(Ron, "")}, []Seat{2}, false, false, 0},
		{"sichuan three winners play on", &Sichuan, 1, [4]Option{opt(Ron, ""), {}, opt(Ron, ""), opt(Ron, "")}, []Seat{2, 3, 0}, false, true, 1},
		{"sichuan two winners", &Sichuan, 0, [4]Option{{}, opt(Ron, ""), opt(Pass, ""), opt(Ron, "")}, []Seat{1, 3}, false, true, 0},
		{"sichuan one winner", &Sichuan, 3, [4]Option{opt(Pass, ""), opt(Ron, ""), opt(Pon, "11m"), {}}, []Seat{1}, false, true, 2},
		{"sichuan no winner: the pon", &Sichuan, 3, [4]Option{opt(Pass, ""), opt(Pass, ""), opt(Pon, "11m"), {}}, nil, false, false, 0},
	} {
		var offers [4]Offer
		for s, a := range tc.answers {
			if a.Call != 0 {
				offers[s].add(opt(Ron, ""))
				if a.Call != Pass {
					offers[s].add(a)
				}
			}
		}
		var w Window
		w.OpenPolicy(tc.from, offers, tc.policy)
		for s, a := range tc.answers {
			if a.Call != 0 {
				if err := w.Answer(Seat(s), a); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
			}
		}
		r := w.Resolve()
		if r.NRon != len(tc.rons) || r.TripleRon != tc.triple || r.PlayOn != tc.playOn || r.Next != tc.next {
			t.Errorf("%s: Resolve() = %+v, want rons %v, triple %t, play on %t, next %d", tc.name, r, tc.rons, tc.triple, tc.playOn, tc.next)
			continue
		}
		for i, s := range tc.rons {
			if r.Rons[i] != s {
				t.Errorf("%s: rons %v, want %v", tc.name, r.Rons[:r.NRon], tc.rons)
			}
		}
		if len(tc.rons) == 0 && tc.answers[2].Call == Pon && (!r.Called || r.Caller != 2) {
			t.Errorf("%s: caller %v %d, want the pon of seat 2", tc.name, r.Called, r.Caller)
		}
	}
}
