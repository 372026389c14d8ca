package table

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ErrSnapshot is what every error of Restore and Snapshot.UnmarshalBinary
// about the snapshot itself matches.
var ErrSnapshot = errors.New("table: bad snapshot")

// Snapshot is a table between rounds or after its last round: everything
// Restore needs to make a table that plays on exactly as this one would -
// the same events with the same Seq, the same views, the same final
// scores - when fed the same actions. A host saves one at each round
// boundary so that recovering a table replays only the round in progress.
//
// Between rounds the next deal resets every round-scoped field, so the
// game's own state is a few numbers; what Last adds is the round just
// played as the seats' views still show it (ponds, melds, hands, dora)
// until the next deal, with its wall, so that a restored table passes
// Verify like the original.
type Snapshot struct {
	Rules        Rules
	StartScores  [NumSeats]int // before the first round
	Phase        Phase         // BetweenRounds or GameOver
	Seq          uint64        // the Seq of the table's last event
	Scores       [NumSeats]int
	RoundWind    tile.Wind
	Number       int // 1..4 within the round wind
	Honba        int
	RiichiSticks int
	Rounds       int        // rounds dealt so far
	Last         *LastRound // the round played last; nil before the first deal
}

// LastRound is the finished round a table still shows between rounds.
type LastRound struct {
	Wall    [wall.Size]tile.Tile
	Draws   int // tiles drawn from the live wall
	Rinshan int // replacement draws
	Kans    int
	Dora    int // indicators face up
	ToAct   Seat
	Seats   [NumSeats]LastSeat
}

// LastSeat is one seat's part of LastRound.
type LastSeat struct {
	Hand     []tile.Tile // concealed, sorted
	Melds    []Meld
	Discards []DiscardView
	Riichi   bool
}

// Bounds of a snapshot, so that a corrupt one cannot ask for much.
const (
	maxHonba    = 1 << 10
	maxRounds   = 1 << 16
	maxDiscards = 128
	maxHand     = 14
)

// Snapshot returns the table's snapshot. It fails (ErrPhase) unless the
// table is between rounds or its game is over.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.phase != BetweenRounds && t.phase != GameOver {
		return Snapshot{}, fmt.Errorf("%w: snapshot in %v", ErrPhase, t.phase)
	}
	s := Snapshot{
		Rules: t.rules, StartScores: t.start, Phase: t.phase, Seq: t.seq, Scores: t.scores,
		RoundWind: t.wind, Number: t.number, Honba: t.honba, RiichiSticks: t.sticks, Rounds: t.rounds,
	}
	if t.rounds == 0 {
		return s, nil
	}
	r := &t.r
	l := &LastRound{Wall: r.wall.Tiles, Draws: r.next, Rinshan: r.rinshan, Kans: r.kans, Dora: r.dora, ToAct: r.toAct}
	for i := range r.seats {
		p := &r.seats[i]
		l.Seats[i] = LastSeat{Hand: clone(p.hand), Melds: clone(p.melds), Discards: clone(p.pond), Riichi: p.riichi}
	}
	s.Last = l
	return s, nil
}

