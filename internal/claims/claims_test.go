package claims

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func offerString(o *Offer) string {
	var b []string
	for _, x := range o.Options() {
		b = append(b, x.String())
	}
	return strings.Join(b, ", ")
}

func TestOffers(t *testing.T) {
	tests := []struct {
		name  string
		ctx   Context
		seats [4]Claimant
		want  [4]string
	}{
		{
			name: "chi shapes and red variants, next seat only",
			ctx:  Context{Source: Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true, Kan: true},
			seats: [4]Claimant{
				{},
				{Hand: tile.MustParse("2355m06m9p")},
				{Hand: tile.MustParse("2356m9p")},
			},
			want: [4]string{"", "chi 23m, chi 35m, chi 30m, chi 56m, chi 06m", "", ""},
		},
		{
			name: "pon with and without the red five, open kan, ron first",
			ctx:  Context{Source: Discard, From: 1, Tile: tile.MustParse("5p")[0], Calls: true, Kan: true},
			seats: [4]Claimant{
				{Hand: tile.MustParse("550p1z"), CanRon: true},
				{},
				{Hand: tile.MustParse("55p1z")},
				{Hand: tile.MustParse("5p")},
			},
			want: [4]string{"ron, pon 55p, pon 05p, open_kan 055p", "", "pon 55p", ""},
		},
		{
			name: "no open kan without Kan",
			ctx:  Context{Source: Discard, From: 1, Tile: tile.MustParse("1z")[0], Calls: true},
			seats: [4]Claimant{
				{Hand: tile.MustParse("1112z")},
			},
			want: [4]string{"pon 11z", "", "", ""},
		},
		{
			name: "last discard and riichi: ron only",
			ctx:  Context{Source: Discard, From: 3, Tile: tile.MustParse("3s")[0]},
			seats: [4]Claimant{
				{Hand: tile.MustParse("1233s"), CanRon: true},
				{Hand: tile.MustParse("33s")},
			},
			want: [4]string{"ron", "", "", ""},
		},
		{
			name: "riichi hand may not pon",
			ctx:  Context{Source: Discard, From: 3, Tile: tile.MustParse("3s")[0], Calls: true},
			seats: [4]Claimant{
				{Hand: tile.MustParse("1233s"), Riichi: true},
				{Hand: tile.MustParse("334s")},
			},
			want: [4]string{"", "pon 33s", "", ""},
		},
		{
			name: "added kan: ron only, even for the next seat",
			ctx:  Context{Source: AddedKan, From: 0, Tile: tile.MustParse("3s")[0], Calls: true, Kan: true},
			seats: [4]Claimant{
				{},
				{Hand: tile.MustParse("1245s"), CanRon: true},
				{Hand: tile.MustParse("24s")},
			},
			want: [4]string{"", "ron", "", ""},
		},
		{
			name: "kuikae: no call that leaves only forbidden tiles",
			ctx:  Context{Source: Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true},
			seats: [4]Claimant{
				{},
				// 56m + 4m forbids 4m and 7m: the two left are 47m.
				{Hand: tile.MustParse("4567m")},
				// Pon 4m leaves 4m only.
				{Hand: tile.MustParse("444m")},
				// Pon 4m leaves 4m and 1z: allowed.
				{Hand: tile.MustParse("444m1z")}, // kan is off
			},
			want: [4]string{"", "", "", "pon 44m"},
		},
		{
			name: "honours cannot be chi'd",
			ctx:  Context{Source: Discard, From: 0, Tile: tile.MustParse("2z")[0], Calls: true},
			seats: [4]Claimant{
				{},
				{Hand: tile.MustParse("13z")},
			},
			want: [4]string{"", "", "", ""},
		},
	}
	for _, tt := range tests {
		got := Offers(&tt.ctx, &tt.seats)
		// The same with the hands' counts, which let Offers skip hands.
		counted := tt.seats
		var counts [4]tile.Counts
		for s := range counted {
			counts[s] = tile.CountsOf(counted[s].Hand)
			counted[s].Counts = &counts[s]
		}
		gotCounted := Offers(&tt.ctx, &counted)
		for s := range got {
			if g := offerString(&got[s]); g != tt.want[s] {
				t.Errorf("%s: Offers() seat %d = %q, want %q", tt.name, s, g, tt.want[s])
			}
			if g := offerString(&gotCounted[s]); g != tt.want[s] {
				t.Errorf("%s: Offers() with counts: seat %d = %q, want %q", tt.name, s, g, tt.want[s])
			}
		}
	}
}

