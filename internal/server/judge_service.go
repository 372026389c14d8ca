package server

import (
	"context"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// judgeService answers judge questions with the fields and checks of
// `tablectl judge` (shared/contracts/judge-jsonl.md).
type judgeService struct {
	pb.UnimplementedJudgeServiceServer
}

func (judgeService) Judge(_ context.Context, req *pb.JudgeRequest) (*pb.JudgeResponse, error) {
	r, err := answerJudge(req)
	return r, toStatus(err)
}

func answerJudge(req *pb.JudgeRequest) (*pb.JudgeResponse, error) {
	switch r := req.GetRules(); r {
	case "", "riichi":
	default:
		return nil, fieldError("rules", fmt.Errorf("%q: only \"riichi\" is supported: %w", r, ErrMalformed))
	}
	hand, err := parseTiles("hand", req.GetHand())
	if err != nil {
		return nil, err
	}
	h := judge.Hand{Concealed: hand}
	if len(req.GetMelds()) > 4 {
		return nil, fieldError("melds", fmt.Errorf("%d melds, at most 4: %w", len(req.GetMelds()), ErrMalformed))
	}
	for i, jm := range req.GetMelds() {
		m, err := meldFromPB(jm)
		if err != nil {
			return nil, fmt.Errorf("melds[%d]: %w", i, err)
		}
		h.Melds = append(h.Melds, m)
	}
	asksWin := req.GetWinTile() != ""
	var win tile.Tile
	if asksWin {
		if win, err = parseOne("win_tile", req.GetWinTile()); err != nil {
			return nil, err
		}
	}
	size := 13 - 3*len(h.Melds)
	if asksWin && len(hand) != size || !asksWin && len(hand) != size && len(hand) != size+1 {
		return nil, fieldError("hand", fmt.Errorf("%d tiles with %d melds: want %d: %w", len(hand), len(h.Melds), size, ErrMalformed))
	}
	all := append([]tile.Tile(nil), hand...)
	for _, m := range h.Melds {
		all = append(all, m.Tiles[:m.Len()]...)
	}
	if asksWin {
		all = append(all, win)
	}
	if err := checkCopies(all); err != nil {
		return nil, err
	}
	if !asksWin {
		c := tile.CountsOf(hand)
		sh := int32(judge.Shanten(&c))
		out := &pb.JudgeResponse{Shanten: &sh}
		if len(hand) == size {
			out.Waits = kindsStr(judge.Waits(&c))
		}
		return out, nil
	}

	s := judge.Situation{
		Tsumo: req.GetTsumo(), Riichi: req.GetRiichi() || req.GetDoubleRiichi(), DoubleRiichi: req.GetDoubleRiichi(),
		Ippatsu: req.GetIppatsu(), Rinshan: req.GetRinshan(), Chankan: req.GetChankan(),
		Haitei: req.GetHaitei(), Houtei: req.GetHoutei(), Tenhou: req.GetTenhou(), Chiihou: req.GetChiihou(),
		Honba: int(req.GetHonba()), RiichiSticks: int(req.GetRiichiSticks()),
	}
	if s.SeatWind, err = parseWind("seat_wind", req.GetSeatWind()); err != nil {
		return nil, err
	}
	if s.RoundWind, err = parseWind("round_wind", req.GetRoundWind()); err != nil {
		return nil, err
	}
	if s.DoraIndicators, err = parseTiles("dora_indicators", req.GetDoraIndicators()); err != nil {
		return nil, err
	}
	if s.UraIndicators, err = parseTiles("ura_indicators", req.GetUraIndicators()); err != nil {
		return nil, err
	}
	if s.Honba < 0 || s.RiichiSticks < 0 {
		return nil, fmt.Errorf("honba and riichi_sticks cannot be negative: %w", ErrMalformed)
	}
	if err := judge.CheckSituation(&h, &s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	r := judge.Score(&h, win, &s, &judge.Default)
	if !r.Win {
		return &pb.JudgeResponse{Reason: r.Reason.String()}, nil
	}
	out := &pb.JudgeResponse{
		Win: true, Han: int32(r.Han), Fu: int32(r.Fu), Yakuman: int32(r.Yakuman),
		Yaku: yakuToPB(r.Yaku()), Limit: r.Limit.String(), Total: int32(r.Total),
		Points: &pb.JudgePoints{},
	}
	switch {
	case !s.Tsumo:
		out.Points.Ron = int32(r.Pay.Ron)
	case s.Dealer():
		out.Points.TsumoNonDealer = int32(r.Pay.TsumoNonDealer)
	default:
		out.Points.TsumoDealer = int32(r.Pay.TsumoDealer)
		out.Points.TsumoNonDealer = int32(r.Pay.TsumoNonDealer)
	}
	return out, nil
}

func parseWind(field, s string) (tile.Wind, error) {
	if s == "" {
		return tile.WindEast, nil
	}
	w, err := tile.ParseWind(s)
	if err != nil {
		return 0, fieldError(field, fmt.Errorf("want E, S, W or N, have %q: %w", s, ErrMalformed))
	}
	return w, nil
}

// meldFromPB reads a meld: chi a run, pon a triplet, kan four of a kind;
// open unless a kan says open false.
func meldFromPB(jm *pb.JudgeMeld) (judge.Meld, error) {
	var m judge.Meld
	ts, err := parseTiles("tiles", jm.GetTiles())
	if err != nil {
		return m, err
	}
	open := jm.Open == nil || jm.GetOpen()
	switch jm.GetType() {
	case "chi":
		m.Type = judge.Chi
	case "pon":
		m.Type = judge.Pon
	case "kan":
		m.Type = judge.OpenKan
		if !open {
			m.Type = judge.ClosedKan
		}
	default:
		return m, fieldError("type", fmt.Errorf("%q: want chi, pon or kan: %w", jm.GetType(), ErrMalformed))
	}
	if !open && !m.IsKan() {
		return m, fmt.Errorf("a %s is always open: %w", jm.GetType(), ErrMalformed)
	}
	if len(ts) != m.Len() {
		return m, fmt.Errorf("%s %q has %d tiles, want %d: %w", jm.GetType(), jm.GetTiles(), len(ts), m.Len(), ErrMalformed)
	}
	tile.Sort(ts)
	k := ts[0].Kind()
	for i, t := range ts {
		want := k
		if m.Type == judge.Chi {
			want = k + tile.Kind(i)
		}
		if t.Kind() != want || (m.Type == judge.Chi && (k.IsHonor() || k.Number() > 7)) {
			return m, fmt.Errorf("%s %q is not a valid %s: %w", jm.GetType(), jm.GetTiles(), jm.GetType(), ErrMalformed)
		}
	}
	copy(m.Tiles[:], ts)
	return m, nil
}

// checkCopies rejects more than four tiles of a kind or two red fives of a
// suit.
func checkCopies(ts []tile.Tile) error {
	var c tile.Counts
	var red [3]int
	for _, t := range ts {
		c[t.Kind()]++
		if t.Red() {
			red[t.Kind().Suit()]++
		}
	}
	for k, n := range c {
		if n > 4 {
			return fmt.Errorf("%d copies of %v: there are 4: %w", n, tile.Kind(k), ErrMalformed)
		}
	}
	for s, n := range red {
		if n > 1 {
			return fmt.Errorf("%d red fives 0%c: there is one: %w", n, tile.Suit(s).Letter(), ErrMalformed)
		}
	}
	return nil
}
