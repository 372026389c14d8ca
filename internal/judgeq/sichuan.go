package judgeq

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// askSichuan answers a Sichuan question: tiles of the three suits only
// (no honours, flowers or red fives), pon and kan melds, a required
// missing_suit. Fields of other rule sets are ignored.
func askSichuan(q *Question) (Answer, error) {
	if q.Hand == nil {
		return Answer{}, errors.New("missing hand")
	}
	hand, err := parseSichuanTiles("hand", *q.Hand)
	if err != nil {
		return Answer{}, err
	}
	if q.MissingSuit == nil {
		return Answer{}, errors.New("missing_suit: required for sichuan (m, p or s)")
	}
	var h sichuan.Hand
	switch *q.MissingSuit {
	case "m":
		h.Void = tile.Man
	case "p":
		h.Void = tile.Pin
	case "s":
		h.Void = tile.Sou
	default:
		return Answer{}, fmt.Errorf("missing_suit: want m, p or s, have %q", *q.MissingSuit)
	}
	if len(q.Melds) > 4 {
		return Answer{}, fmt.Errorf("%d melds: a hand has at most 4", len(q.Melds))
	}
	var melds [4]sichuan.Meld
	all := append(make([]tile.Tile, 0, 18), hand...)
	for i, jm := range q.Melds {
		if melds[i], err = parseSichuanMeld(jm); err != nil {
			return Answer{}, fmt.Errorf("meld %d: %w", i+1, err)
		}
		for range melds[i].Len() {
			all = append(all, tile.Plain(melds[i].Kind))
		}
	}
	h.Melds = melds[:len(q.Melds)]
	var win tile.Tile
	if q.WinTile != nil {
		ts, err := parseSichuanTiles("win_tile", *q.WinTile)
		if err != nil {
			return Answer{}, err
		}
		if len(ts) != 1 {
			return Answer{}, fmt.Errorf("win_tile: want one tile, have %d", len(ts))
		}
		win = ts[0]
		all = append(all, win)
	}
	if err := checkSize(len(hand), len(h.Melds), q.WinTile != nil); err != nil {
		return Answer{}, err
	}
	if err := CheckCopies(all); err != nil {
		return Answer{}, err
	}
	h.Concealed = tile.CountsOf(hand)

	if q.WinTile == nil {
		return Answer{TenpaiQuestion: true, Shanten: sichuan.Shanten(&h), Waits: sichuan.Waits(&h)}, nil
	}
	s := sichuan.Situation{
		Tsumo: q.Tsumo, Rinshan: q.Rinshan, AfterKanDiscard: q.AfterKanDiscard,
		Chankan: q.Chankan, Haitei: q.Haitei, Houtei: q.Houtei,
	}
	if err := sichuan.CheckSituation(&h, &s); err != nil {
		return Answer{}, err
	}
	r := sichuan.Default
	if q.FanCap != nil {
		if *q.FanCap < 0 {
			return Answer{}, fmt.Errorf("fan_cap: cannot be negative, have %d", *q.FanCap)
		}
		r.FanCap = *q.FanCap
	}
	return Answer{Sichuan: sichuan.Score(&h, win.Kind(), &s, &r)}, nil
}

// ErrNotSichuan is wrapped by the error of a tile field holding a tile
// Sichuan does not play with: an honour, a flower or a red five. Like
// ErrFlower, it marks a bad tile.
var ErrNotSichuan = errors.New("sichuan plays only the tiles 1-9 of m, p and s")

// parseSichuanTiles reads Sichuan tiles.
func parseSichuanTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	for _, t := range ts {
		if err := checkSichuanTile(field, t); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

func checkSichuanTile(field string, t tile.Tile) error {
	if t.Kind() >= 27 || t.Red() {
		return fmt.Errorf("%s: %v: %w", field, t, ErrNotSichuan)
	}
	return nil
}

// parseSichuanMeld reads a pon or a kan of Sichuan tiles.
func parseSichuanMeld(jm Meld) (sichuan.Meld, error) {
	if jm.Type != "pon" && jm.Type != "kan" {
		return sichuan.Meld{}, fmt.Errorf("meld type %q: sichuan has pon and kan (no chi)", jm.Type)
	}
	if _, err := parseSichuanTiles("tiles", jm.Tiles); err != nil {
		return sichuan.Meld{}, err
	}
	m, err := ParseMeld(jm)
	if err != nil {
		return sichuan.Meld{}, err
	}
	out := sichuan.Meld{Kind: m.Kind()}
	switch m.Type {
	case judge.Pon:
		out.Type = sichuan.Pon
	case judge.ClosedKan:
		out.Type = sichuan.ClosedKan
	default:
		out.Type = sichuan.OpenKan
	}
	return out, nil
}
