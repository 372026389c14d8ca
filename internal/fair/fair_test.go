package fair

import (
	"encoding/hex"
	"testing"
)

// The vectors below were computed with Python's hashlib from the byte
// layouts of docs/fairness.md, independently of this package.
var (
	vecServer  = counting()
	vecEntropy = [Seats][]byte{[]byte("alice"), nil, {0, 1, 2}, []byte("bob's dice")}
	vecTableID = "3f1c2a9e-0000-4000-8000-000000000001"
)

func counting() (s [32]byte) {
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func TestVectors(t *testing.T) {
	table := TableSeed(vecServer, vecEntropy)
	round0 := RoundSeed(table, 0)
	tests := []struct {
		name string
		got  [32]byte
		want string
	}{
		{"SeedCommitment(0..31)", SeedCommitment(vecServer), "d5c24eb8f1c8ba94cbae097d332f1c9c1a93627d2e3e090facb22561be399096"},
		{"TableSeed(0..31, entropy)", table, "e9abcac2cc4f441fc6c99e27e5488df49fecb2368187fc82c6f3817f4ae1130c"},
		{"RoundSeed(table, 0)", round0, "816679728f453cf55f89cb3f59257ca95787d468f42be82a1375b765f2c8e217"},
		{"RoundSeed(table, 7)", RoundSeed(table, 7), "d244b9c137fa3c670e03761732aed59587882e6f8df6b5a0f75b01df8f157c55"},
		{"Commit(round 0)", Commit(round0, vecTableID, 0), "95b1c349c709f35651145a905442e0d0aef229a0d14435b6fae83234dcb5a850"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(tt.got[:]); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestBinding checks that every input of every hash matters, including
// where one field ends and the next begins.
func TestBinding(t *testing.T) {
	table := TableSeed(vecServer, vecEntropy)
	seed := RoundSeed(table, 0)
	c := Commit(seed, vecTableID, 0)
	moved := vecEntropy
	moved[0], moved[1] = []byte("alic"), []byte("e") // same bytes, other boundary
	other := vecServer
	other[31] ^= 1
	diff := []struct {
		name string
		a, b [32]byte
	}{
		{"entropy boundary", table, TableSeed(vecServer, moved)},
		{"entropy seat order", table, TableSeed(vecServer, [Seats][]byte{vecEntropy[1], vecEntropy[0], vecEntropy[2], vecEntropy[3]})},
		{"server seed", table, TableSeed(other, vecEntropy)},
		{"round index", seed, RoundSeed(table, 1)},
		{"commit table id", c, Commit(seed, vecTableID+"x", 0)},
		{"commit round", c, Commit(seed, vecTableID, 1)},
		{"commit seed", c, Commit(RoundSeed(table, 1), vecTableID, 0)},
		{"domains", SeedCommitment(vecServer), TableSeed(vecServer, [Seats][]byte{})},
	}
	for _, d := range diff {
		if d.a == d.b {
			t.Errorf("%s: changing it does not change the hash %x", d.name, d.a[:4])
		}
	}
}
