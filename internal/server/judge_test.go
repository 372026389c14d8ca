package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/server"
)

// TestJudgeMatchesTablectl asks the JudgeService every question of
// tablectl judge's golden files (riichi, Sichuan, MCR) over gRPC and checks
// that it answers what tablectl answers: the service and the command are
// the same contract.
func TestJudgeMatchesTablectl(t *testing.T) {
	e := startEnv(t, baseConfig())
	for _, name := range []string{"", "sichuan_", "mcr_", "classical_"} {
		t.Run(name+"questions", func(t *testing.T) {
			judgeMatchesTablectl(t, e,
				"../../cmd/tablectl/testdata/judge/"+name+"questions.jsonl",
				"../../cmd/tablectl/testdata/judge/"+name+"answers.jsonl")
		})
	}
}

func judgeMatchesTablectl(t *testing.T, e *env, questions, answers string) {
	qs := readLines(t, questions)
	as := readLines(t, answers)
	if len(qs) != len(as) || len(qs) == 0 {
		t.Fatalf("%d questions, %d answers", len(qs), len(as))
	}
	for i, q := range qs {
		var want map[string]any
		if err := json.Unmarshal(as[i], &want); err != nil {
			t.Fatal(err)
		}
		id := want["id"]
		delete(want, "id")
		var req pb.JudgeRequest
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(q, &req); err != nil {
			t.Fatalf("question %v: %v", id, err)
		}
		resp, err := e.judge.Judge(ctxT(t), &req)
		if _, isErr := want["error"]; isErr {
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("Judge(%v) = %v, %v; want InvalidArgument", id, resp, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Judge(%v): %v", id, err)
			continue
		}
		if got := contractJSON(&req, resp); !equalJSON(got, want) {
			t.Errorf("Judge(%v) = %v, want %v", id, got, want)
		}
	}
}

// contractJSON writes a response the way tablectl judge does.
func contractJSON(req *pb.JudgeRequest, r *pb.JudgeResponse) map[string]any {
	out := map[string]any{"win": r.GetWin()}
	switch {
	case r.Shanten != nil:
		out["shanten"] = float64(r.GetShanten())
		out["waits"] = r.GetWaits()
		if req.GetRules() == "classical" {
			classicalFishingJSON(r, out)
		}
	case !r.GetWin():
		out["reason"] = r.GetReason()
	case req.GetRules() == "mcr":
		out["fan_total"] = float64(r.GetFanTotal())
		out["fan_total_without_flowers"] = float64(r.GetFanTotalWithoutFlowers())
		out["meets_minimum"] = r.GetMeetsMinimum()
		var fans []any
		for _, f := range r.GetFans() {
			fans = append(fans, map[string]any{"name": f.GetName(), "count": float64(f.GetCount()), "fan": float64(f.GetFan())})
		}
		out["fans"] = fans
	case req.GetRules() == "classical":
		classicalWinJSON(r, out)
	case req.GetRules() == "sichuan":
		out["fan"] = float64(r.GetFan())
		fans := []any{}
		for _, f := range r.GetFans() {
			fans = append(fans, map[string]any{"name": f.GetName(), "fan": float64(f.GetFan())})
		}
		out["fans"] = fans
		out["hand_value"] = float64(r.GetHandValue())
	default:
		out["han"], out["fu"], out["yakuman"] = float64(r.GetHan()), float64(r.GetFu()), float64(r.GetYakuman())
		var yaku []any
		for _, y := range r.GetYaku() {
			yaku = append(yaku, map[string]any{"name": y.GetName(), "han": float64(y.GetHan())})
		}
		out["yaku"] = yaku
		out["limit"] = r.GetLimit()
		out["total"] = float64(r.GetTotal())
		p := r.GetPoints()
		pts := map[string]any{}
		if p.GetRon() != 0 {
			pts["ron"] = float64(p.GetRon())
		}
		if p.GetTsumoDealer() != 0 {
			pts["tsumo_dealer"] = float64(p.GetTsumoDealer())
		}
		if p.GetTsumoNonDealer() != 0 {
			pts["tsumo_non_dealer"] = float64(p.GetTsumoNonDealer())
		}
		out["points"] = pts
	}
	return out
}

// classicalFishingJSON adds the fishing fields of a classical tenpai answer.
func classicalFishingJSON(r *pb.JudgeResponse, out map[string]any) {
	fishing := []any{}
	for _, f := range r.GetFishing() {
		fishing = append(fishing, f)
	}
	waits := map[string]any{}
	for name, w := range r.GetFishingWaits() {
		waits[name] = w
	}
	out["fishing"], out["fishing_waits"] = fishing, waits
}

// classicalWinJSON adds the fields of a classical win.
func classicalWinJSON(r *pb.JudgeResponse, out map[string]any) {
	if r.GetSpecial() != "" {
		out["special"] = r.GetSpecial()
	}
	out["limits"] = float64(r.GetLimits())
	out["score"] = float64(r.GetScore())
	out["scored_as"] = r.GetScoredAs()
	out["base_points"] = float64(r.GetBasePoints())
	out["doubles"] = float64(r.GetDoubles())
	out["ordinary_score"] = float64(r.GetOrdinaryScore())
	out["limit_reached"] = r.GetLimitReached()
	out["score_limit"] = float64(r.GetScoreLimit())
	lines := []any{}
	for _, l := range r.GetLines() {
		line := map[string]any{"name": l.GetName(), "count": float64(l.GetCount())}
		if l.GetPoints() != 0 {
			line["points"] = float64(l.GetPoints())
		}
		if l.GetDoubles() != 0 {
			line["doubles"] = float64(l.GetDoubles())
		}
		lines = append(lines, line)
	}
	out["lines"] = lines
}

func equalJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			out = append(out, bytes.Clone(sc.Bytes()))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestJudgeErrorReasons checks the reasons of refused judge questions:
// bad tiles (notation or flowers) apart from other malformed questions.
func TestJudgeErrorReasons(t *testing.T) {
	e := startEnv(t, baseConfig())
	for _, c := range []struct {
		req  *pb.JudgeRequest
		want pb.ErrorReason
	}{
		{&pb.JudgeRequest{Hand: "123m456p789s11z2x"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "123m456p789s11z1f"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "1111m"}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "23m456m234p678s99s", WinTile: "1m", SeatWind: "east"}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456p789s11z2z", Rules: "poker"}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456m789m234s1z", Rules: "sichuan", MissingSuit: "p"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "123m456m789m234s5s", Rules: "sichuan"}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456m789m234s5s", WinTile: "5s", Rules: "sichuan", MissingSuit: "p", FanCap: proto.Int32(-1)}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456p789s1299s", WinTile: "1f", Rules: "mcr"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "123m456p789s1299s", WinTile: "3s", Rules: "mcr", Flowers: 9}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456p789s1299s", WinTile: "3s", Rules: "mcr", Rinshan: true}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m406m789m234s5s", Rules: "classical"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "123m456m789m234s5s", WinTile: "5s", Rules: "classical", BonusTiles: "1f1z"}, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{&pb.JudgeRequest{Hand: "123m456m789m234s5s", WinTile: "5s", Rules: "classical", Limit: proto.Int32(750)}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "123m456m789m234s5s", WinTile: "5s", Rules: "classical", Haitei: true}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		// Counts whose payments would not fit the answer's int32 fields.
		{&pb.JudgeRequest{Hand: "23m456m234p678s99s", WinTile: "1m", RiichiSticks: 3_000_000}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{&pb.JudgeRequest{Hand: "23m456m234p678s99s", WinTile: "1m", Honba: 2_000_000_000}, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	} {
		_, err := e.judge.Judge(ctxT(t), c.req)
		if status.Code(err) != codes.InvalidArgument || server.Reason(err) != c.want {
			t.Errorf("Judge(%v) = %v, want InvalidArgument %v", c.req, err, c.want)
		}
	}
}
