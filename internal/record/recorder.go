package record

import (
	"encoding/hex"
	"slices"

	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Recorder builds the record of one game from the engine's steps. Feed it
// every action the table accepted, with the events the action caused, in
// order; Game returns the record so far. It is not safe for concurrent
// use: the goroutine that owns the table owns its recorder.
type Recorder struct {
	g    Game           // the game but its rounds: g.Rounds stays nil
	cur  *Round         // the round being played
	info roundInfo      // what the round being played has gathered
	ans  []table.Action // answers of the open claim window, in order
	over bool

	// A finished round is kept only encoded and squeezed (snapshot.go,
	// package squeeze), as its snapshot saves it: saved is the encoding
	// of the nSaved finished rounds, each encoded once, when it ends. Game decodes them afresh at
	// each call and keeps nothing of them, so a recorder grows through a
	// game by the compact form of its rounds only. The first restored of
	// them (restoredLen bytes) came with a restore and have not decoded
	// yet; err is why they did not, or why a round did not encode.
	saved       []byte
	nSaved      int
	restored    int
	restoredLen int
	err         error
}

// roundInfo collects a round's ordered tile fields as they happen.
type roundInfo struct {
	draws, rinshan, dora, ura []tile.Tile
}

// NewRecorder returns a recorder of a game with id, played under rules
// from start (zero: every seat starts with rules.StartScore).
func NewRecorder(id string, rules table.Rules, start [4]int) *Recorder {
	if start == ([4]int{}) {
		for s := range start {
			start[s] = rules.StartScore
		}
	}
	length := "hanchan"
	if rules.East {
		length = "tonpuu"
	}
	return &Recorder{g: Game{
		ID:          id,
		Rules:       replay.GameRules{Variant: "riichi", Aka: rules.Aka, Kuitan: rules.Scoring.OpenTanyao, Length: length},
		StartScores: start,
	}}
}

// SetTable names the table whose id the commitments are bound to; it is
// the game's id too if it had none.
func (r *Recorder) SetTable(id string) {
	r.g.TableID = id
	if r.g.ID == "" {
		r.g.ID = id
	}
}

// SetSeeds records the table seed's derivation: the commitment to the
// server seed and the seats' entropy. Game shows the entropy once the
// game is over, and the server seed is added to the record only then.
func (r *Recorder) SetSeeds(commitment [32]byte, entropy [4][]byte) {
	r.g.SeedCommitment = hex.EncodeToString(commitment[:])
	r.g.Entropy = make([]string, len(entropy))
	for s, e := range entropy {
		r.g.Entropy[s] = hex.EncodeToString(e)
	}
}

// Over reports whether the game has ended.
func (r *Recorder) Over() bool { return r.over }

// Game returns the record of the rounds played to their end: the whole
// game once it is over, otherwise its finished rounds marked Partial. The
// round being played is never included, so nothing of it leaks. Nor is
// the seats' entropy (or the server seed) before the game is over: with
// the server seed, which the creator of a seeded table knows, it derives
// the table seed and so the wall of every round, the one being played
// included. The record shares nothing with the recorder: its rounds are
// decoded afresh from their encoding at each call, a cost of the export
// that keeps the recorder small. If rounds a recorder was restored with
// (RestoreRecorder) do not decode, the record lacks them and Err says why.
func (r *Recorder) Game() *Game {
	g := r.g
	g.Rounds = r.rounds()
	g.Names = slices.Clone(r.g.Names)
	g.Partial = !r.over
	if !r.over {
		g.Entropy, g.ServerSeed = nil, ""
		return &g
	}
	g.Entropy = slices.Clone(r.g.Entropy)
	fs := *r.g.FinalScores
	g.FinalScores = &fs
	return &g
}

// Step records action a, which the table accepted, and the events evs it
// caused (every audience's). Refused actions must not be fed.
func (r *Recorder) Step(a table.Action, evs []table.Event) {
	switch a.Type {
	case table.Chi, table.Pon, table.OpenKan, table.Ron:
		r.ans = append(r.ans, a)
	}
	// A claim window closes in the step whose events say how: the
	// answers that took effect are the calls and rons those events show
	// (a chi that lost to a pon, a pass, leave no trace, as at a real
	// table).
	if len(evs) > 0 && len(r.ans) > 0 && a.Type != table.Deal {
		r.resolve(evs)
	}
	switch a.Type {
	case table.Discard, table.Riichi:
		act := Action{Seat: int(a.Seat), Type: "discard", Tile: a.Tile.String()}
		if a.Type == table.Riichi {
			act.Type = "riichi"
		}
		for _, e := range evs {
			if d, ok := e.Body.(table.Discarded); ok && d.Seat == a.Seat {
				act.Tsumogiri = d.Tsumogiri
				break
			}
		}
		r.act(act)
	case table.ClosedKan:
		r.act(Action{Seat: int(a.Seat), Type: "kan_closed", Tile: tile.Plain(a.Tile.Kind()).String()})
	case table.AddedKan:
		r.act(Action{Seat: int(a.Seat), Type: "kan_added", Tile: a.Tile.String()})
	case table.Tsumo:
		r.act(Action{Seat: int(a.Seat), Type: "tsumo"})
	case table.NineTerminals:
		r.act(Action{Seat: int(a.Seat), Type: "abort_nine_terminals"})
	}
	for _, e := range evs {
		r.event(e)
	}
}

// resolve records the answers of the window that evs close.
func (r *Recorder) resolve(evs []table.Event) {
	tripleRon := false
	won := [table.NumSeats]bool{}
	var called *table.Called
	for _, e := range evs {
		switch b := e.Body.(type) {
		case table.Won:
			won[b.Seat] = true
		case table.RoundEnded:
			tripleRon = b.Kind == table.EndTripleRon
		case table.Called:
			if called == nil {
				called = &b
			}
		}
	}
	for _, a := range r.ans {
		s := int(a.Seat)
		switch a.Type {
		case table.Ron:
			if won[a.Seat] || tripleRon {
				r.act(Action{Seat: s, Type: "ron"})
			}
		case table.Chi, table.Pon:
			if called != nil && called.Seat == a.Seat {
				typ := "chi"
				if a.Type == table.Pon {
					typ = "pon"
				}
				r.act(Action{Seat: s, Type: typ, Tiles: tile.Format(a.Tiles[:]), Called: called.Meld.Called.String()})
			}
		case table.OpenKan:
			if called != nil && called.Seat == a.Seat {
				r.act(Action{Seat: s, Type: "kan_open", Tile: called.Meld.Called.String()})
			}
		}
	}
	r.ans = r.ans[:0]
}

func (r *Recorder) act(a Action) {
	if r.cur != nil {
		r.cur.Actions = append(r.cur.Actions, a)
	}
}

func (r *Recorder) event(e table.Event) {
	if rs, ok := e.Body.(table.RoundStarted); ok {
		r.cur = &Round{Round: replay.Round{
			RoundWind: rs.RoundWind.String(), Dealer: int(rs.Dealer), Honba: rs.Honba,
			RiichiSticks: rs.RiichiSticks, Scores: rs.Scores, Actions: []Action{},
		}}
		if rs.Commitment != ([32]byte{}) {
			r.cur.Commitment = hex.EncodeToString(rs.Commitment[:])
		}
		r.info = roundInfo{dora: []tile.Tile{rs.Dora}}
		r.cur.Events = append(r.cur.Events, rs)
		return
	}
	if ge, ok := e.Body.(table.GameEnded); ok {
		fs := ge.Scores
		r.g.FinalScores = &fs
		r.over = true
		return
	}
	rd := r.cur
	if rd == nil {
		return
	}
	switch b := e.Body.(type) {
	case table.Dealt:
		rd.Hands[b.Seat] = tile.Format(b.Hand)
	case table.Drew:
		if !b.Known {
			return // the public copy
		}
		if b.Rinshan {
			r.info.rinshan = append(r.info.rinshan, b.Tile)
		} else {
			r.info.draws = append(r.info.draws, b.Tile)
		}
	case table.DoraRevealed:
		r.info.dora = append(r.info.dora, b.Indicator)
	case table.Won:
		if len(b.Ura) > len(r.info.ura) {
			r.info.ura = b.Ura
		}
	case table.RoundEnded:
		rd.Result.Deltas = b.Deltas
		if b.WallSeed != ([32]byte{}) {
			rd.WallSeed = hex.EncodeToString(b.WallSeed[:])
		}
	case table.Discarded, table.Called, table.RiichiAccepted:
	default:
		return // claim offers, tenpai notes
	}
	rd.Events = append(rd.Events, e.Body)
	if _, ok := e.Body.(table.RoundEnded); ok {
		rd.Draws = formatEach(r.info.draws)
		rd.Rinshan = formatEach(r.info.rinshan)
		rd.DoraIndicators = formatEach(r.info.dora)
		rd.UraIndicators = formatEach(r.info.ura)
		r.keep(rd)
		r.cur = nil
	}
}

// Replay replays a replay-contract game through the table (package replay)
// and returns its full record, engine events included. The replay must
// succeed: a game the table does not reproduce has no record.
func Replay(c *replay.Game) (*Game, error) {
	return Rebuild(FromContract(c))
}
