package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/record/squeeze"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// A recorder between rounds is the record of the rounds played so far; a
// host that snapshots its table at round boundaries saves it with the
// table (AppendBinary) and restores it with RestoreRecorder, so that an
// export after a restart is the whole record.

// ErrRecorderState is what every error of AppendBinary and RestoreRecorder
// matches.
var ErrRecorderState = errors.New("record: bad recorder state")

// recorderVersion is the first byte of an encoded recorder. Version 2
// holds each round squeezed (package squeeze), as the recorder keeps it;
// version 1 held them plain, and still restores.
const (
	recorderVersion = 2
	recorderPlain   = 1
)

// Bounds of a recorder's encoding.
const (
	maxRecRounds  = 1 << 12
	maxRecActions = 1 << 10
	maxRecEvents  = 1 << 11
	maxRecString  = 1 << 10
	maxRecBody    = 1 << 10
	maxRecRound   = 1 << 20
)

// AppendBinary appends the recorder's state to b: the record of the
// rounds played so far, in a compact binary form (tiles in their MPSZ
// strings, each round's events as package table encodes them). A round
// is encoded once, when it ends, and kept so; a snapshot copies the
// encoded rounds and costs no more encoding whatever the length of the
// game. It fails during a round: only a recorder between rounds (or after
// the game) has nothing half-built.
func (r *Recorder) AppendBinary(b []byte) ([]byte, error) {
	if r.cur != nil || len(r.ans) > 0 {
		return b, fmt.Errorf("%w: a round is being played", ErrRecorderState)
	}
	g := &r.g
	b = append(b, recorderVersion)
	b = pack.AppendBool(b, r.over)
	b = pack.AppendString(b, g.ID)
	b = pack.AppendString(b, g.TableID)
	b = appendStrings(b, g.Names)
	b = pack.AppendString(b, g.Rules.Variant)
	b = pack.AppendBool(b, g.Rules.Aka)
	b = pack.AppendBool(b, g.Rules.Kuitan)
	b = pack.AppendString(b, g.Rules.Length)
	b = appendInts(b, g.StartScores[:])
	b = pack.AppendBool(b, g.FinalScores != nil)
	if g.FinalScores != nil {
		b = appendInts(b, g.FinalScores[:])
	}
	b = pack.AppendString(b, g.SeedCommitment)
	b = pack.AppendString(b, g.ServerSeed)
	b = appendStrings(b, g.Entropy)
	b = pack.AppendUint(b, uint64(r.nSaved))
	return append(b, r.saved...), nil
}

// keep encodes rd, a round that ended, and keeps it squeezed after the
// rounds saved, framed as pack.AppendBytes frames it. saved is sized
// exactly: it is kept for the rest of the game, and a slice grown by
// append keeps up to a half more than it holds.
func (r *Recorder) keep(rd *Round) {
	buf := roundBufs.Get().(*[]byte)
	defer roundBufs.Put(buf)
	raw, err := appendRound((*buf)[:0], rd)
	*buf = raw
	if err != nil {
		// The record lacks the round, and so will the next snapshot: its
		// round count then disagrees with the engine's, and the host
		// rebuilds the table from its log.
		if r.err == nil {
			r.err = fmt.Errorf("%w: round %d: %w", ErrRecorderState, r.nSaved, err)
		}
		return
	}
	r.saved = appendExact(r.saved, squeeze.Squeeze(raw))
	r.nSaved++
}

// roundBufs hold a round's encoding before it is squeezed, shared by the
// recorders: a round's end is rare, a buffer of its own per table would
// stay in memory.
var roundBufs = sync.Pool{New: func() any { return new([]byte) }}

// appendExact returns saved with the frame of round after it, in a new
// slice of exactly that size.
func appendExact(saved, round []byte) []byte {
	var n [binary.MaxVarintLen64]byte
	l := pack.AppendUint(n[:0], uint64(len(round)))
	b := make([]byte, 0, len(saved)+len(l)+len(round))
	return append(append(append(b, saved...), l...), round...)
}

