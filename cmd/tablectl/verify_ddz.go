package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	ddzrecord "github.com/mahjong-authority/authority/internal/doudizhu/record"
)

// ddzReport is the JSON report of a Dou Dizhu record.
type ddzReport struct {
	ID      string `json:"id"`
	Game    string `json:"game"`
	Deals   int    `json:"deals"`
	Chain   bool   `json:"chain"`
	Partial bool   `json:"partial"`
	Error   string `json:"error,omitempty"`
}

// verifyDoudizhu checks the Dou Dizhu records among the lines of in (those
// whose "game" is "doudizhu") with the package record of Dou Dizhu, writes
// a report for each, and returns the other lines for the mahjong
// verifier (blank lines in their place, so that line numbers hold) and
// how many Dou Dizhu records failed.
func verifyDoudizhu(in io.Reader, stdout io.Writer, asJSON bool) (io.Reader, int, error) {
	var rest bytes.Buffer
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	bad := 0
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		var head struct {
			Game string `json:"game"`
		}
		if json.Unmarshal(b, &head) != nil || head.Game != ddzrecord.Game {
			rest.Write(b)
			rest.WriteByte('\n')
			continue
		}
		rest.WriteByte('\n')
		var rec ddzrecord.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, 0, fmt.Errorf("verify: line %d: %w", line, err)
		}
		n, err := ddzrecord.Verify(&rec)
		rep := ddzReport{ID: rec.Table, Game: rec.Game, Deals: n, Chain: rec.ServerSeed != "", Partial: !rec.Over}
		if err != nil {
			rep.Error = err.Error()
			bad++
		}
		if asJSON {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return nil, 0, err
			}
			continue
		}
		if _, err := io.WriteString(stdout, describeDdz(rep)); err != nil {
			return nil, 0, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("verify: %w", err)
	}
	return &rest, bad, nil
}

func describeDdz(r ddzReport) string {
	var b strings.Builder
	if r.Error != "" {
		fmt.Fprintf(&b, "%s: FAILED (Dou Dizhu): %s\n", r.ID, r.Error)
		return b.String()
	}
	fmt.Fprintf(&b, "%s: ok (Dou Dizhu): %d deals, each deck recomputed from its seed and matching its commitment and the dealt hands", r.ID, r.Deals)
	if r.Chain {
		b.WriteString("; every deal seed derives from the committed server seed and the players' entropy")
	} else {
		b.WriteString("; the match is not over, so the server seed is not revealed yet")
	}
	b.WriteString("; the engine's replay agrees with every move and score\n")
	return b.String()
}
