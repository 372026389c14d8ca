package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mahjong-authority/authority/internal/record"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
)

func init() {
	commands["verify"] = command{summary: "check native game records (mahjong and Dou Dizhu): walls and decks against their seeds and commitments, and a replay", run: runVerify}
}

// errVerify is returned when a record fails or cannot be verified; the
// report on stdout says why.
var errVerify = errors.New("verify: not every record verified")

// runVerify checks native records (a file or stdin, one per line) with
// record.Verify, or record/sichuan's Verify for a Sichuan record (its
// rules.variant is "sichuan"), and writes one report per game.
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("verify", "usage: tablectl verify [--json] [--rules auto|riichi|mcr] [record.jsonl]   (stdin without a file)\n", stderr)
	asJSON := fs.Bool("json", false, "write each report as a JSON object")
	rules := fs.String("rules", "auto", "the records' rule set: auto (each record's rules.variant), riichi or mcr")
	if err := fs.Parse(args); err != nil {
		return errUsage // Parse printed the usage
	}
	if fs.NArg() > 1 || *rules != "auto" && *rules != "riichi" && *rules != "mcr" {
		fs.Usage()
		return errUsage
	}
	in := stdin
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		defer f.Close()
		in = f
	}
	in, ddzBad, err := verifyDoudizhu(in, stdout, *asJSON)
	if err != nil {
		return err
	}
	bad := ddzBad
	err = readRecords(in, func(line int, b []byte) error {
		var rep *record.Report
		var err error
		if *rules == "mcr" || *rules == "auto" && rmcr.IsMCR(b) {
			var g *rmcr.Game
			if g, err = rmcr.Decode(b); err == nil {
				rep, err = rmcr.Verify(g)
			}
		} else if rcl.IsClassical(b) {
			var g *rcl.Game
			if g, err = rcl.Decode(b); err == nil {
				rep, err = rcl.Verify(g)
			}
		} else if rsc.IsSichuan(b) {
			var g *rsc.Game
			if g, err = rsc.Decode(b); err == nil {
				rep, err = rsc.Verify(g)
			}
		} else {
			var g *record.Game
			if g, err = record.Decode(b); err == nil {
				rep, err = record.Verify(g)
			}
		}
		if err != nil {
			return fmt.Errorf("verify: line %d: %w", line, err)
		}
		if rep.Err() != nil {
			bad++
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(rep)
		}
		_, err = io.WriteString(stdout, describe(rep))
		return err
	})
	if err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%w: %d failed or unverifiable", errVerify, bad)
	}
	return nil
}

// describe writes a report for people: a verdict line, then one line per
// problem.
func describe(r *record.Report) string {
	var b strings.Builder
	err := r.Err()
	switch {
	case errors.Is(err, record.ErrTampered):
		fmt.Fprintf(&b, "%s: FAILED: %d problem(s)\n", r.ID, len(r.Problems))
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  %s\n", p)
		}
		return b.String()
	case errors.Is(err, record.ErrUnverifiable):
		fmt.Fprintf(&b, "%s: UNVERIFIABLE: %d of %d rounds have no wall seed (rounds %v); nothing proves those walls fair", r.ID, len(r.Unverifiable), r.Rounds, r.Unverifiable)
	case r.Rounds == 0:
		fmt.Fprintf(&b, "%s: ok: nothing to verify yet, the game has finished no round\n", r.ID)
		return b.String()
	default:
		fmt.Fprintf(&b, "%s: ok: %d rounds, each wall recomputed from its seed and matching its commitment and every dealt, drawn and indicator tile", r.ID, r.Rounds)
	}
	if r.Chain {
		b.WriteString("; every round seed derives from the committed server seed and the players' entropy")
	} else if r.ChainMsg != "" && len(r.Unverifiable) < r.Rounds {
		fmt.Fprintf(&b, "; round seeds not checked against the server seed: %s", r.ChainMsg)
	}
	if r.Replayed {
		b.WriteString("; the table's replay agrees with every action and result")
	}
	b.WriteString("\n")
	return b.String()
}

// readRecords calls f with every non-blank line of native records, of
// either rule set, and its number.
func readRecords(in io.Reader, f func(line int, b []byte) error) error {
	s := bufio.NewScanner(in)
	s.Buffer(make([]byte, 0, 1<<20), 16<<20)
	line := 0
	for s.Scan() {
		line++
		if b := bytes.TrimSpace(s.Bytes()); len(b) > 0 {
			if err := f(line, b); err != nil {
				return err
			}
		}
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("line %d: %w: %v", line+1, record.ErrSyntax, err)
	}
	return nil
}
