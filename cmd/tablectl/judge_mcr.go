package main

import (
	"encoding/json"

	"github.com/mahjong-authority/authority/internal/judgeq"
)

// The answer to a scored MCR win (rules "mcr"), fields in the contract's
// order. Tenpai questions and hands that are not complete answer as for
// riichi.
type (
	judgeMCRWinOut struct {
		ID                     json.RawMessage `json:"id"`
		Win                    bool            `json:"win"`
		FanTotal               int             `json:"fan_total"`
		FanTotalWithoutFlowers int             `json:"fan_total_without_flowers"`
		MeetsMinimum           bool            `json:"meets_minimum"`
		Fans                   []judgeMCRFan   `json:"fans"`
	}
	judgeMCRFan struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
		Fan   int    `json:"fan"`
	}
)

func mcrWin(id json.RawMessage, a *judgeq.Answer) any {
	r := &a.MCR
	if !r.Win {
		return judgeNoWinOut{ID: id, Reason: "not_complete"}
	}
	out := judgeMCRWinOut{ID: id, Win: true, FanTotal: r.Total, FanTotalWithoutFlowers: r.TotalWithoutFlowers,
		MeetsMinimum: r.MeetsMinimum, Fans: make([]judgeMCRFan, 0, len(r.Fans()))}
	for _, f := range r.Fans() {
		out.Fans = append(out.Fans, judgeMCRFan{Name: f.Fan.String(), Count: f.Count, Fan: f.Points})
	}
	return out
}
