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

func TestComplete(t *testing.T) {
	tests := []struct {
		hand string
		want bool
	}{
		{"123m456p789s11122z", true},
		{"11223344556677z", true}, // seven pairs of honours
		{"119m19p19s1234567z", true},
		{"19m19p19s1234567z5z", true},
		{"11112233445566m", true},  // 11 123 123 456 456, never seven pairs
		{"11112233445599m", false}, // four of a kind is not two pairs
		{"11122233344455m", true},
		{"12m", false},
		{"11m", true},
		{"123m11z", true},
		{"123m456p789s1234z", false},
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Complete(&c); got != tt.want {
			t.Errorf("Complete(%s) = %v, want %v", tt.hand, got, tt.want)
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
		{"119m19p19s123456z", 0},
		{"1133557799m113p", 0}, // seven pairs, one short
		{"147m258p369s1234z", 6},
		{"1m", 0},
		{"12m", 0}, // four melds: keep either tile for a pair wait
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Shanten(&c); got != tt.want {
			t.Errorf("Shanten(%s) = %d, want %d", tt.hand, got, tt.want)
		}
	}
}

func TestWaits(t *testing.T) {
	tests := []struct {
		hand, want string
	}{
		{"1112345678999m", "123456789m"},
		{"123m456p789s1122z", "12z"},
		{"19m19p19s1234567z", "19m19p19s1234567z"},
		{"1111m", "1m"}, // 111m + 1m tanki waits on a fifth 1m; the table decides
		{"1m", "1m"},
		{"23m", ""},
	}
	for _, tt := range tests {
		c := counts(t, tt.hand)
		if got := Waits(&c).String(); got != tt.want {
			t.Errorf("Waits(%s) = %q, want %q", tt.hand, got, tt.want)
		}
	}
}