func TestForbidden(t *testing.T) {
	tests := []struct {
		call   Call
		tiles  string
		called string
		want   string
	}{
		{Chi, "56m", "4m", "47m"},
		{Chi, "56m", "7m", "47m"},
		{Chi, "46m", "5m", "5m"},
		{Chi, "78m", "9m", "69m"},
		{Chi, "23p", "1p", "14p"},
		{Chi, "89s", "7s", "7s"},  // 10s does not exist
		{Chi, "12s", "3s", "3s"},  // 0s does not exist
		{Chi, "06s", "4s", "47s"}, // red five in hand
		{Pon, "55p", "0p", "5p"},
		{OpenKan, "555p", "5p", ""},
	}
	for _, tt := range tests {
		opt := Option{Call: tt.call}
		copy(opt.Tiles[:], tile.MustParse(tt.tiles))
		if got := Forbidden(opt, tile.MustParse(tt.called)[0]).String(); got != tt.want {
			t.Errorf("Forbidden(%v, %s) = %s, want %s", opt, tt.called, got, tt.want)
		}
	}
}

func opt(c Call, tiles string) Option {
	o := Option{Call: c}
	copy(o.Tiles[:], tile.MustParse(tiles))
	return o
}

func TestWindow(t *testing.T) {
	var offers [4]Offer
	offers[1].add(opt(Chi, "23m"))
	offers[2].add(opt(Ron, ""))
	offers[2].add(opt(Pon, "11m"))
	offers[3].add(opt(Ron, ""))
	var w Window
	w.Open(0, offers)
	if w.Done() {
		t.Fatal("new window Done() = true")
	}
	if err := w.Answer(0, opt(Pass, "")); !errors.Is(err, ErrNoClaim) {
		t.Errorf("Answer by the discarder = %v, want ErrNoClaim", err)
	}
	if err := w.Answer(1, opt(Pon, "11m")); !errors.Is(err, ErrNotOffered) {
		t.Errorf("Answer(pon not offered) = %v, want ErrNotOffered", err)
	}
	if err := w.Answer(1, opt(Chi, "23m")); err != nil {
		t.Fatal(err)
	}
	if err := w.Answer(1, opt(Pass, "")); !errors.Is(err, ErrAnswered) {
		t.Errorf("second answer = %v, want ErrAnswered", err)
	}
	if err := w.Answer(3, opt(Ron, "")); err != nil {
		t.Fatal(err)
	}
	if w.Done() || !w.Waiting(2) || w.Waiting(3) {
		t.Errorf("Done/Waiting wrong with seat 2 unanswered")
	}
	if err := w.Answer(2, opt(Ron, "")); err != nil {
		t.Fatal(err)
	}
	r := w.Resolve()
	if r.NRon != 2 || r.Rons[0] != 2 || r.Rons[1] != 3 || r.Called || r.TripleRon {
		t.Errorf("Resolve() = %+v, want rons 2, 3 in that order", r)
	}
}