// clone copies s; empty is nil, as the decoder makes it.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// Restore returns the table s is a snapshot of. cfg must be the config the
// table was made with (its rules and start scores are checked against the
// snapshot's). The snapshot is checked whole - ranges, scores plus sticks
// equal to the start, and for the last round every one of the 136 tiles in
// exactly one place (see Verify) - and refused with an error matching
// ErrSnapshot (or ErrConfig for a bad cfg) if anything is off.
func Restore(cfg Config, s Snapshot) (*Table, error) {
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := t.restore(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	return t, nil
}

func (t *Table) restore(s *Snapshot) error {
	switch {
	case s.Rules != t.rules:
		return fmt.Errorf("rules %q differ from the config's %q", s.Rules.Name, t.rules.Name)
	case s.StartScores != t.start:
		return fmt.Errorf("start scores %v, the config's %v", s.StartScores, t.start)
	case s.Phase != BetweenRounds && s.Phase != GameOver:
		return fmt.Errorf("phase %v", s.Phase)
	case s.RoundWind > tile.WindNorth || s.Number < 1 || s.Number > 4:
		return fmt.Errorf("round %v %d", s.RoundWind, s.Number)
	case s.Honba < 0 || s.Honba > maxHonba || s.RiichiSticks < 0 || s.Rounds < 0 || s.Rounds > maxRounds:
		return fmt.Errorf("%d honba, %d sticks, %d rounds", s.Honba, s.RiichiSticks, s.Rounds)
	case (s.Rounds == 0) != (s.Last == nil):
		return fmt.Errorf("%d rounds dealt with a last round %t", s.Rounds, s.Last != nil)
	}
	sum := 1000 * s.RiichiSticks
	for _, v := range s.Scores {
		if v < -maxScore || v > maxScore {
			return fmt.Errorf("score %d", v)
		}
		sum += v
	}
	if sum != t.total {
		return fmt.Errorf("scores %v and %d sticks make %d, the start %d", s.Scores, s.RiichiSticks, sum, t.total)
	}
	if s.Rounds == 0 && (s.Phase != BetweenRounds || s.Seq != 0 || s.RoundWind != tile.WindEast || s.Number != 1 || s.Honba != 0) {
		return errors.New("a table before its first deal has moved")
	}
	t.phase, t.seq, t.scores = s.Phase, s.Seq, s.Scores
	t.wind, t.number, t.honba, t.sticks, t.rounds = s.RoundWind, s.Number, s.Honba, s.RiichiSticks, s.Rounds
	if s.Last != nil {
		if err := t.restoreLast(s.Last); err != nil {
			return err
		}
	}
	return t.Verify()
}

// maxScore bounds a score: far beyond any game's.
const maxScore = 1 << 30

// restoreLast sets the round fields of a table between rounds from l.
func (t *Table) restoreLast(l *LastRound) error {
	switch {
	case l.Kans < 0 || l.Kans > wall.MaxKans || l.Rinshan < 0 || l.Rinshan > l.Kans:
		return fmt.Errorf("last round: %d kans, %d replacement draws", l.Kans, l.Rinshan)
	case l.Draws < 0 || l.Draws > wall.LiveSize(l.Kans):
		return fmt.Errorf("last round: %d draws", l.Draws)
	case l.Dora < 1 || l.Dora > 1+l.Kans:
		return fmt.Errorf("last round: %d indicators", l.Dora)
	case l.ToAct >= NumSeats:
		return fmt.Errorf("last round: seat %d to act", l.ToAct)
	}
	w := wall.Wall{Tiles: l.Wall}
	if err := w.Check(t.rules.Aka); err != nil {
		return fmt.Errorf("last round: %w", err)
	}
	r := &t.r
	ponds := [NumSeats][]DiscardView{}
	for s := range r.seats {
		ponds[s] = r.seats[s].pond[:0]
	}
	*r = round{wall: w, next: l.Draws, rinshan: l.Rinshan, kans: l.Kans, dora: l.Dora, toAct: l.ToAct}
	for i := range l.Dora {
		r.doraInd[i] = w.Tiles[wall.DoraPos(i)]
		r.uraInd[i] = w.Tiles[wall.UraPos(i)]
	}
	for s := range r.seats {
		ls := &l.Seats[s]
		if len(ls.Hand) > maxHand || len(ls.Melds) > 4 || len(ls.Discards) > maxDiscards {
			return fmt.Errorf("seat %d: %d tiles, %d melds, %d discards", s, len(ls.Hand), len(ls.Melds), len(ls.Discards))
		}
		if !slices.IsSortedFunc(ls.Hand, func(a, b tile.Tile) int { return cmp.Compare(sortKey(a), sortKey(b)) }) {
			// A snapshot holds hands sorted; an unsorted one is not a
			// table's, and would not encode back to itself.
			return fmt.Errorf("seat %d: hand %v not sorted", s, ls.Hand)
		}
		p := &r.seats[s]
		p.hand = p.handBuf[:0]
		for _, x := range ls.Hand {
			if !playable(x) {
				return fmt.Errorf("seat %d: hand tile %d", s, x)
			}
			p.add(x)
		}
		p.melds = p.meldBuf[:0]
		for _, m := range ls.Melds {
			if err := checkMeld(m); err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
			p.addMeld(m)
		}
		p.pond = append(ponds[s], ls.Discards...)
		for _, d := range ls.Discards {
			if !playable(d.Tile) {
				return fmt.Errorf("seat %d: discard %d", s, d.Tile)
			}
			p.discarded = p.discarded.With(d.Tile.Kind())
		}
		p.riichi = ls.Riichi
		if len(p.hand)+3*len(p.melds) == 13 {
			p.updateWaits()
		}
	}
	return nil
}

// playable reports whether x is one of the 34 kinds (a red five included):
// no flowers.
func playable(x tile.Tile) bool { return x.Valid() && x.Kind() < tile.NumKinds }

func checkMeld(m Meld) error {
	if m.Type < judge.Chi || m.Type > judge.ClosedKan || m.From >= NumSeats {
		return fmt.Errorf("meld %v from %d", m.Type, m.From)
	}
	for i, x := range m.Tiles {
		if i < m.Len() && !playable(x) || i >= m.Len() && x != 0 {
			return fmt.Errorf("meld %v tile %d", m.Type, x)
		}
	}
	if !playable(m.Called) || !playable(m.Added) {
		return fmt.Errorf("meld %v called %d added %d", m.Type, m.Called, m.Added)
	}
	return nil
}

// snapshotVersion is the first byte of an encoded snapshot; a new layout
// takes the next number, and UnmarshalBinary keeps reading the old ones.
const snapshotVersion = 1

// AppendBinary appends the snapshot's compact encoding to b
// (encoding.BinaryAppender): a version byte, then every field, integers
// as varints and tiles as bytes. A snapshot between rounds of an
// east-south game is about 400 bytes, most of them the last round's wall
// and ponds.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotVersion)
	b = appendRules(b, &s.Rules)
	for _, v := range s.StartScores {
		b = pack.AppendInt(b, v)
	}
	b = append(b, byte(s.Phase))
	b = pack.AppendUint(b, s.Seq)
	for _, v := range s.Scores {
		b = pack.AppendInt(b, v)
	}
	b = append(b, byte(s.RoundWind))
	b = pack.AppendInt(b, s.Number)
	b = pack.AppendInt(b, s.Honba)
	b = pack.AppendInt(b, s.RiichiSticks)
	b = pack.AppendInt(b, s.Rounds)
	b = pack.AppendBool(b, s.Last != nil)
	if l := s.Last; l != nil {
		for _, x := range l.Wall {
			b = append(b, byte(x))
		}
		b = pack.AppendInt(b, l.Draws)
		b = pack.AppendInt(b, l.Rinshan)
		b = pack.AppendInt(b, l.Kans)
		b = pack.AppendInt(b, l.Dora)
		b = append(b, byte(l.ToAct))
		for i := range l.Seats {
			ls := &l.Seats[i]
			b = appendTiles(b, ls.Hand)
			b = pack.AppendUint(b, uint64(len(ls.Melds)))
			for _, m := range ls.Melds {
				b = appendMeld(b, m)
			}
			b = pack.AppendUint(b, uint64(len(ls.Discards)))
			for _, d := range ls.Discards {
				b = append(b, byte(d.Tile), discardFlags(d))
			}
			b = pack.AppendBool(b, ls.Riichi)
		}
	}
	return b, nil
}

