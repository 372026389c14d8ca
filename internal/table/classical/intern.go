package classical

import (
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// The bodies of the events every turn emits (draws and discards) take few
// distinct values, so they are boxed once, here, and shared: a Body holds
// its value immutably, so sharing it is invisible to hosts and saves the
// table allocations on every turn.

// maxLive bounds the live tiles left after a draw.
const maxLive = wall.Size144 - wall.DealSize - DeadWall

var interned struct {
	once      sync.Once
	drewPub   [NumSeats][2][maxLive + 1]Body
	drewPriv  [NumSeats][2][maxLive + 1][tile.NumKinds]Body
	discarded [NumSeats][tile.NumKinds]Body
}

func internBodies() {
	interned.once.Do(func() {
		for s := range Seat(NumSeats) {
			for r := range 2 {
				for left := range maxLive + 1 {
					interned.drewPub[s][r][left] = Drew{Seat: s, Replacement: r == 1, WallLeft: left}
					for k := range tile.NumKinds {
						interned.drewPriv[s][r][left][k] = Drew{Seat: s, Tile: tile.Plain(tile.Kind(k)), Known: true, Replacement: r == 1, WallLeft: left}
					}
				}
			}
			for k := range tile.NumKinds {
				interned.discarded[s][k] = Discarded{Seat: s, Tile: tile.Plain(tile.Kind(k))}
			}
		}
	})
}

func drewBody(s Seat, x tile.Tile, known, replacement bool, left int) Body {
	if left < 0 || left > maxLive || !playing(x) {
		return Drew{Seat: s, Tile: x, Known: known, Replacement: replacement, WallLeft: left}
	}
	r := 0
	if replacement {
		r = 1
	}
	if !known {
		return interned.drewPub[s][r][left]
	}
	return interned.drewPriv[s][r][left][x.Kind()]
}

func discardedBody(s Seat, x tile.Tile) Body {
	if !playing(x) {
		return Discarded{Seat: s, Tile: x}
	}
	return interned.discarded[s][x.Kind()]
}
