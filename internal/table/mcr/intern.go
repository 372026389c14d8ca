package mcr

import (
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The bodies of the events every turn emits (draws, discards, flowers) take
// few distinct values, so they are boxed once, here, and shared: a Body
// holds its value immutably, so sharing it is invisible to hosts and saves
// the table allocations on every turn.

const maxLeft = WallSize - liveStart - 1 // tiles left after the deal

var interned struct {
	once      sync.Once
	drewPub   [NumSeats][2][maxLeft + 1]Body
	drewPriv  [NumSeats][2][maxLeft + 1][tile.NumAllKinds]Body
	discarded [NumSeats][tile.NumKinds]Body
	flower    [NumSeats][tile.NumAllKinds - tile.NumKinds]Body
}

func internBodies() {
	interned.once.Do(func() {
		for s := range Seat(NumSeats) {
			for r := range 2 {
				for left := range maxLeft + 1 {
					interned.drewPub[s][r][left] = Drew{Seat: s, Replacement: r == 1, WallLeft: left}
					for k := range tile.NumAllKinds {
						interned.drewPriv[s][r][left][k] = Drew{Seat: s, Tile: tile.Plain(tile.Kind(k)), Known: true, Replacement: r == 1, WallLeft: left}
					}
				}
			}
			for k := range tile.NumKinds {
				interned.discarded[s][k] = Discarded{Seat: s, Tile: tile.Plain(tile.Kind(k))}
			}
			for i := range tile.NumAllKinds - tile.NumKinds {
				interned.flower[s][i] = FlowerSetAside{Seat: s, Flower: tile.Plain(tile.Kind(tile.NumKinds + i))}
			}
		}
	})
}

func drewBody(s Seat, x tile.Tile, known, replacement bool, left int) Body {
	if left < 0 || left > maxLeft || x.Red() || !x.Kind().Valid() {
		return Drew{Seat: s, Tile: x, Known: known, Replacement: replacement, WallLeft: left}
	}
	if !known {
		return interned.drewPub[s][b2i(replacement)][left]
	}
	return interned.drewPriv[s][b2i(replacement)][left][x.Kind()]
}

func discardedBody(s Seat, x tile.Tile) Body {
	if !playing(x) {
		return Discarded{Seat: s, Tile: x}
	}
	return interned.discarded[s][x.Kind()]
}

func flowerBody(s Seat, x tile.Tile) Body {
	if x.Red() || !x.Kind().IsFlower() {
		return FlowerSetAside{Seat: s, Flower: x}
	}
	return interned.flower[s][x.Kind()-tile.NumKinds]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