func appendRound(b []byte, rd *Round) ([]byte, error) {
	b = pack.AppendString(b, rd.RoundWind)
	b = pack.AppendInt(b, rd.Dealer)
	b = pack.AppendInt(b, rd.Honba)
	b = pack.AppendInt(b, rd.RiichiSticks)
	b = appendInts(b, rd.Scores[:])
	for _, h := range rd.Hands {
		b = pack.AppendString(b, h)
	}
	for _, s := range []string{rd.Draws, rd.DoraIndicators, rd.UraIndicators, rd.Rinshan, rd.WallSeed, rd.Commitment} {
		b = pack.AppendString(b, s)
	}
	b = pack.AppendUint(b, uint64(len(rd.Actions)))
	for _, a := range rd.Actions {
		b = pack.AppendInt(b, a.Seat)
		b = pack.AppendString(b, a.Type)
		b = pack.AppendString(b, a.Tile)
		b = pack.AppendString(b, a.Tiles)
		b = pack.AppendString(b, a.Called)
		b = pack.AppendBool(b, a.Tsumogiri)
	}
	b = appendInts(b, rd.Result.Deltas[:])
	b = pack.AppendUint(b, uint64(len(rd.Events)))
	var body []byte
	var err error
	for _, e := range rd.Events {
		if body, err = table.AppendBody(body[:0], e); err != nil {
			return b, err
		}
		b = pack.AppendBytes(b, body)
	}
	return b, nil
}

// RestoreRecorder returns the recorder whose state AppendBinary wrote; it
// goes on recording from the next round. The rounds already recorded stay
// encoded, as every finished round does, so a restore costs little
// however long the game; their framing is checked here, their contents
// when Game first decodes them. The plain rounds of a version 1 state
// are squeezed here, once.
func RestoreRecorder(b []byte) (*Recorder, error) {
	r := pack.NewReader(b)
	v := r.Byte("version")
	if r.Err() == nil && v != recorderVersion && v != recorderPlain {
		return nil, fmt.Errorf("%w: version %d", ErrRecorderState, v)
	}
	rec := &Recorder{}
	g := &rec.g
	rec.over = r.Bool("over")
	g.ID = r.String("id", maxRecString)
	g.TableID = r.String("table id", maxRecString)
	g.Names = readStrings(r)
	g.Rules = replay.GameRules{Variant: r.String("variant", maxRecString), Aka: r.Bool("aka"), Kuitan: r.Bool("kuitan"), Length: r.String("length", maxRecString)}
	readInts(r, g.StartScores[:])
	if r.Bool("final scores") {
		var fs [4]int
		readInts(r, fs[:])
		g.FinalScores = &fs
	}
	g.SeedCommitment = r.String("seed commitment", maxRecString)
	g.ServerSeed = r.String("server seed", maxRecString)
	g.Entropy = readStrings(r)
	n := r.Count("rounds", maxRecRounds)
	var saved []byte
	start := len(b) - r.Len()
	for range n {
		raw := r.Bytes("round", maxRecRound)
		if r.Err() == nil && v == recorderPlain {
			saved = appendExact(saved, squeeze.Squeeze(raw))
		}
	}
	if v == recorderVersion {
		saved = bytes.Clone(b[start : len(b)-r.Len()])
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRecorderState, err)
	}
	if rec.over != (g.FinalScores != nil) {
		return nil, fmt.Errorf("%w: over %t with final scores %v", ErrRecorderState, rec.over, g.FinalScores)
	}
	rec.saved, rec.nSaved = saved, n
	rec.restored, rec.restoredLen = n, len(rec.saved)
	return rec, nil
}

// Err reports why the record lacks rounds: rounds a recorder was restored
// with that did not decode (known once Game has decoded them), or a round
// that did not encode; nil if none.
func (r *Recorder) Err() error { return r.err }

// rounds decodes the finished rounds into a fresh slice.
func (r *Recorder) rounds() []Round {
	rounds, i, err := decodeRounds(r.saved, r.nSaved)
	switch {
	case err == nil:
		r.restored, r.restoredLen = 0, 0 // they decode, and always will
		return rounds
	case i < r.restored:
		// The record lacks the restored rounds, and so will the next
		// snapshot: its round count then disagrees with the engine's,
		// and the host rebuilds the table from its log, recorder
		// included.
		r.err = fmt.Errorf("%w: round %d: %w", ErrRecorderState, i, err)
		r.saved = slices.Clone(r.saved[r.restoredLen:])
		r.nSaved -= r.restored
		r.restored, r.restoredLen = 0, 0
		return r.rounds()
	}
	// A round this recorder encoded does not decode: a bug of the
	// encoding, reported as a bad record rather than a panic.
	if r.err == nil {
		r.err = fmt.Errorf("%w: round %d: %w", ErrRecorderState, i, err)
	}
	return rounds[:i]
}

