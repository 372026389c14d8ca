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
	cur  *Round         // the round being played, its Actions left empty until it ends
	acts []act          // the actions of the round being played
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
		x := act{seat: uint8(a.Seat), kind: actDiscard, tile: a.Tile}
		if a.Type == table.Riichi {
			x.kind = actRiichi
		}
		for _, e := range evs {
			if d, ok := e.Body.(table.Discarded); ok && d.Seat == a.Seat {
				x.tsumogiri = d.Tsumogiri
				break
			}
		}
		r.act(x)
	case table.ClosedKan:
		r.act(act{seat: uint8(a.Seat), kind: actKanClosed, tile: tile.Plain(a.Tile.Kind())})
	case table.AddedKan:
		r.act(act{seat: uint8(a.Seat), kind: actKanAdded, tile: a.Tile})
	case table.Tsumo:
		r.act(act{seat: uint8(a.Seat), kind: actTsumo})
	case table.NineTerminals:
		r.act(act{seat: uint8(a.Seat), kind: actNineTerminals})
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
		s := uint8(a.Seat)
		switch a.Type {
		case table.Ron:
			if won[a.Seat] || tripleRon {
				r.act(act{seat: s, kind: actRon})
			}
		case table.Chi, table.Pon:
			if called != nil && called.Seat == a.Seat {
				kind := actChi
				if a.Type == table.Pon {
					kind = actPon
				}
				r.act(act{seat: s, kind: kind, tiles: a.Tiles, tile: called.Meld.Called})
			}
		case table.OpenKan:
			if called != nil && called.Seat == a.Seat {
				r.act(act{seat: s, kind: actKanOpen, tile: called.Meld.Called})
			}
		}
	}
	r.ans = r.ans[:0]
}

func (r *Recorder) act(a act) {
	if r.cur != nil {
		r.acts = append(r.acts, a)
	}
}

// act is an action of the round being played as the recorder holds it
// until the round ends, when it becomes an Action: 8 bytes rather than
// an Action's 80 (its strings), the record of the round in play being
// most of what a recorder holds besides its squeezed rounds.
type act struct {
	seat      uint8
	kind      actKind
	tile      tile.Tile    // discards and kans: the tile; chi and pon: the tile called
	tiles     [2]tile.Tile // chi and pon: the seat's own tiles
	tsumogiri bool
}

// actKind is an act's Action.Type.
type actKind uint8

const (
	actDiscard actKind = iota
	actRiichi
	actKanClosed
	actKanAdded
	actKanOpen
	actTsumo
	actNineTerminals
	actRon
	actChi
	actPon
)

var actTypes = [...]string{
	actDiscard: "discard", actRiichi: "riichi", actKanClosed: "kan_closed", actKanAdded: "kan_added",
	actKanOpen: "kan_open", actTsumo: "tsumo", actNineTerminals: "abort_nine_terminals", actRon: "ron",
	actChi: "chi", actPon: "pon",
}

// action is a as the record writes it.
func (a act) action() Action {
	x := Action{Seat: int(a.seat), Type: actTypes[a.kind], Tsumogiri: a.tsumogiri}
	switch a.kind {
	case actDiscard, actRiichi, actKanClosed, actKanAdded, actKanOpen:
		x.Tile = a.tile.String()
	case actChi, actPon:
		x.Tiles, x.Called = tile.Format(a.tiles[:]), a.tile.String()
	}
	return x
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
		r.acts = r.acts[:0]
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
		rd.Actions = make([]Action, len(r.acts))
		for i, a := range r.acts {
			rd.Actions[i] = a.action()
		}
		r.acts = r.acts[:0]
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
