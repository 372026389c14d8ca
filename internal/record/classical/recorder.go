package classical

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/record/rounds"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// Recorder builds a Game from the engine's steps: feed it every accepted
// action with the events it caused (every audience's).
type Recorder struct {
	g    Game                  // the game but its hands: g.Rounds stays nil
	done rounds.Encoded[Round] // the finished hands, kept encoded
	cur  *Round                // the hand being played
	over bool
	err  error
}

// NewRecorder returns a recorder of a game of rules on table id.
func NewRecorder(id string, rules ct.Rules) *Recorder {
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
// server seed and the seats' entropy, which Game shows only once the game
// is over.
func (r *Recorder) SetSeeds(commitment [32]byte, entropy [4][]byte) {
	r.g.SeedCommitment = hex.EncodeToString(commitment[:])
	r.g.Entropy = make([]string, len(entropy))
	for s, e := range entropy {
		r.g.Entropy[s] = hex.EncodeToString(e)
	}
}

// Over reports whether the game has ended; Rounds how many hands are
// recorded (finished); Err what went wrong, if the steps made no sense.
func (r *Recorder) Over() bool  { return r.over }
func (r *Recorder) Rounds() int { return r.done.Len() }
func (r *Recorder) Err() error  { return r.err }

// Game returns the record of the hands played to their end: the whole
// game once it is over, otherwise its finished hands marked Partial. The
// hand being played is never included, nor, before the game is over, the
// entropy: with the server seed, which a seeded table's creator knows, it
// derives every wall. The record shares nothing with the recorder: its
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
func (r *Recorder) Step(a ct.Action, evs []ct.Event) {
	switch {
	case a.Type == ct.Deal:
		if a.Wall == nil {
			r.fail("a deal without a wall")
			return
		}
		if r.cur != nil {
			r.fail("a deal during a hand")
		}
		w := a.Wall
		rd := &Round{Wall: formatEach(w.Tiles[:]), Actions: []Action{}}
		if w.Seed != ([32]byte{}) {
			rd.WallSeed = hex.EncodeToString(w.Seed[:])
		}
		if w.Commitment != ([32]byte{}) {
			rd.Commitment = hex.EncodeToString(w.Commitment[:])
		}
		r.cur = rd
	case r.cur == nil:
		r.fail("%v outside a hand", a.Type)
		return
	default:
		r.cur.Actions = append(r.cur.Actions, ActionOf(a))
	}
	for _, e := range evs {
		r.event(e.Body)
	}
}

func (r *Recorder) event(b ct.Body) {
	rd := r.cur
	switch b := b.(type) {
	case ct.HandStarted:
		if rd == nil {
			r.fail("a hand started without a deal")
			return
		}
		rd.Dealer, rd.Round, rd.Scores = int(b.Dealer), b.Round.String(), b.Scores
		if r.done.Len() == 0 {
			r.g.StartScores = b.Scores
		}
	case ct.Won:
		if rd != nil {
			rd.Result.Winner, rd.Result.From, rd.Result.Tile = int(b.Seat), int(b.From), b.WinTile.String()
		}
	case ct.HandEnded:
		if rd == nil {
			r.fail("a hand ended that did not start")
			return
		}
		rd.Result.End, rd.Result.Deltas = b.Kind.String(), b.Deltas
		if b.Kind == ct.EndMahJong {
			rd.Result.Lines = make([]Line, len(b.Lines))
			for i, l := range b.Lines {
				rd.Result.Lines[i] = Line{Score: l.Score, Points: l.Base, Doubles: l.Doubles, Special: l.Special.String(), Fishing: l.Fishing}
			}
		}
		if err := r.done.Append(rd); err != nil {
			r.fail("%v", err)
		}
		r.cur = nil
	case ct.GameEnded:
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
