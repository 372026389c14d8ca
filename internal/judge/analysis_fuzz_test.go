package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The fuzz targets decode any bytes into a real hand (each kind 0..4 times,
// a size the function takes) and compare the fast analysis with the slow
// search.
//
// Byte 0 picks the size (from the target's list) and the mode. In tile
// mode each further byte is a kind (b % 34, or the next kind with room). In
// group mode each byte is a run, triplet, pair or single (b >> 6) from the
// kind b & 63 % 34, dropped if it does not fit, so that complete and tenpai
// hands, and hands holding all four of a kind, come up often. Tiles still
// missing when the bytes run out follow from the last kind, 11 kinds on.
func fuzzHand(data []byte, sizes []int) tile.Counts {
	var c tile.Counts
	if len(data) == 0 {
		data = []byte{0}
	}
	size := sizes[int(data[0])%len(sizes)]
	groups := data[0]/byte(len(sizes))%2 == 1
	n := 0
	add := func(k tile.Kind, times int) bool {
		if n+times > size || int(c[k])+times > 4 {
			return false
		}
		c[k] += uint8(times)
		n += times
		return true
	}
	last := 0
	for _, b := range data[1:] {
		if n == size {
			break
		}
		if !groups {
			last = int(b) % tile.NumKinds
			for !add(tile.Kind(last), 1) {
				last = (last + 1) % tile.NumKinds
			}
			continue
		}
		last = int(b&63) % tile.NumKinds
		k := tile.Kind(last)
		switch b >> 6 {
		case 0:
			if canStartRun(k) && n+3 <= size && c[k] < 4 && c[k+1] < 4 && c[k+2] < 4 {
				add(k, 1)
				add(k+1, 1)
				add(k+2, 1)
			}
		case 1:
			add(k, 3)
		case 2:
			add(k, 2)
		default:
			add(k, 1)
		}
	}
	for n < size {
		last = (last + 11) % tile.NumKinds // steps through all 34 kinds
		add(tile.Kind(last), 1)
	}
	return c
}

var (
	fuzzSizesWin     = []int{14, 11, 8, 5, 2}
	fuzzSizesWaits   = []int{13, 10, 7, 4, 1}
	fuzzSizesShanten = []int{14, 13, 11, 10, 8, 7, 5, 4, 2, 1}
)

// fuzzSeed encodes a hand as fuzz input in tile mode for the given sizes.
func fuzzSeed(t testing.TB, hand string, sizes []int) []byte {
	t.Helper()
	c := counts(t, hand)
	data := []byte{0}
	for i, size := range sizes {
		if size == c.Total() {
			data[0] = byte(i)
		}
	}
	for k, v := range c {
		for range v {
			data = append(data, byte(k))
		}
	}
	return data
}

func addFuzzSeeds(f *testing.F, sizes []int, hands ...string) {
	for _, h := range hands {
		f.Add(fuzzSeed(f, h, sizes))
	}
	// A group-mode seed: 111m 234p 567s 99s 11z, cut to size.
	f.Add([]byte{byte(len(sizes)), 64 + 0, 0 + 10, 0 + 22, 128 + 26, 128 + 27})
}

func FuzzComplete(f *testing.F) {
	addFuzzSeeds(f, fuzzSizesWin,
		"11112345678999m", "11223344556677z", "119m19p19s1234567z", "11112244556677m",
		"123m456p789s11z", "123m456p11z", "11123m", "11m", "12m")
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzHand(data, fuzzSizesWin)
		if got, want := Complete(&c), slowComplete(&c); got != want {
			t.Errorf("Complete(%s) = %v, want %v", &c, got, want)
		}
	})
}

func FuzzShanten(f *testing.F) {
	addFuzzSeeds(f, fuzzSizesShanten,
		"1112345678999m", "147m258p369s1234z", "1111m22p33s44z55z6z", "1133557799m113p",
		"19m19p19s1234567z", "1234m5678p99s", "135m79p", "1111m", "1m", "12m")
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzHand(data, fuzzSizesShanten)
		if got, want := Shanten(&c), slowShanten(&c); got != want {
			t.Errorf("Shanten(%s) = %d, want %d", &c, got, want)
		}
		if got, want := ShantenStandard(&c), slowShantenStandard(&c); got != want {
			t.Errorf("ShantenStandard(%s) = %d, want %d", &c, got, want)
		}
		if c.Total() >= 13 {
			if got, want := ShantenSevenPairs(&c), shantenSevenPairs(&c); got != want {
				t.Errorf("ShantenSevenPairs(%s) = %d, want %d", &c, got, want)
			}
			if got, want := ShantenThirteenOrphans(&c), shantenThirteenOrphans(&c); got != want {
				t.Errorf("ShantenThirteenOrphans(%s) = %d, want %d", &c, got, want)
			}
		}
	})
}

func FuzzWaits(f *testing.F) {
	addFuzzSeeds(f, fuzzSizesWaits,
		"1112345678999m", "19m19p19s1234567z", "119m19p19s123456z", "1133557799m113p",
		"1111m123p456s789s", "1111222m", "1111m", "1234m567p999s", "2345m", "1m")
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzHand(data, fuzzSizesWaits)
		if got, want := Waits(&c), slowWaits(&c); got != want {
			t.Errorf("Waits(%s) = %s, want %s", &c, got, want)
		}
	})
}

// TestFuzzHand checks the decoder: every input gives a real hand of a size
// from the list.
func TestFuzzHand(t *testing.T) {
	inputs := [][]byte{nil, {0}, {1, 200, 200, 200, 200, 200, 200}, {5, 255, 255, 255, 255, 255, 255, 255}, {7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}
	for i := range 300 {
		in := make([]byte, i%20)
		for j := range in {
			in[j] = byte(i*31 + j*17)
		}
		inputs = append(inputs, in)
	}
	for _, sizes := range [][]int{fuzzSizesWin, fuzzSizesWaits, fuzzSizesShanten} {
		for _, in := range inputs {
			c := fuzzHand(in, sizes)
			ok := false
			for _, s := range sizes {
				ok = ok || c.Total() == s
			}
			for _, v := range c {
				ok = ok && v <= 4
			}
			if !ok {
				t.Errorf("fuzzHand(%v, %v) = %s, not a hand of a listed size", in, sizes, &c)
			}
		}
	}
	if got := fuzzHand(fuzzSeed(t, "1112345678999m", fuzzSizesWaits), fuzzSizesWaits); got != counts(t, "1112345678999m") {
		t.Errorf("fuzzHand(seed of 1112345678999m) = %s", &got)
	}
}
