package table

import (
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// The bodies of the events every turn emits (draws, discards, the fishing
// of a hand that is not tenpai) take few distinct values, so they are boxed
// once, here, and shared: a Body holds its value immutably, so sharing it
// is invisible to hosts and saves the table several allocations per turn.

const (
	faces    = tile.NumKinds + 3             // 34 kinds and three red fives
	maxLeft  = wall.LiveEnd - wall.LiveStart // tiles left to draw: 0..70
	minShant = -1
	maxShant = 8
)

var interned struct {
	once      sync.Once
	drewPub   [NumSeats][2][maxLeft + 1]Body
	drewPriv  [NumSeats][2][maxLeft + 1][faces]Body
	discarded [NumSeats][faces][2][2]Body
	fishing   [NumSeats][maxShant - minShant + 1][2]Body
}

func faceOf(x tile.Tile) int {
	if x.Red() {
		return tile.NumKinds + int(x.Kind()/9)
	}
	return int(x.Kind())
}

func tileOfFace(f int) tile.Tile {
	if f >= tile.NumKinds {
		return tile.RedOf(tile.M5 + 9*tile.Kind(f-tile.NumKinds))
	}
	return tile.Plain(tile.Kind(f))
}

func internBodies() {
	interned.once.Do(func() {
		for s := range Seat(NumSeats) {
			for r := range 2 {
				for left := range maxLeft + 1 {
					interned.drewPub[s][r][left] = Drew{Seat: s, Rinshan: r == 1, WallLeft: left}
					for f := range faces {
						interned.drewPriv[s][r][left][f] = Drew{Seat: s, Tile: tileOfFace(f), Known: true, Rinshan: r == 1, WallLeft: left}
					}
				}
			}
			for f := range faces {
				for tg := range 2 {
					for ri := range 2 {
						interned.discarded[s][f][tg][ri] = Discarded{Seat: s, Tile: tileOfFace(f), Tsumogiri: tg == 1, Riichi: ri == 1}
					}
				}
			}
			for sh := minShant; sh <= maxShant; sh++ {
				for fu := range 2 {
					interned.fishing[s][sh-minShant][fu] = Fishing{Seat: s, Shanten: sh, Furiten: fu == 1}
				}
			}
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func drewBody(s Seat, x tile.Tile, known, rinshan bool, left int) Body {
	if left < 0 || left > maxLeft {
		return Drew{Seat: s, Tile: x, Known: known, Rinshan: rinshan, WallLeft: left}
	}
	if !known {
		return interned.drewPub[s][b2i(rinshan)][left]
	}
	return interned.drewPriv[s][b2i(rinshan)][left][faceOf(x)]
}

func discardedBody(s Seat, x tile.Tile, tsumogiri, riichi bool) Body {
	return interned.discarded[s][faceOf(x)][b2i(tsumogiri)][b2i(riichi)]
}

// fishingBody returns the body of f: interned when the hand is not tenpai;
// when it is, the body of the seat's last tenpai Fishing if that said the
// same (a riichi hand says the same every turn), or a new one.
func (t *Table) fishingBody(f Fishing) Body {
	if f.Waits == 0 && f.Shanten >= minShant && f.Shanten <= maxShant {
		return interned.fishing[f.Seat][f.Shanten-minShant][b2i(f.Furiten)]
	}
	last := &t.lastFishing[f.Seat]
	if last.body == nil || last.f != f {
		last.f, last.body = f, f
	}
	return last.body
}
