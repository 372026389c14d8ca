package mcr

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/record/rounds"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Recorder builds the record of a game from the engine's steps. Feed it
// every step that succeeded, deals included, in order.
type Recorder struct {
	st  state
	cur *Hand // the hand in progress
	fl  [tbl.NumSeats][]tile.Tile
	err error
}

// state is what a Recorder keeps between hands, which its snapshot saves.
type state struct {
	Game    savedGame `json:"game"`
	Entropy []string  `json:"entropy,omitempty"` // revealed in Game once it is over
	Over    bool      `json:"over"`
}

// savedGame is a Game whose finished hands are kept encoded, a Game's
// Hands left nil. Its JSON is the Game's: the outer Hands stands for the
// Game's own.
type savedGame struct {
	*Game
	Hands rounds.Encoded[Hand] `json:"hands"`
}

// NewRecorder returns the recorder of a game played with rules.
func NewRecorder(rules tbl.Rules) *Recorder {
	return &Recorder{st: state{Game: savedGame{Game: &Game{Rules: Rules{Variant: Variant, Hands: rules.Hands}}}}}
}

// SetTable sets the table id, which is also the record's id.
func (r *Recorder) SetTable(id string) { r.st.Game.ID, r.st.Game.TableID = id, id }

// SetSeeds sets the commitment to the server seed, published at once, and
// the seats' entropy, which the record shows only once the game is over.
func (r *Recorder) SetSeeds(commitment [32]byte, entropy [tbl.NumSeats][]byte) {
	r.st.Game.SeedCommitment = hex.EncodeToString(commitment[:])
	r.st.Entropy = make([]string, len(entropy))
	for i, e := range entropy {
		r.st.Entropy[i] = hex.EncodeToString(e)
	}
}

// Over reports whether the game is over.
func (r *Recorder) Over() bool { return r.st.Over }

// Hands is the number of finished hands.
func (r *Recorder) Hands() int { return r.st.Game.Hands.Len() }

// Err reports why the record lacks hands (a hand that did not encode or
// decode), nil if it lacks none.
func (r *Recorder) Err() error { return r.err }

func (r *Recorder) fail(err error) {
	if r.err == nil {
		r.err = fmt.Errorf("record/mcr: %w", err)
	}
}

// Game returns the record so far: the finished hands, marked partial until
// the game is over, when the entropy joins it (the caller adds the server
// seed then). It shares nothing with the recorder: its hands are decoded
// afresh at each call, a cost of the export that keeps the recorder small.
func (r *Recorder) Game() *Game {
	g := *r.st.Game.Game
	var err error
	if g.Hands, err = r.st.Game.Hands.Decode(); err != nil {
		r.fail(err)
	}
	g.Partial = !r.st.Over
	if r.st.Over {
		g.Entropy = append([]string(nil), r.st.Entropy...)
	}
	return &g
}

// Step records an action the engine took and the events it returned.
func (r *Recorder) Step(a tbl.Action, evs []tbl.Event) {
	if a.Type != tbl.Deal && r.cur != nil {
		r.cur.Actions = append(r.cur.Actions, FormatAction(a))
	}
	for _, e := range evs {
		r.event(e.Body)
	}
}

func (r *Recorder) event(b tbl.Body) {
	switch b := b.(type) {
	case tbl.HandStarted:
		r.cur = &Hand{Index: b.Index, Round: windLetter(b.Round), Dealer: int(b.Dealer), Winds: windsStr(b.Winds), Actions: []string{}}
		if b.Commitment != ([32]byte{}) {
			r.cur.Commitment = hex.EncodeToString(b.Commitment[:])
		}
		r.fl = [tbl.NumSeats][]tile.Tile{}
	case tbl.Dealt:
		if r.cur != nil {
			r.cur.Dealt[b.Seat] = inOrder(b.Hand)
		}
	case tbl.FlowerSetAside:
		r.fl[b.Seat] = append(r.fl[b.Seat], b.Flower)
	case tbl.Won:
		if r.cur == nil {
			return
		}
		w, f := int(b.Seat), int(b.From)
		res := &r.cur.Result
		res.Winner, res.From, res.Tsumo, res.Robbed = &w, &f, b.Tsumo, b.Chankan
		res.Hand, res.WinTile, res.Flowers, res.Total = inOrder(b.Hand), b.WinTile.String(), b.Flowers, b.Total
		for _, x := range b.Fans {
			res.Fans = append(res.Fans, Fan(x))
		}
	case tbl.HandEnded:
		if r.cur == nil {
			return
		}
		r.cur.Result.Kind = b.Kind.String()
		r.cur.Result.Deltas, r.cur.Result.Scores = b.Deltas, b.Scores
		if b.WallSeed != ([32]byte{}) {
			r.cur.WallSeed = hex.EncodeToString(b.WallSeed[:])
		}
		for s := range r.fl {
			r.cur.Flowers[s] = inOrder(r.fl[s])
		}
		if err := r.st.Game.Hands.Append(r.cur); err != nil {
			r.fail(err)
		}
		r.cur = nil
	case tbl.GameEnded:
		sc, tp := b.Scores, b.TablePoints
		r.st.Game.FinalScores, r.st.Game.TablePoints = &sc, &tp
		r.st.Over = true
	}
}

// AppendBinary appends the recorder's state between hands (a game's
// snapshot): it fails while a hand is in progress.
func (r *Recorder) AppendBinary(b []byte) ([]byte, error) {
	if r.cur != nil {
		return b, fmt.Errorf("record/mcr: snapshot during hand %d", r.cur.Index)
	}
	raw, err := json.Marshal(&r.st)
	if err != nil {
		return b, fmt.Errorf("record/mcr: %w", err)
	}
	return pack.AppendBytes(b, raw), nil
}

// RestoreRecorder reads a recorder AppendBinary saved, all of b.
func RestoreRecorder(b []byte) (*Recorder, error) {
	rd := pack.NewReader(b)
	raw := rd.Bytes("recorder", maxLine)
	if err := rd.Done(); err != nil {
		return nil, fmt.Errorf("record/mcr: %w", err)
	}
	r := &Recorder{st: state{Game: savedGame{Game: &Game{}}}}
	if err := json.Unmarshal(raw, &r.st); err != nil {
		return nil, fmt.Errorf("%w: recorder: %v", ErrSyntax, err)
	}
	if r.st.Game.Rules.Variant != Variant {
		return nil, fmt.Errorf("%w: recorder of %q", ErrSyntax, r.st.Game.Rules.Variant)
	}
	return r, nil
}
