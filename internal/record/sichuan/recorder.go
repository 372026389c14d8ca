package sichuan

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/record/rounds"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Recorder builds a Game from the engine's steps: feed it every accepted
// action with the events it caused (every audience's).
type Recorder struct {
	g    Game                  // the match but its hands: g.Rounds stays nil
	done rounds.Encoded[Round] // the finished hands, kept encoded
	cur  *Round                // the hand being played
	wall sc.Wall               // its wall
	over bool
	err  error
}

// NewRecorder returns a recorder of a match of rules on table id.
func NewRecorder(id string, rules sc.Rules) *Recorder {
	return &Recorder{g: Game{ID: id, TableID: id, Rules: RulesOf(rules)}}
}

// SetTable sets the table's id (also the game's, when it has none).
func (r *Recorder) SetTable(id string) {
	r.g.TableID = id
	if r.g.ID == "" {
		r.g.ID = id
	}
}

// SetSeeds records the table seed's derivation: the commitment to the
// server seed and the seats' entropy, which Game shows only once the match
// is over.
func (r *Recorder) SetSeeds(commitment [32]byte, entropy [4][]byte) {
	r.g.SeedCommitment = hex.EncodeToString(commitment[:])
	r.g.Entropy = make([]string, len(entropy))
	for s, e := range entropy {
		r.g.Entropy[s] = hex.EncodeToString(e)
	}
}

// Over reports whether the match has ended; Rounds how many hands are
// recorded (finished); Err what went wrong, if the steps made no sense.
func (r *Recorder) Over() bool  { return r.over }
func (r *Recorder) Rounds() int { return r.done.Len() }
func (r *Recorder) Err() error  { return r.err }

// Game returns the record of the hands played to their end: the whole
// match once it is over, otherwise its finished hands marked Partial. The
// hand being played is never included, nor, before the match is over,
// the entropy: with the server seed, which a seeded table's creator knows,
// it derives every wall. The record shares nothing with the recorder: its
// hands are decoded afresh at each call, a cost of the export that keeps
// the recorder small.
func (r *Recorder) Game() *Game {
	g := r.g
	var err error
	if g.Rounds, err = r.done.Decode(); err != nil {
		r.fail("%v", err)
	}
	g.Names = slices.Clone(r.g.Names)
	g.Partial = !r.over
	g.ServerSeed = ""
	if !r.over {
		g.Entropy, g.FinalScores = nil, nil
		return &g
	}
	g.Entropy = slices.Clone(r.g.Entropy)
	fs := *r.g.FinalScores
	g.FinalScores = &fs
	return &g
}

func (r *Recorder) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("record: "+format, args...)
	}
}

// Step records action a, which the table accepted, and the events evs it
// caused. Refused actions must not be fed.
func (r *Recorder) Step(a sc.Action, evs []sc.Event) {
	if a.Type == sc.Deal {
		r.deal(a.Wall)
	} else if r.cur == nil {
		r.fail("%v outside a hand", a.Type)
		return
	} else {
		r.cur.Actions = append(r.cur.Actions, ActionOf(a))
	}
	for _, e := range evs {
		r.event(e.Body)
	}
}

func (r *Recorder) deal(w *sc.Wall) {
	if w == nil {
		r.fail("a deal without a wall")
		return
	}
	if r.cur != nil {
		r.fail("a deal during a hand")
	}
	rd := &Round{Direction: w.Direction.String(), Actions: []Action{}}
	if w.Seed != ([32]byte{}) {
		rd.WallSeed = hex.EncodeToString(w.Seed[:])
	}
	if w.Commitment != ([32]byte{}) {
		rd.Commitment = hex.EncodeToString(w.Commitment[:])
	}
	r.cur = rd
	r.wall = *w
}

func (r *Recorder) event(b sc.Body) {
	rd := r.cur
	switch b := b.(type) {
	case sc.HandStarted:
		if rd == nil {
			r.fail("a hand started without a deal")
			return
		}
		rd.Dealer, rd.Scores = int(b.Dealer), b.Scores
		if r.done.Len() == 0 {
			r.g.StartScores = b.Scores
		}
		for off := range sc.NumSeats {
			n := 13
			if off == 0 {
				n = 14
			}
			ts := make([]tile.Tile, n)
			for i := range ts {
				ts[i] = r.wall.Tiles[sc.DealPos(off, i)]
			}
			rd.Hands[(int(b.Dealer)+off)%sc.NumSeats] = formatEach(ts)
		}
	case sc.Drew:
		if rd != nil && b.Known {
			rd.Draws += b.Tile.String()
		}
	case sc.Won:
		if rd != nil {
			rd.Result.Wins = append(rd.Result.Wins, Win{Seat: int(b.Seat), From: int(b.From), Tile: b.WinTile.String(), Fan: b.Fan, Value: b.Value})
		}
	case sc.HandEnded:
		if rd == nil {
			r.fail("a hand ended that did not start")
			return
		}
		rd.Result.End, rd.Result.Deltas = b.Kind.String(), b.Deltas
		if err := r.done.Append(rd); err != nil {
			r.fail("%v", err)
		}
		r.cur = nil
	case sc.MatchEnded:
		fs := b.Scores
		r.g.FinalScores, r.over = &fs, true
	}
}

// recorderState is a recorder's snapshot: taken between hands, where
// nothing of a hand in progress needs keeping.
type recorderState struct {
	Game savedGame `json:"game"`
	Over bool      `json:"over"`
}

// savedGame is a Game whose hands are kept encoded. Its JSON is the
// Game's: the outer Rounds stands for the Game's own.
type savedGame struct {
	*Game
	Rounds rounds.Encoded[Round] `json:"rounds"`
}

// ErrInHand is AppendBinary's error during a hand.
var ErrInHand = errors.New("record: a recorder is snapshotted only between hands")

// AppendBinary appends the recorder's state, between hands, to dst.
func (r *Recorder) AppendBinary(dst []byte) ([]byte, error) {
	if r.cur != nil {
		return dst, ErrInHand
	}
	if r.err != nil {
		return dst, r.err
	}
	b, err := json.Marshal(recorderState{Game: savedGame{Game: &r.g, Rounds: r.done}, Over: r.over})
	if err != nil {
		return dst, fmt.Errorf("record: %w", err)
	}
	return append(dst, b...), nil
}

// RestoreRecorder makes a recorder from what AppendBinary wrote.
func RestoreRecorder(b []byte) (*Recorder, error) {
	var g Game
	s := recorderState{Game: savedGame{Game: &g}}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("record: recorder state: %w", err)
	}
	if s.Over && g.FinalScores == nil {
		return nil, errors.New("record: recorder state: over without final scores")
	}
	return &Recorder{g: g, done: s.Game.Rounds, over: s.Over}, nil
}
