package sichuan

import (
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The bodies of the events every turn emits (draws and discards) take few
// distinct values, so they are boxed once, here, and shared: a Body holds
// its value immutably, so sharing it is invisible to hosts and saves the
// table allocations on every turn.

const numKinds = 27 // the suited kinds: the only tiles of a Sichuan wall

var interned struct {
	once      sync.Once
	drewPub   [NumSeats][2][LiveSize + 1]Body
	drewPriv  [NumSeats][2][LiveSize + 1][numKinds]Body
	discarded [NumSeats][numKinds]Body
	chosePub  [NumSeats]Body // ExchangeChosen without tiles
	voidPub   [NumSeats]Body
	voidPriv  [NumSeats][NumSuits]Body
	exchanged [Across + 1]Body
	revealed  [NumSuits * NumSuits * NumSuits * NumSuits]Body
}

func internBodies() {
	interned.once.Do(func() {
		for s := range Seat(NumSeats) {
			for r := range 2 {
				for left := range LiveSize + 1 {
					interned.drewPub[s][r][left] = Drew{Seat: s, Replacement: r == 1, WallLeft: left}
					for k := range numKinds {
						interned.drewPriv[s][r][left][k] = Drew{Seat: s, Tile: tile.Plain(tile.Kind(k)), Known: true, Replacement: r == 1, WallLeft: left}
					}
				}
			}
			for k := range numKinds {
				interned.discarded[s][k] = Discarded{Seat: s, Tile: tile.Plain(tile.Kind(k))}
			}
			interned.chosePub[s] = ExchangeChosen{Seat: s}
			interned.voidPub[s] = VoidChosen{Seat: s}
			for su := range NumSuits {
				interned.voidPriv[s][su] = VoidChosen{Seat: s, Suit: tile.Suit(su), Known: true}
			}
		}
		for d := ToNext; d <= Across; d++ {
			interned.exchanged[d] = Exchanged{Direction: d}
		}
		for i := range interned.revealed {
			var v VoidsRevealed
			for s, n := 0, i; s < NumSeats; s, n = s+1, n/NumSuits {
				v.Voids[s] = tile.Suit(n % NumSuits)
			}
			interned.revealed[i] = v
		}
	})
}

func voidBody(s Seat, su tile.Suit, known bool) Body {
	switch {
	case !known:
		return interned.voidPub[s]
	case su < NumSuits:
		return interned.voidPriv[s][su]
	}
	return VoidChosen{Seat: s, Suit: su, Known: known}
}

func revealedBody(v [NumSeats]tile.Suit) Body {
	i := 0
	for s := NumSeats - 1; s >= 0; s-- {
		if v[s] >= NumSuits {
			return VoidsRevealed{Voids: v}
		}
		i = i*NumSuits + int(v[s])
	}
	return interned.revealed[i]
}

func drewBody(s Seat, x tile.Tile, known, replacement bool, left int) Body {
	if left < 0 || left > LiveSize || !suited(x) {
		return Drew{Seat: s, Tile: x, Known: known, Replacement: replacement, WallLeft: left}
	}
	if !known {
		return interned.drewPub[s][b2i(replacement)][left]
	}
	return interned.drewPriv[s][b2i(replacement)][left][x.Kind()]
}

func discardedBody(s Seat, x tile.Tile) Body {
	if !suited(x) {
		return Discarded{Seat: s, Tile: x}
	}
	return interned.discarded[s][x.Kind()]
}
