package server

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judgeq"
)

// classicalWinPB writes a classical win: the fields of `tablectl judge`.
func classicalWinPB(a *judgeq.Answer) *pb.JudgeResponse {
	r := &a.Classical
	if !r.Win {
		return &pb.JudgeResponse{Reason: r.Reason.String()}
	}
	out := &pb.JudgeResponse{Win: true, Special: r.Special.String(), Limits: int32(r.Limits),
		Score: int32(r.Score), ScoredAs: "sets", BasePoints: int32(r.Base), Doubles: int32(r.Doubles),
		OrdinaryScore: int32(r.Ordinary), LimitReached: r.LimitReached, ScoreLimit: int32(a.ClassicalLimit)}
	if r.AsSpecial {
		out.ScoredAs = "special"
	}
	for _, l := range r.Lines() {
		line := &pb.JudgeScoreLine{Name: l.Item.String(), Count: int32(l.Count)}
		if l.Item.IsDouble() {
			line.Doubles = int32(l.Total)
		} else {
			line.Points = int32(l.Total)
		}
		out.Lines = append(out.Lines, line)
	}
	return out
}

// classicalFishingPB adds the special hands a classical tenpai question's
// hand is fishing for.
func classicalFishingPB(a *judgeq.Answer, out *pb.JudgeResponse) {
	for s, w := range a.Fishing.Specials {
		if out.FishingWaits == nil {
			out.FishingWaits = map[string]string{}
		}
		out.Fishing = append(out.Fishing, s.String())
		out.FishingWaits[s.String()] = w.String()
	}
}
