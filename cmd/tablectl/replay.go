package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/replay"
)

func init() {
	commands["replay"] = command{summary: "replay recorded games (JSONL on stdin) through the table", run: runReplay}
}

// runReplay is docs/replay.md: one game per input line, one outcome per
// output line. With --rules sichuan, mcr or classical the games are that
// rule set's native records (docs/records.md) and the outcomes the same
// shape (the Play of record/sichuan, record/mcr and record/classical).
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "usage: tablectl replay [--rules riichi|sichuan|mcr|classical] < games.jsonl\n", stderr)
	rules := fs.String("rules", "riichi", "the games' rule set: riichi (the replay contract's games), sichuan, mcr or classical (their native records)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *rules != "riichi" && *rules != "sichuan" && *rules != "mcr" && *rules != "classical" {
		fs.Usage()
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 0, 1<<20), 64<<20)
	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	line := 0
	for in.Scan() {
		line++
		b := in.Bytes()
		if len(trimSpace(b)) == 0 {
			continue
		}
		var o replay.Outcome
		zero := 0
		switch {
		case *rules == "sichuan":
			if g, err := rsc.Decode(b); err != nil {
				o = replay.Outcome{ID: gameID(b, line), Round: &zero, Step: &zero, Error: err.Error()}
			} else {
				o = rsc.Play(g)
			}
		case *rules == "mcr":
			if g, err := rmcr.Decode(b); err != nil {
				o = replay.Outcome{ID: gameID(b, line), Round: &zero, Step: &zero, Error: err.Error()}
			} else {
				o = rmcr.Play(g)
			}
		case *rules == "classical":
			if g, err := rcl.Decode(b); err != nil {
				o = replay.Outcome{ID: gameID(b, line), Round: &zero, Step: &zero, Error: err.Error()}
			} else {
				o = rcl.Play(g)
			}
		default:
			if g, err := replay.Decode(b); err != nil {
				o = replay.Outcome{ID: gameID(b, line), Round: &zero, Step: &zero, Error: err.Error()}
			} else {
				o = replay.Play(g)
			}
		}
		if err := enc.Encode(o); err != nil {
			return fmt.Errorf("replay: write: %w", err)
		}
	}
	// The answers so far stand even if reading failed: write them first.
	if err := out.Flush(); err != nil {
		return fmt.Errorf("replay: write: %w", err)
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("replay: read line %d: %w", line+1, err)
	}
	return nil
}

// gameID names a game that does not decode: by its own id when the line is
// an object that has one, so that the failure is the contract's answer
// about that game; otherwise by its line number.
func gameID(b []byte, line int) string {
	var g struct {
		ID *string `json:"id"`
	}
	if json.Unmarshal(b, &g) == nil && g.ID != nil {
		return *g.ID
	}
	return fmt.Sprintf("line %d", line)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