// MarshalBinary is AppendBinary to a new slice.
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary decodes what AppendBinary wrote. It checks the encoding
// and the bounds of lengths; Restore checks the rest.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	r := pack.NewReader(b)
	if v := r.Byte("version"); r.Err() == nil && v != snapshotVersion {
		return fmt.Errorf("%w: version %d", ErrSnapshot, v)
	}
	var out Snapshot
	out.Rules = readRules(r)
	for i := range out.StartScores {
		out.StartScores[i] = r.Int("start score", -maxScore, maxScore)
	}
	out.Phase = Phase(r.Byte("phase"))
	out.Seq = r.Uint("seq", 1<<40)
	for i := range out.Scores {
		out.Scores[i] = r.Int("score", -maxScore, maxScore)
	}
	out.RoundWind = tile.Wind(r.Byte("round wind"))
	out.Number = r.Int("number", 0, 4)
	out.Honba = r.Int("honba", 0, maxHonba)
	out.RiichiSticks = r.Int("riichi sticks", 0, maxScore/1000)
	out.Rounds = r.Int("rounds", 0, maxRounds)
	if r.Bool("last round") {
		l := &LastRound{}
		for i := range l.Wall {
			l.Wall[i] = tile.Tile(r.Byte("wall"))
		}
		l.Draws = r.Int("draws", 0, wall.Size)
		l.Rinshan = r.Int("rinshan", 0, wall.MaxKans)
		l.Kans = r.Int("kans", 0, wall.MaxKans)
		l.Dora = r.Int("dora", 0, wall.MaxDora)
		l.ToAct = Seat(r.Byte("to act"))
		for i := range l.Seats {
			ls := &l.Seats[i]
			ls.Hand = readTiles(r, maxHand)
			if n := r.Count("melds", 4); n > 0 {
				ls.Melds = make([]Meld, n)
				for j := range ls.Melds {
					ls.Melds[j] = readMeld(r)
				}
			}
			if n := r.Count("discards", maxDiscards); n > 0 {
				ls.Discards = make([]DiscardView, n)
				for j := range ls.Discards {
					ls.Discards[j] = readDiscard(r)
				}
			}
			ls.Riichi = r.Bool("riichi")
		}
		out.Last = l
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	*s = out
	return nil
}

