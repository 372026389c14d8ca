package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func counts(t testing.TB, s string) tile.Counts {
	t.Helper()
	ts, err := tile.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tile.CountsOf(ts)
}

// The tables below hold expectations worked out by hand; each is checked
// against the fast code and against the slow search, so that both are
// pinned to the rules and not only to each other.

func TestComplete(t *testing.T) {
	tests := []struct {
		hand string
		want bool
	}{
		{"123m456p789s11122z", true},
		{"11223344556677z", true}, // seven pairs of honours
		{"119m19p19s1234567z", true},
		{"19m19p19s1234567z5z", true},
		{"19m19p19s123456z11z", false}, // three East, no Red: not thirteen orphans
		{"11112233445566m", true},      // 11 123 123 456 456, never seven pairs
		{"11112233445599m", false},     // four of a kind is not two pairs
		{"11112244556677m", false},     // nor here: 1111 splits into no sets with the rest
		{"11223344556677m", true},      // seven pairs, and also 11 234 234 567 567
		{"22334455667788p", true},      // 234 234 567 567 88
		{"11122233344455m", true},
		{"11123456789999m", true}, // nine gates completed by 9m: 11 123 456 789 999
		{"11112345678999m", true}, // nine gates completed by a fourth 1m: 111 123 456 789 99
		{"11122345678999m", true}, // 111 22 345 678 999
		{"11123455678999m", true}, // 111 234 55 678 999
		{"11123456789991m", true}, // same tiles as 11112345678999m, written out of order
		{"12m", false},
		{"11m", true},             // four melds and a pair
		{"123m11z", true},         // three melds
		{"11123m", true},          // 11 123
		{"11112m", false},         // 111 12, 11 112: neither
		{"123m456p11z", true},     // two melds
		{"123m456p789s11z", true}, // one meld
		{"123m456p789s1234z", false},
		{"1m", false},   // 3n+1 tiles are never complete
		{"", false},     // nor is nothing
		{"111m", false}, // 3n tiles
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Complete(&c); got != tt.want {
			t.Errorf("Complete(%s) = %v, want %v", tt.hand, got, tt.want)
		}
		if got := slowComplete(&c); got != tt.want {
			t.Errorf("slowComplete(%s) = %v, want %v", tt.hand, got, tt.want)
		}
	}
}

func TestShanten(t *testing.T) {
	tests := []struct {
		hand string
		want int
	}{
		{"123m456p789s1122z", 0},
		{"123m456p789s11222z", -1},
		{"119m19p19s123456z", 0},   // thirteen orphans waiting on Red
		{"19m19p19s1234567z", 0},   // thirteen orphans, 13-sided
		{"1133557799m113p", 0},     // seven pairs, one short
		{"11223344556677z", -1},    // seven pairs complete
		{"1112345678999m", 0},      // nine gates, 9-sided
		{"147m258p369s1234z", 6},   // seven pairs: 6 - 0; standard 8; orphans 13 - 6
		{"1111m22p33s44z55z6z", 2}, // 1111m is one pair: 6 - 5 + 1 kind short; standard 8 - 2 - 3 - 1
		{"1m", 0},
		{"12m", 0},           // four melds: keep either tile for a pair wait
		{"1111m", 0},         // three melds: 111m and 1m waiting on a fifth 1m
		{"123m456p1z", 0},    // two melds
		{"135m79p", 1},       // three melds: 13m and 79p, one draw to 123m and a pair
		{"1234m5678p99s", 1}, // one meld: 123m 567p 99s and the loose 4m, 8p
		{"11m", -1},
		{"19m19p19s1234567z1z", -1}, // thirteen orphans complete
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Shanten(&c); got != tt.want {
			t.Errorf("Shanten(%s) = %d, want %d", tt.hand, got, tt.want)
		}
		if got := slowShanten(&c); got != tt.want {
			t.Errorf("slowShanten(%s) = %d, want %d", tt.hand, got, tt.want)
		}
	}
}

func TestShantenShapes(t *testing.T) {
	tests := []struct {
		hand                          string
		standard, sevenPairs, kokushi int
	}{
		{"147m258p369s1234z", 8, 6, 7},
		{"1111m22p33s44z55z6z", 2, 2, 8},
		{"1133557799m113p", 3, 0, 9},                                 // 11m 33m pairs and 55 77 99: 8 - 0 - 4 - 1
		{"19m19p19s1234567z", 8, 6, 0},                               // seven pairs: 13 kinds, no pair
		{"123m456p789s1122z", 0, 4, 8},                               // orphans: 1m 9s 1z 2z and a pair
		{"11223344556677z", 3, -1, 5},                                // standard: a head and four pairs: 8 - 4 - 1
		{"1234m5678p99s", 1, ShantenUnreachable, ShantenUnreachable}, // melds: no seven pairs, no orphans
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := ShantenStandard(&c); got != tt.standard {
			t.Errorf("ShantenStandard(%s) = %d, want %d", tt.hand, got, tt.standard)
		}
		if got := slowShantenStandard(&c); got != tt.standard {
			t.Errorf("slowShantenStandard(%s) = %d, want %d", tt.hand, got, tt.standard)
		}
		if got := ShantenSevenPairs(&c); got != tt.sevenPairs {
			t.Errorf("ShantenSevenPairs(%s) = %d, want %d", tt.hand, got, tt.sevenPairs)
		}
		if got := ShantenThirteenOrphans(&c); got != tt.kokushi {
			t.Errorf("ShantenThirteenOrphans(%s) = %d, want %d", tt.hand, got, tt.kokushi)
		}
		if c.Total() >= 13 {
			if got := shantenSevenPairs(&c); got != tt.sevenPairs {
				t.Errorf("shantenSevenPairs(%s) = %d, want %d", tt.hand, got, tt.sevenPairs)
			}
			if got := shantenThirteenOrphans(&c); got != tt.kokushi {
				t.Errorf("shantenThirteenOrphans(%s) = %d, want %d", tt.hand, got, tt.kokushi)
			}
		}
	}
}

