package server

import (
	"context"
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judgeq"
	"github.com/mahjong-authority/authority/internal/wire"
)

// judgeService answers judge questions with the fields, checks and
// answers of `tablectl judge` (docs/judge.md): both ask
// package judgeq.
type judgeService struct {
	pb.UnimplementedJudgeServiceServer
}

func (judgeService) Judge(_ context.Context, req *pb.JudgeRequest) (*pb.JudgeResponse, error) {
	r, err := answerJudge(req)
	return r, toStatus(err)
}

// optional reads a string field whose empty value means absent.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func answerJudge(req *pb.JudgeRequest) (*pb.JudgeResponse, error) {
	hand := req.GetHand()
	q := judgeq.Question{
		Rules: optional(req.GetRules()), Hand: &hand, WinTile: optional(req.GetWinTile()),
		Tsumo: req.GetTsumo(), Riichi: req.GetRiichi(), DoubleRiichi: req.GetDoubleRiichi(),
		Ippatsu: req.GetIppatsu(), Rinshan: req.GetRinshan(), Chankan: req.GetChankan(),
		Haitei: req.GetHaitei(), Houtei: req.GetHoutei(), Tenhou: req.GetTenhou(), Chiihou: req.GetChiihou(),
		SeatWind: optional(req.GetSeatWind()), RoundWind: optional(req.GetRoundWind()),
		DoraIndicators: optional(req.GetDoraIndicators()), UraIndicators: optional(req.GetUraIndicators()),
		Honba: int(req.GetHonba()), RiichiSticks: int(req.GetRiichiSticks()),
		MissingSuit: optional(req.GetMissingSuit()), AfterKanDiscard: req.GetAfterKanDiscard(),
		Flowers: int(req.GetFlowers()), LastTile: req.GetLastTile(),
		BonusTiles: optional(req.GetBonusTiles()), OriginalCall: req.GetOriginalCall(),
	}
	if req.Limit != nil {
		l := int(req.GetLimit())
		q.Limit = &l
	}
	if req.FanCap != nil {
		c := int(req.GetFanCap())
		q.FanCap = &c
	}
	for _, m := range req.GetMelds() {
		q.Melds = append(q.Melds, judgeq.Meld{Type: m.GetType(), Tiles: m.GetTiles(), Open: m.Open})
	}
	a, err := judgeq.Ask(&q)
	if err != nil {
		// Notation errors wrap tile.ErrSyntax, which maps to BAD_TILE
		// before ErrMalformed does.
		if errors.Is(err, judgeq.ErrFlower) || errors.Is(err, judgeq.ErrNotSichuan) || errors.Is(err, judgeq.ErrNotClassical) {
			return nil, fmt.Errorf("%w: %w", ErrBadTile, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if a.TenpaiQuestion {
		sh := int32(a.Shanten)
		out := &pb.JudgeResponse{Shanten: &sh, Waits: a.Waits.String()}
		if a.Rules == "classical" {
			classicalFishingPB(&a, out)
		}
		return out, nil
	}
	return judgeWinWriters[a.Rules](&a), nil
}

// judgeWinWriters write the answer to a win question, by rule set.
var judgeWinWriters = map[string]func(a *judgeq.Answer) *pb.JudgeResponse{
	"riichi":    riichiWinPB,
	"sichuan":   sichuanWinPB,
	"mcr":       mcrWinPB,
	"classical": classicalWinPB,
}

func riichiWinPB(a *judgeq.Answer) *pb.JudgeResponse {
	r := &a.Result
	if !r.Win {
		return &pb.JudgeResponse{Reason: r.Reason.String()}
	}
	out := &pb.JudgeResponse{
		Win: true, Han: int32(r.Han), Fu: int32(r.Fu), Yakuman: int32(r.Yakuman),
		Yaku: wire.YakuToPB(r.Yaku()), Limit: r.Limit.String(), Total: int32(r.Total),
		Points: &pb.JudgePoints{},
	}
	if p := a.Points.Ron; p != nil {
		out.Points.Ron = int32(*p)
	}
	if p := a.Points.TsumoDealer; p != nil {
		out.Points.TsumoDealer = int32(*p)
	}
	if p := a.Points.TsumoNonDealer; p != nil {
		out.Points.TsumoNonDealer = int32(*p)
	}
	return out
}

func sichuanWinPB(a *judgeq.Answer) *pb.JudgeResponse {
	r := &a.Sichuan
	if !r.Win {
		return &pb.JudgeResponse{Reason: r.Reason.String()}
	}
	out := &pb.JudgeResponse{Win: true, Fan: int32(r.Fan), HandValue: int32(r.Value)}
	for _, l := range r.Lines() {
		out.Fans = append(out.Fans, &pb.JudgeFan{Name: l.Fan.String(), Fan: int32(l.Count)})
	}
	return out
}

func mcrWinPB(a *judgeq.Answer) *pb.JudgeResponse {
	r := &a.MCR
	if !r.Win {
		return &pb.JudgeResponse{Reason: "not_complete"}
	}
	out := &pb.JudgeResponse{Win: true, FanTotal: int32(r.Total),
		FanTotalWithoutFlowers: int32(r.TotalWithoutFlowers), MeetsMinimum: r.MeetsMinimum}
	for _, f := range r.Fans() {
		out.Fans = append(out.Fans, &pb.JudgeFan{Name: f.Fan.String(), Count: int32(f.Count), Fan: int32(f.Points)})
	}
	return out
}