// Rule flags, one bit each.
const (
	ruleAkaDora = 1 << iota
	ruleOpenTanyao
	ruleKazoeYakuman
	ruleKiriage
	ruleDoubleYakuman
	ruleStackYakuman
	ruleAka
	ruleEast
)

func appendRules(b []byte, r *Rules) []byte {
	var f uint64
	for i, on := range []bool{r.Scoring.AkaDora, r.Scoring.OpenTanyao, r.Scoring.KazoeYakuman, r.Scoring.Kiriage,
		r.Scoring.DoubleYakuman, r.Scoring.StackYakuman, r.Aka, r.East} {
		if on {
			f |= 1 << i
		}
	}
	b = pack.AppendString(b, r.Name)
	b = pack.AppendString(b, r.Scoring.Name)
	b = pack.AppendUint(b, f)
	b = pack.AppendInt(b, r.StartScore)
	return pack.AppendInt(b, r.TargetScore)
}

func readRules(r *pack.Reader) Rules {
	var out Rules
	out.Name = r.String("rules name", 64)
	out.Scoring.Name = r.String("scoring name", 64)
	f := r.Uint("rule flags", 1<<8-1)
	on := func(bit uint64) bool { return f&bit != 0 }
	out.Scoring.AkaDora, out.Scoring.OpenTanyao = on(ruleAkaDora), on(ruleOpenTanyao)
	out.Scoring.KazoeYakuman, out.Scoring.Kiriage = on(ruleKazoeYakuman), on(ruleKiriage)
	out.Scoring.DoubleYakuman, out.Scoring.StackYakuman = on(ruleDoubleYakuman), on(ruleStackYakuman)
	out.Aka, out.East = on(ruleAka), on(ruleEast)
	out.StartScore = r.Int("start score", 0, maxScore)
	out.TargetScore = r.Int("target score", 0, maxScore)
	return out
}
