// Package mjai writes game records as mjai event logs: one JSON object per
// line, in the order a game server emits them, as Mortal and mjai-reviewer
// read them (libriichi's Event type; docs/records.md sums up the events).
// An exported record shows every seat's tiles: it is the log of a finished
// game, not a player's stream.
package mjai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrNoEvents is returned for a record whose rounds carry no engine events
// (one read from JSON): replay it first (record.Replay, record.Verify).
var ErrNoEvents = errors.New("mjai: the record has no engine events")

// Event is one mjai event: its fields in the order they are written.
type Event []Field

// Field is one key and value of an event.
type Field struct {
	Key   string
	Value any
}

// MarshalJSON writes the fields in order.
func (e Event) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range e {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.Key))
		b.WriteByte(':')
		v, err := marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("mjai: field %s: %w", f.Key, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func ev(typ string, kv ...any) Event {
	e := Event{{"type", typ}}
	for i := 0; i+1 < len(kv); i += 2 {
		e = append(e, Field{kv[i].(string), kv[i+1]})
	}
	return e
}

// Write writes g's events, one per line.
func Write(w io.Writer, g *record.Game) error {
	evs, err := Events(g)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, e := range evs {
		b, err := e.MarshalJSON()
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Pai is a tile's mjai name: "1m".."9m", "1p".., "1s".., "E", "S", "W",
// "N", "P" (white), "F" (green), "C" (red), and "5mr", "5pr", "5sr" for the
// red fives.
func Pai(t tile.Tile) string {
	k := t.Kind()
	switch {
	case t.Red():
		return tile.Plain(k).String() + "r"
	case k.IsHonor():
		return string("ESWNPFC"[k-tile.East])
	}
	return tile.Plain(k).String()
}

func pais(ts []tile.Tile) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = Pai(t)
	}
	return out
}

// Events returns g's events: start_game, every round, and end_game once
// the game is over. The rounds must carry their engine events.
func Events(g *record.Game) ([]Event, error) {
	names := make([]string, 4)
	for s := range names {
		names[s] = fmt.Sprintf("seat %d", s)
		if s < len(g.Names) && g.Names[s] != "" {
			names[s] = g.Names[s]
		}
	}
	out := []Event{ev("start_game", "names", names)}
	for i := range g.Rounds {
		var err error
		if out, err = appendRound(out, g.Rounds[i].Events); err != nil {
			return nil, fmt.Errorf("mjai: game %q round %d: %w", g.ID, i, err)
		}
	}
	if !g.Partial && g.FinalScores != nil {
		out = append(out, ev("end_game"))
	}
	return out, nil
}

func appendRound(out []Event, evs []table.Body) ([]Event, error) {
	if len(evs) == 0 {
		return nil, ErrNoEvents
	}
	rs, ok := evs[0].(table.RoundStarted)
	if !ok {
		return nil, fmt.Errorf("%w: the round does not start with its deal", ErrNoEvents)
	}
	tehais := make([][]string, 4)
	var riichi [4]bool // accepted this round
	ended := false
	for i := 0; i < len(evs); i++ {
		switch b := evs[i].(type) {
		case table.Dealt:
			tehais[b.Seat] = pais(b.Hand)
			if full(tehais) {
				out = append(out, ev("start_kyoku",
					"bakaze", rs.RoundWind.String(), "dora_marker", Pai(rs.Dora),
					"kyoku", rs.Number, "honba", rs.Honba, "kyotaku", rs.RiichiSticks,
					"oya", int(rs.Dealer), "scores", rs.Scores[:], "tehais", tehais))
			}
		case table.Drew:
			out = append(out, ev("tsumo", "actor", int(b.Seat), "pai", Pai(b.Tile)))
		case table.Discarded:
			if b.Riichi {
				out = append(out, ev("reach", "actor", int(b.Seat)))
			}
			// An open or added kan's indicator turns with this discard:
			// the engine reveals it right after the discard, mjai right
			// before it.
			for i+1 < len(evs) {
				d, ok := evs[i+1].(table.DoraRevealed)
				if !ok {
					break
				}
				out = append(out, ev("dora", "dora_marker", Pai(d.Indicator)))
				i++
			}
			out = append(out, ev("dahai", "actor", int(b.Seat), "pai", Pai(b.Tile), "tsumogiri", b.Tsumogiri))
		case table.RiichiAccepted:
			riichi[b.Seat] = true
			out = append(out, ev("reach_accepted", "actor", int(b.Seat)))
		case table.Called:
			var n int
			out, n = appendCall(out, b, evs[i+1:])
			i += n
		case table.DoraRevealed:
			out = append(out, ev("dora", "dora_marker", Pai(b.Indicator)))
		case table.Won:
			ura := pais(b.Ura)
			out = append(out, ev("hora", "actor", int(b.Seat), "target", int(b.From), "deltas", b.Deltas[:], "ura_markers", ura))
		case table.RoundEnded:
			if b.Kind != table.EndWin {
				// mjai's deltas, like Tenhou's, leave out the riichi
				// deposits: those are the reach_accepted events.
				d := b.Deltas
				for s := range d {
					if riichi[s] {
						d[s] += 1000
					}
				}
				out = append(out, ev("ryukyoku", "deltas", d[:]))
			}
			out = append(out, ev("end_kyoku"))
			ended = true
		}
	}
	if !ended {
		return nil, fmt.Errorf("%w: the round has no end", ErrNoEvents)
	}
	return out, nil
}

func full(tehais [][]string) bool {
	for _, h := range tehais {
		if h == nil {
			return false
		}
	}
	return true
}

// appendCall writes a call or kan. A closed kan reveals its indicator at
// once; the engine first reveals the indicators still waiting from earlier
// open or added kans, and mjai writes those before the kan: it returns how
// many of the following events it wrote.
func appendCall(out []Event, b table.Called, rest []table.Body) ([]Event, int) {
	m, s := b.Meld, int(b.Seat)
	own := func(n int) []string { return pais(tile.WithoutOne(m.Tiles[:n], m.Called)) }
	switch m.Type {
	case judge.Chi, judge.Pon:
		typ := "chi"
		if m.Type == judge.Pon {
			typ = "pon"
		}
		return append(out, ev(typ, "actor", s, "target", int(m.From), "pai", Pai(m.Called), "consumed", own(3))), 0
	case judge.OpenKan:
		return append(out, ev("daiminkan", "actor", s, "target", int(m.From), "pai", Pai(m.Called), "consumed", own(4))), 0
	case judge.AddedKan:
		pon := tile.WithoutOne(m.Tiles[:], m.Added)
		return append(out, ev("kakan", "actor", s, "pai", Pai(m.Added), "consumed", pais(pon))), 0
	}
	// Closed kan.
	n := 0
	for n < len(rest) {
		if _, ok := rest[n].(table.DoraRevealed); !ok {
			break
		}
		n++
	}
	for _, d := range rest[:max(n-1, 0)] {
		out = append(out, ev("dora", "dora_marker", Pai(d.(table.DoraRevealed).Indicator)))
	}
	out = append(out, ev("ankan", "actor", s, "consumed", pais(m.Tiles[:])))
	if n > 0 {
		out = append(out, ev("dora", "dora_marker", Pai(rest[n-1].(table.DoraRevealed).Indicator)))
	}
	return out, n
}