func TestResolvePriority(t *testing.T) {
	tests := []struct {
		name    string
		from    Seat
		answers [4]Option
		rons    []Seat
		caller  int // -1: none
		triple  bool
	}{
		{"pon over chi", 0, [4]Option{{}, opt(Chi, "23m"), {}, opt(Pon, "11m")}, nil, 3, false},
		{"kan over chi", 0, [4]Option{{}, opt(Chi, "23m"), opt(OpenKan, "111m"), opt(Pass, "")}, nil, 2, false},
		{"ron over pon", 2, [4]Option{opt(Pon, "11m"), opt(Ron, ""), {}, {}}, []Seat{1}, -1, false},
		{"all pass", 1, [4]Option{opt(Pass, ""), {}, opt(Pass, ""), {}}, nil, -1, false},
		{"double ron in turn order", 2, [4]Option{opt(Ron, ""), opt(Ron, ""), {}, opt(Pass, "")}, []Seat{0, 1}, -1, false},
		{"triple ron", 1, [4]Option{opt(Ron, ""), {}, opt(Ron, ""), opt(Ron, "")}, []Seat{2, 3, 0}, -1, true},
	}
	for _, tt := range tests {
		var offers [4]Offer
		for s, a := range tt.answers {
			if a.Call != 0 {
				offers[s].add(opt(Ron, ""))
				if a.Call != Pass {
					offers[s].add(a)
				}
			}
		}
		var w Window
		w.Open(tt.from, offers)
		for s, a := range tt.answers {
			if a.Call != 0 {
				if err := w.Answer(Seat(s), a); err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
			}
		}
		if !w.Done() {
			t.Fatalf("%s: not done", tt.name)
		}
		r := w.Resolve()
		if r.NRon != len(tt.rons) || r.TripleRon != tt.triple {
			t.Errorf("%s: Resolve() = %+v, want rons %v", tt.name, r, tt.rons)
			continue
		}
		for i, s := range tt.rons {
			if r.Rons[i] != s {
				t.Errorf("%s: Resolve().Rons = %v, want %v", tt.name, r.Rons[:r.NRon], tt.rons)
			}
		}
		if (tt.caller >= 0) != r.Called || (r.Called && int(r.Caller) != tt.caller) {
			t.Errorf("%s: Resolve() caller = %v %d, want %d", tt.name, r.Called, r.Caller, tt.caller)
		}
	}
}

func TestOffersNoAlloc(t *testing.T) {
	ctx := Context{Source: Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true, Kan: true}
	seats := [4]Claimant{{}, {Hand: tile.MustParse("2355m06m9p123s")}, {Hand: tile.MustParse("44m")}, {}}
	if n := testing.AllocsPerRun(100, func() { _ = Offers(&ctx, &seats) }); n != 0 {
		t.Errorf("Offers allocates %v times, want 0", n)
	}
}

// Counts change nothing but speed: on random hands Offers gives the same
// with and without them.
func TestOffersCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var set []tile.Tile
	for k := range tile.Kind(tile.NumKinds) {
		for c := range 4 {
			x := tile.Plain(k)
			if c == 0 && k.HasRed() {
				x = tile.RedOf(k)
			}
			set = append(set, x)
		}
	}
	for range 20000 {
		rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
		// Hands of 13 tiles or fewer (after calls), all from one set; the
		// discard is the next tile, and the tiles are near each other by
		// chance only, so the hands are made of few kinds to meet calls.
		var seats, counted [4]Claimant
		var counts [4]tile.Counts
		n := 0
		for s := range seats {
			size := []int{1, 4, 7, 10, 13}[rng.IntN(5)]
			seats[s].Hand = set[n : n+size]
			n += size
			seats[s].Riichi = rng.IntN(8) == 0
			counted[s] = seats[s]
			counts[s] = tile.CountsOf(seats[s].Hand)
			counted[s].Counts = &counts[s]
		}
		ctx := Context{Source: Discard, From: Seat(rng.IntN(4)), Tile: set[n], Calls: rng.IntN(8) != 0, Kan: rng.IntN(4) != 0}
		want, got := Offers(&ctx, &seats), Offers(&ctx, &counted)
		if got != want {
			t.Fatalf("Offers(%+v) with counts = %v, without %v", ctx, got, want)
		}
	}
}
