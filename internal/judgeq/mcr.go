package judgeq

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// askMCR answers a question under Chinese Official rules (rules "mcr"):
// a win scored in fans, or shanten and waits over the MCR forms. Red
// fives are read as plain fives (MCR has none); flowers are a count, not
// tiles of the hand. The fields of other rule sets (riichi, dora, honba,
// missing_suit...) mean nothing here and are ignored, as the Sichuan
// questions ignore riichi's.
func askMCR(q *Question) (Answer, error) {
	if q.Hand == nil {
		return Answer{}, errors.New("missing hand")
	}
	hand, err := ParseTiles("hand", *q.Hand)
	if err != nil {
		return Answer{}, err
	}
	h := judge.Hand{Concealed: hand}
	if len(q.Melds) > 4 {
		return Answer{}, fmt.Errorf("%d melds: a hand has at most 4", len(q.Melds))
	}
	for i, jm := range q.Melds {
		m, err := ParseMeld(jm)
		if err != nil {
			return Answer{}, fmt.Errorf("meld %d: %w", i+1, err)
		}
		h.Melds = append(h.Melds, m)
	}
	var win tile.Tile
	if q.WinTile != nil {
		if win, err = parseWinTile(*q.WinTile); err != nil {
			return Answer{}, err
		}
	}
	if err := checkSize(len(hand), len(h.Melds), q.WinTile != nil); err != nil {
		return Answer{}, err
	}
	size := 13 - 3*len(h.Melds)
	var c tile.Counts
	all := append([]tile.Tile(nil), hand...)
	for _, m := range h.Melds {
		all = append(all, m.Tiles[:m.Len()]...)
	}
	if q.WinTile != nil {
		all = append(all, win)
	}
	for _, t := range all {
		c[t.Kind()]++
	}
	for k, n := range c {
		if n > 4 {
			return Answer{}, fmt.Errorf("%d copies of %v among hand, melds and win_tile: there are 4", n, tile.Kind(k))
		}
	}

	if q.WinTile == nil {
		hc := tile.CountsOf(hand)
		a := Answer{TenpaiQuestion: true, Shanten: mcr.Shanten(&hc)}
		if len(hand) == size {
			a.Waits = mcr.Waits(&hc)
		}
		return a, nil
	}

	s := mcr.Situation{
		Tsumo:    q.Tsumo,
		LastTile: q.LastTile,
		Rinshan:  q.Rinshan,
		Chankan:  q.Chankan,
		Haitei:   q.Haitei,
		Houtei:   q.Houtei,
		Flowers:  q.Flowers,
	}
	if s.SeatWind, err = ParseWind("seat_wind", q.SeatWind); err != nil {
		return Answer{}, err
	}
	if s.RoundWind, err = ParseWind("round_wind", q.RoundWind); err != nil {
		return Answer{}, err
	}
	if err := mcr.CheckSituation(&h, win, &s); err != nil {
		return Answer{}, err
	}
	return Answer{MCR: mcr.Score(&h, win, &s)}, nil
}
