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
// tiles of the hand.
func askMCR(q *Question) (Answer, error) {
	if err := noRiichiFields(q); err != nil {
		return Answer{}, err
	}
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
		ts, err := ParseTiles("win_tile", *q.WinTile)
		if err != nil {
			return Answer{}, err
		}
		if len(ts) != 1 {
			return Answer{}, fmt.Errorf("win_tile: want one tile, have %d", len(ts))
		}
		win = ts[0]
	}
	size := 13 - 3*len(h.Melds)
	switch {
	case q.WinTile != nil && len(hand) != size:
		return Answer{}, fmt.Errorf("hand has %d tiles: with %s and a win_tile it needs %d", len(hand), meldCount(len(h.Melds)), size)
	case q.WinTile == nil && len(hand) != size && len(hand) != size+1:
		return Answer{}, fmt.Errorf("hand has %d tiles: with %s it needs %d (or %d)", len(hand), meldCount(len(h.Melds)), size, size+1)
	}
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
	r := mcr.Score(&h, win, &s)
	if !r.Win {
		return Answer{Result: judge.Result{Reason: judge.NotComplete}}, nil
	}
	return Answer{MCR: &r}, nil
}

// noRiichiFields rejects the riichi-only fields of a question when they
// are set: they mean nothing under MCR, and ignoring them would answer a
// question that was not asked.
func noRiichiFields(q *Question) error {
	var name string
	switch {
	case q.Riichi:
		name = "riichi"
	case q.DoubleRiichi:
		name = "double_riichi"
	case q.Ippatsu:
		name = "ippatsu"
	case q.Tenhou:
		name = "tenhou"
	case q.Chiihou:
		name = "chiihou"
	case q.DoraIndicators != nil && *q.DoraIndicators != "":
		name = "dora_indicators"
	case q.UraIndicators != nil && *q.UraIndicators != "":
		name = "ura_indicators"
	case q.Honba != 0:
		name = "honba"
	case q.RiichiSticks != 0:
		name = "riichi_sticks"
	default:
		return nil
	}
	return fmt.Errorf("%s is a riichi field: rules \"mcr\" have no such thing", name)
}
