package mcr

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrSituation is what CheckSituation's errors match with errors.Is.
var ErrSituation = errors.New("mcr: impossible situation")

// CheckSituation reports whether the flags of s can all be true of a win
// of hand h on tile win: a replacement tile and the last tile of the wall
// are self-drawn, and a replacement needs a kong; a robbed kong and the
// last discard are not self-drawn, a robbed kong is not a discard, and
// nobody can rob a kong of a tile the hand holds; flowers number 0 to 8.
// Score never fails: it drops what this would complain of, as the notes
// of Situation say (the last tile of a kind the hand holds is not an
// error: the flag is then simply not counted).
func CheckSituation(h *judge.Hand, win tile.Tile, s *Situation) error {
	kong := false
	held := false
	for _, m := range h.Melds {
		kong = kong || m.IsKan()
		for _, t := range m.Tiles[:m.Len()] {
			held = held || t.Kind() == win.Kind()
		}
	}
	for _, t := range h.Concealed {
		held = held || t.Kind() == win.Kind()
	}
	var msg string
	switch {
	case s.Flowers < 0 || s.Flowers > MaxFlowers:
		msg = fmt.Sprintf("%d flowers: there are 0 to %d", s.Flowers, MaxFlowers)
	case s.SeatWind > 3 || s.RoundWind > 3:
		msg = "wind out of range"
	case (s.Rinshan || s.Haitei) && !s.Tsumo:
		msg = "rinshan and haitei are self-drawn wins (tsumo)"
	case (s.Chankan || s.Houtei) && s.Tsumo:
		msg = "chankan and houtei are wins on another seat's tile, not tsumo"
	case s.Rinshan && !kong:
		msg = "rinshan needs a kong"
	case s.Chankan && s.Houtei:
		msg = "a robbed kong is not the last discard"
	case s.Chankan && held:
		msg = fmt.Sprintf("chankan on %v: the hand holds one, so nobody can add the fourth to a pung", win.Kind())
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", ErrSituation, msg)
}
