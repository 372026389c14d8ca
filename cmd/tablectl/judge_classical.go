package main

import (
	"encoding/json"

	"github.com/mahjong-authority/authority/internal/judgeq"
)

// The classical answers, with their fields in the contract's order: the
// contract's (special, limits; fishing, fishing_waits) first, then the
// ordinary score of docs/rules/classical-scoring.md.
type (
	classicalWinOut struct {
		ID      json.RawMessage `json:"id"`
		Win     bool            `json:"win"`
		Special string          `json:"special,omitempty"`
		Limits  int             `json:"limits"`
		// score is what the hand scores; scored_as says whether as the
		// special hand ("special") or as sets and a pair ("sets").
		Score        int                `json:"score"`
		ScoredAs     string             `json:"scored_as"`
		BasePoints   int                `json:"base_points"`
		Doubles      int                `json:"doubles"`
		Ordinary     int                `json:"ordinary_score"`
		LimitReached bool               `json:"limit_reached"`
		ScoreLimit   int                `json:"score_limit"`
		Lines        []classicalLineOut `json:"lines"`
	}
	classicalLineOut struct {
		Name    string `json:"name"`
		Count   int    `json:"count"`
		Points  int    `json:"points,omitempty"`
		Doubles int    `json:"doubles,omitempty"`
	}
	classicalTenpaiOut struct {
		ID           json.RawMessage   `json:"id"`
		Win          bool              `json:"win"`
		Shanten      int               `json:"shanten"`
		Waits        string            `json:"waits"`
		Fishing      []string          `json:"fishing"`
		FishingWaits map[string]string `json:"fishing_waits"`
	}
)

func classicalWin(id json.RawMessage, a *judgeq.Answer) any {
	r := &a.Classical
	if !r.Win {
		return judgeNoWinOut{ID: id, Reason: r.Reason.String()}
	}
	out := classicalWinOut{ID: id, Win: true, Special: r.Special.String(), Limits: r.Limits,
		Score: r.Score, ScoredAs: "sets", BasePoints: r.Base, Doubles: r.Doubles, Ordinary: r.Ordinary,
		LimitReached: r.LimitReached, ScoreLimit: a.ClassicalLimit, Lines: []classicalLineOut{}}
	if r.AsSpecial {
		out.ScoredAs = "special"
	}
	for _, l := range r.Lines() {
		lo := classicalLineOut{Name: l.Item.String(), Count: l.Count}
		if l.Item.IsDouble() {
			lo.Doubles = l.Total
		} else {
			lo.Points = l.Total
		}
		out.Lines = append(out.Lines, lo)
	}
	return out
}

func classicalTenpai(id json.RawMessage, a *judgeq.Answer) any {
	out := classicalTenpaiOut{ID: id, Shanten: a.Shanten, Waits: a.Waits.String(),
		Fishing: []string{}, FishingWaits: map[string]string{}}
	for s, w := range a.Fishing.Specials {
		out.Fishing = append(out.Fishing, s.String())
		out.FishingWaits[s.String()] = w.String()
	}
	return out
}
