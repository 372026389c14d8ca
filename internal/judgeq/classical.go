package judgeq

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrNotClassical is wrapped by the error of a tile field holding a tile
// the classical rules do not play there: a red five anywhere, a flower or
// season outside bonus_tiles, a suit or honour tile inside it. Like
// ErrFlower, it marks a bad tile.
var ErrNotClassical = errors.New("classical plays no red fives, and flowers and seasons only in bonus_tiles")

// askClassical answers a classical question: suit and honour tiles, chi,
// pon and kan melds, the bonus tiles set aside, the table's limit (1000
// when absent), original_call. Fields of other rule sets are ignored.
func askClassical(q *Question) (Answer, error) {
	if q.Hand == nil {
		return Answer{}, errors.New("missing hand")
	}
	hand, err := parseClassicalTiles("hand", *q.Hand)
	if err != nil {
		return Answer{}, err
	}
	if len(q.Melds) > 4 {
		return Answer{}, fmt.Errorf("%d melds: a hand has at most 4", len(q.Melds))
	}
	var h classical.Hand
	var melds [4]classical.Meld
	all := append(make([]tile.Tile, 0, 18), hand...)
	for i, jm := range q.Melds {
		if _, err := parseClassicalTiles("tiles", jm.Tiles); err != nil {
			return Answer{}, fmt.Errorf("meld %d: %w", i+1, err)
		}
		m, err := ParseMeld(jm)
		if err != nil {
			return Answer{}, fmt.Errorf("meld %d: %w", i+1, err)
		}
		melds[i] = classical.Meld{Kind: m.Kind()}
		switch m.Type {
		case judge.Chi:
			melds[i].Type = classical.Chow
		case judge.Pon:
			melds[i].Type = classical.Pung
		case judge.ClosedKan:
			melds[i].Type = classical.ConcealedKong
		default:
			melds[i].Type = classical.Kong
		}
		all = append(all, m.Tiles[:m.Len()]...)
	}
	h.Melds = melds[:len(q.Melds)]
	var win tile.Tile
	if q.WinTile != nil {
		ts, err := parseClassicalTiles("win_tile", *q.WinTile)
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
	if q.BonusTiles != nil {
		if h.Bonus, err = parseBonusTiles(*q.BonusTiles); err != nil {
			return Answer{}, err
		}
	}

	if q.WinTile == nil {
		return Answer{TenpaiQuestion: true, Shanten: classical.Shanten(&h), Waits: classical.Waits(&h),
			Fishing: classical.FishingFor(&h)}, nil
	}
	s := classical.Situation{
		Tsumo: q.Tsumo, Rinshan: q.Rinshan, Chankan: q.Chankan,
		Haitei: q.Haitei, Houtei: q.Houtei, OriginalCall: q.OriginalCall,
	}
	if s.SeatWind, err = ParseWind("seat_wind", q.SeatWind); err != nil {
		return Answer{}, err
	}
	if s.RoundWind, err = ParseWind("round_wind", q.RoundWind); err != nil {
		return Answer{}, err
	}
	if err := classical.CheckSituation(&h, &s); err != nil {
		return Answer{}, err
	}
	r := classical.Default
	if q.Limit != nil {
		if !classical.ValidLimit(*q.Limit) {
			return Answer{}, fmt.Errorf("limit: want 500, 1000, 1500 or 2000, have %d", *q.Limit)
		}
		r.Limit = *q.Limit
	}
	return Answer{Classical: classical.Score(&h, win.Kind(), &s, &r), ClassicalLimit: r.Limit}, nil
}

// parseClassicalTiles reads suit and honour tiles without red fives.
func parseClassicalTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	for _, t := range ts {
		if t.Red() || t.Kind().IsFlower() {
			return nil, fmt.Errorf("%s: %v: %w", field, t, ErrNotClassical)
		}
	}
	return ts, nil
}

// parseBonusTiles reads the bonus_tiles field: flowers and seasons, each
// at most once.
func parseBonusTiles(s string) (classical.BonusSet, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("bonus_tiles: %w", err)
	}
	var b classical.BonusSet
	for _, t := range ts {
		if !t.Kind().IsFlower() {
			return 0, fmt.Errorf("bonus_tiles: %v: %w", t, ErrNotClassical)
		}
		bit := classical.BonusOf([]tile.Tile{t})
		if b&bit != 0 {
			return 0, fmt.Errorf("bonus_tiles: %v twice: there is one", t)
		}
		b |= bit
	}
	return b, nil
}
