package replay

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/table"
)

// recordInfo is the diagnostic part of a recorded round.
type recordInfo struct {
	Record struct {
		End    string `json:"end"`
		Tenpai []int  `json:"tenpai"`
		Wins   []struct {
			Seat int `json:"seat"`
		} `json:"wins"`
	} `json:"record"`
}

// TestFlow replays every recorded round checking only the flow: every
// action accepted, the round ending where the record ends, the same kind of
// end, the same winners and the same tenpai seats. It does not need the
// scorer to agree, so it diagnoses the table apart from the judge; and it
// checks what deltas alone cannot tell apart (an exhaustive draw with
// everyone tenpai or nobody, one abort for another).
func TestFlow(t *testing.T) {
	rounds := 0
	for _, line := range gameLines(t) {
		g, err := Decode(line)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Rounds []recordInfo `json:"rounds"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		rules, _ := Rules(g.Rules)
		tb, _ := table.New(table.Config{Rules: rules, StartScores: g.StartScores})
		d := driver{t: tb, lenient: true}
		for i := range g.Rounds {
			if tb.Phase() == table.GameOver {
				break
			}
			rounds++
			rec := raw.Rounds[i].Record
			step, end, err := d.round(&g.Rounds[i])
			if err != nil {
				t.Errorf("%s round %d step %d: %v", g.ID, i, step, err)
				break
			}
			kinds := map[string]table.RoundEndKind{"ron": table.EndWin, "tsumo": table.EndWin, "exhaustive": table.EndExhaustive,
				"abort_nine_terminals": table.EndNineTerminals, "abort_four_winds": table.EndFourWinds,
				"abort_four_kans": table.EndFourKans, "abort_four_riichi": table.EndFourRiichi, "abort_triple_ron": table.EndTripleRon}
			var winners, recWinners []int
			for _, w := range d.wins {
				winners = append(winners, int(w.Seat))
			}
			for _, w := range rec.Wins {
				recWinners = append(recWinners, w.Seat)
			}
			var tenpai []int
			for s, ok := range end.Tenpai {
				if ok {
					tenpai = append(tenpai, s)
				}
			}
			if rec.Tenpai == nil {
				rec.Tenpai = []int{}
			}
			if tenpai == nil {
				tenpai = []int{}
			}
			if kinds[rec.End] != end.Kind || !slices.Equal(winners, recWinners) || (end.Kind == table.EndExhaustive && !slices.Equal(tenpai, rec.Tenpai)) {
				t.Errorf("%s round %d: table %v winners %v tenpai %v; record %s winners %v tenpai %v", g.ID, i, end.Kind, winners, tenpai, rec.End, recWinners, rec.Tenpai)
			}
		}
	}
	if rounds != 1028 {
		t.Errorf("%d rounds checked, want 1028", rounds)
	}
}