// decodeRounds decodes the n framed squeezed rounds of b. On error it
// returns the index of the round that did not decode.
func decodeRounds(b []byte, n int) ([]Round, int, error) {
	rounds := make([]Round, n)
	rd := pack.NewReader(b)
	for i := range rounds {
		kept := rd.Bytes("round", maxRecRound)
		if rd.Err() != nil {
			return rounds, i, rd.Err()
		}
		// A buffer of its own for each round: the record shares nothing
		// with the recorder, nor its rounds with one another.
		raw, err := squeeze.Expand(nil, kept, maxRecRound)
		if err != nil {
			return rounds, i, err
		}
		rr := pack.NewReader(raw)
		if err := readRound(rr, &rounds[i]); err != nil {
			return rounds, i, err
		}
		if err := rr.Done(); err != nil {
			return rounds, i, err
		}
	}
	return rounds, n, nil
}

func readRound(r *pack.Reader, rd *Round) error {
	rd.RoundWind = str(r, "round wind")
	rd.Dealer = r.Int("dealer", 0, 3)
	rd.Honba = r.Int("honba", 0, 1<<10)
	rd.RiichiSticks = r.Int("sticks", 0, 1<<10)
	readInts(r, rd.Scores[:])
	for i := range rd.Hands {
		rd.Hands[i] = r.String("hand", maxRecString)
	}
	for _, s := range []*string{&rd.Draws, &rd.DoraIndicators, &rd.UraIndicators, &rd.Rinshan, &rd.WallSeed, &rd.Commitment} {
		*s = r.String("tiles", maxRecString)
	}
	rd.Actions = make([]Action, r.Count("actions", maxRecActions))
	for i := range rd.Actions {
		a := &rd.Actions[i]
		a.Seat = r.Int("seat", 0, 3)
		a.Type, a.Tile, a.Tiles, a.Called = str(r, "type"), str(r, "tile"), str(r, "tiles"), str(r, "called")
		a.Tsumogiri = r.Bool("tsumogiri")
	}
	readInts(r, rd.Result.Deltas[:])
	if n := r.Count("events", maxRecEvents); n > 0 {
		rd.Events = make([]table.Body, n)
		for i := range rd.Events {
			raw := r.Bytes("event", maxRecBody)
			if r.Err() != nil {
				break
			}
			e, err := table.DecodeBody(raw)
			if err != nil {
				return fmt.Errorf("event %d: %w", i, err)
			}
			rd.Events[i] = e
		}
	}
	return r.Err()
}

// strs are the strings a round's actions repeat (types, tiles, winds):
// decoded without an allocation each.
var strs = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{"discard", "riichi", "chi", "pon", "kan_open", "kan_closed", "kan_added", "tsumo", "ron", "abort_nine_terminals", "E", "S", "W", "N"} {
		m[s] = s
	}
	for k := range tile.Kind(tile.NumKinds) {
		s := tile.Plain(k).String()
		m[s] = s
	}
	for _, x := range []tile.Tile{tile.RedM5, tile.RedP5, tile.RedS5} {
		m[x.String()] = x.String()
	}
	return m
}()

// str reads a short string, shared when it is a common one.
func str(r *pack.Reader, what string) string {
	raw := r.Bytes(what, maxRecString)
	if s, ok := strs[string(raw)]; ok {
		return s
	}
	return string(raw)
}

func appendInts(b []byte, vs []int) []byte {
	for _, v := range vs {
		b = pack.AppendInt(b, v)
	}
	return b
}

func readInts(r *pack.Reader, vs []int) {
	for i := range vs {
		vs[i] = r.Int("score", -1<<30, 1<<30)
	}
}

func appendStrings(b []byte, ss []string) []byte {
	b = pack.AppendBool(b, ss != nil)
	b = pack.AppendUint(b, uint64(len(ss)))
	for _, s := range ss {
		b = pack.AppendString(b, s)
	}
	return b
}

func readStrings(r *pack.Reader) []string {
	present := r.Bool("strings")
	n := r.Count("strings", 16)
	if !present {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.String("string", maxRecString)
	}
	return ss
}

// Rounds is how many rounds the recorder has recorded to their end.
func (r *Recorder) Rounds() int { return r.nSaved }