func TestWaits(t *testing.T) {
	tests := []struct {
		hand, want string
	}{
		{"1112345678999m", "123456789m"}, // nine gates, pure 9-sided
		{"123m456p789s1122z", "12z"},
		{"19m19p19s1234567z", "19m19p19s1234567z"}, // thirteen orphans, 13-sided
		{"119m19p19s123456z", "7z"},                // thirteen orphans, single wait
		{"1133557799m113p", "3p"},                  // seven pairs
		{"1111m33p55p77s66z9p", ""},                // 1111m is no two pairs: not tenpai
		{"1111m123p456s789s", "1m"},                // 111m and 1m: a fifth 1m
		{"1111222m", "13m"},                        // 111 222 1 + 1m; 111 22 12 + 3m
		{"1111m", "1m"},                            // 111m + 1m tanki waits on a fifth 1m; the table decides
		{"1234m567p999s", "14m"},                   // nobetan
		{"2345m", "25m"},                           // three melds: 234 5 + 5m, 345 2 + 2m
		{"123m456p1z", "1z"},
		{"1m", "1m"},
		{"5z", "5z"},
		{"23m", ""},               // 3n+2 tiles wait on nothing
		{"147m258p369s1234z", ""}, // far from tenpai
		{"", ""},
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Waits(&c).String(); got != tt.want {
			t.Errorf("Waits(%s) = %q, want %q", tt.hand, got, tt.want)
		}
		if got := slowWaits(&c).String(); got != tt.want {
			t.Errorf("slowWaits(%s) = %q, want %q", tt.hand, got, tt.want)
		}
	}
}

// TestNoHand pins the answers for counts no hand can have: they must not
// panic, and up to 14 tiles they are the slow search's.
func TestNoHand(t *testing.T) {
	var five tile.Counts
	five[tile.M1] = 5 // 111 11
	if !Complete(&five) || Shanten(&five) != -1 {
		t.Errorf("Complete(11111m), Shanten = %v, %d, want true, -1", Complete(&five), Shanten(&five))
	}
	five[tile.M2] = 3 // 111 11 222 minus nothing: 8 tiles, 3n+2
	if !Complete(&five) {
		t.Errorf("Complete(11111222m) = false, want true")
	}
	var big tile.Counts
	for k := range big {
		big[k] = 255
	}
	if Complete(&big) || Waits(&big) != 0 || Shanten(&big) != ShantenUnreachable || ShantenStandard(&big) != ShantenUnreachable {
		t.Errorf("analysis of 255 of every kind = %v, %s, %d, %d, want false, empty, unreachable",
			Complete(&big), Waits(&big), Shanten(&big), ShantenStandard(&big))
	}
	if got := ShantenSevenPairs(&big); got != ShantenUnreachable {
		t.Errorf("ShantenSevenPairs(255 of each) = %d, want %d", got, ShantenUnreachable)
	}
	seventeen := counts(t, "11122233344455566m")
	if Complete(&seventeen) || Waits(&seventeen) != 0 {
		t.Errorf("Complete/Waits of 17 tiles = %v, %s, want false, empty", Complete(&seventeen), Waits(&seventeen))
	}
	twelve := counts(t, "123m456p789s111z")
	if got, want := Shanten(&twelve), slowShanten(&twelve); got != want {
		t.Errorf("Shanten(%s) = %d, want the slow search's %d", "123m456p789s111z", got, want)
	}
}

// TestShantenStandardSets checks the shanten number for a given number of
// sets: the standard one when the tiles fit the sets, and one more for each
// tile missing from a hand that lacks some (here: the part left after
// taking tiles away, as a void suit's dead tiles leave it).
func TestShantenStandardSets(t *testing.T) {
	for _, c := range []struct {
		hand string
		sets int
		want int
	}{
		{"123m456p789s1122z", 4, 0},
		{"123m456p789s11z", 4, 2}, // a set short: three tiles to gain
		{"123m456p789s", 4, 4},    // a set and the pair short: five
		{"", 4, 13},               // nothing: 14 tiles to gain
		{"", 0, 1},                // a pair to gain
		{"11m", 0, -1},            // complete
		{"1m", 0, 0},              // a single wait
		{"1112345678999m", 4, 0},  // nine gates
		{"123m", 5, ShantenUnreachable},
		{"123m", -1, ShantenUnreachable},
		{"11111m", 4, ShantenUnreachable},
	} {
		cs := counts(t, c.hand)
		if got := ShantenStandardSets(&cs, c.sets); got != c.want {
			t.Errorf("ShantenStandardSets(%s, %d) = %d, want %d", c.hand, c.sets, got, c.want)
		}
	}
	// For hands of a real size it is ShantenStandard.
	for _, h := range analysisHands(t, "../../testdata/bench/hands13.txt")[:500] {
		n := h.Total()
		if got, want := ShantenStandardSets(&h, 4-(14-n)/3), ShantenStandard(&h); got != want {
			t.Errorf("ShantenStandardSets(%s) = %d, ShantenStandard %d", &h, got, want)
		}
	}
}
