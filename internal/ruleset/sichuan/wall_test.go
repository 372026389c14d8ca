package sichuan_test

import (
	"math/rand/v2"
	"testing"

	tsichuan "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/wall"
)

// TestEngineWallIsTheSharedWall checks that the Sichuan engine's wall and
// the shared 108-tile wall (wall.New108, docs/fairness.md) are the same
// tiles for the same seed: one derivation, which verifiers check once.
func TestEngineWallIsTheSharedWall(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 8))
	for range 200 {
		var seed [32]byte
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		if got, want := tsichuan.NewWall(seed).Tiles, wall.New108(seed).Tiles; got != want {
			t.Fatalf("seed %x: the engine's wall is not wall.New108's", seed)
		}
	}
}
