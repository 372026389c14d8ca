package mcr

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ErrSnapshot is what every error of Restore and Snapshot.UnmarshalBinary
// about the snapshot itself matches.
var ErrSnapshot = errors.New("mcr: bad snapshot")

// Snapshot is a table between hands or after its game: everything Restore
// needs to make a table that plays on exactly as this one would (the same
// events with the same Seq, the same views) when fed the same actions. Last
// is the hand just played as the seats' views still show it until the next
// deal. The dealer and the winds follow from Hands.
type Snapshot struct {
	Rules  Rules
	Phase  Phase  // BetweenHands or GameOver
	Seq    uint64 // the Seq of the table's last event
	Scores [NumSeats]int
	Hands  int // hands dealt so far
	Last   *LastHand
}

// LastHand is the finished hand a table still shows between hands.
type LastHand struct {
	Wall    [WallSize]tile.Tile
	Front   int // the next position drawn from the front
	Back    int // replacements drawn from the back
	ToAct   Seat
	Won     bool
	Winner  Seat
	WinTile tile.Tile
	Seats   [NumSeats]LastSeat
}

// LastSeat is one seat's part of LastHand.
type LastSeat struct {
	Hand     []tile.Tile // concealed, sorted
	Melds    []Meld
	Discards []DiscardView
	Flowers  []tile.Tile
}

// Snapshot returns the table's snapshot. It fails (ErrPhase) unless the
// table is between hands or its game is over.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.phase != BetweenHands && t.phase != GameOver {
		return Snapshot{}, fmt.Errorf("%w: snapshot in %v", ErrPhase, t.phase)
	}
	s := Snapshot{Rules: t.rules, Phase: t.phase, Seq: t.seq, Scores: t.scores, Hands: t.hands}
	if t.hands == 0 {
		return s, nil
	}
	r := &t.r
	l := &LastHand{Wall: r.wall.Tiles, Front: r.front, Back: r.back, ToAct: r.toAct, Won: r.won, Winner: r.winner, WinTile: r.winTile}
	for i := range r.seats {
		p := &r.seats[i]
		l.Seats[i] = LastSeat{Hand: clone(p.hand), Melds: clone(p.melds), Discards: clone(p.pond), Flowers: clone(p.flowers)}
	}
	s.Last = l
	return s, nil
}

func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// Restore returns the table s is a snapshot of. cfg must be the config the
// table was made with. The snapshot is checked whole (ranges, scores that
// sum to zero, all 144 tiles of the last hand each in one place: see
// Verify) and refused with an error matching ErrSnapshot (or ErrConfig for
// a bad cfg) if anything is off.
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
	case s.Phase != BetweenHands && s.Phase != GameOver:
		return fmt.Errorf("phase %v", s.Phase)
	case s.Hands < 0 || s.Hands > t.rules.Hands:
		return fmt.Errorf("%d hands of %d", s.Hands, t.rules.Hands)
	case (s.Phase == GameOver) != (s.Hands == t.rules.Hands):
		return fmt.Errorf("%v after %d of %d hands", s.Phase, s.Hands, t.rules.Hands)
	case (s.Hands == 0) != (s.Last == nil):
		return fmt.Errorf("%d hands dealt with a last hand %t", s.Hands, s.Last != nil)
	case s.Hands == 0 && (s.Seq != 0 || s.Scores != [NumSeats]int{}):
		return errors.New("a table before its first deal has moved")
	}
	for _, v := range s.Scores {
		if v < -maxScore || v > maxScore {
			return fmt.Errorf("score %d", v)
		}
	}
	t.phase, t.seq, t.scores, t.hands = s.Phase, s.Seq, s.Scores, s.Hands
	if s.Last != nil {
		if err := t.restoreLast(s.Last); err != nil {
			return err
		}
	}
	return t.Verify()
}

func (t *Table) restoreLast(l *LastHand) error {
	switch {
	case l.Front < liveStart+1 || l.Back < 0 || l.Front+l.Back > WallSize:
		return fmt.Errorf("last hand: front %d, back %d", l.Front, l.Back)
	case l.ToAct >= NumSeats || l.Winner >= NumSeats:
		return fmt.Errorf("last hand: seat %d to act, winner %d", l.ToAct, l.Winner)
	case l.Won && !playing(l.WinTile) || !l.Won && (l.WinTile != 0 || l.Winner != 0):
		return fmt.Errorf("last hand: won %t on %v by %d", l.Won, l.WinTile, l.Winner)
	}
	w := wall.Wall144{Tiles: l.Wall}
	if err := w.Check(); err != nil {
		return fmt.Errorf("last hand: %w", err)
	}
	r := &t.r
	var ponds [NumSeats][]DiscardView
	for s := range r.seats {
		ponds[s] = r.seats[s].pond[:0]
	}
	*r = hand{wall: w, front: l.Front, back: l.Back, toAct: l.ToAct, won: l.Won, winner: l.Winner, winTile: l.WinTile}
	r.round, r.winds = Winds(t.hands - 1)
	for s := range Seat(NumSeats) {
		r.byWind[r.winds[s]] = s
	}
	r.dealer = r.byWind[tile.WindEast]
	for s := range r.seats {
		ls := &l.Seats[s]
		p := &r.seats[s]
		switch {
		case len(ls.Hand) > maxHand || len(ls.Melds) > maxMelds || len(ls.Discards) > WallSize || len(ls.Flowers) > 8:
			return fmt.Errorf("seat %d: %d tiles, %d melds, %d discards, %d flowers", s, len(ls.Hand), len(ls.Melds), len(ls.Discards), len(ls.Flowers))
		case !slices.IsSorted(ls.Hand):
			return fmt.Errorf("seat %d: hand not sorted", s)
		}
		p.hand, p.melds, p.flowers = p.handBuf[:0], p.meldBuf[:0], p.flowBuf[:0]
		for _, x := range ls.Hand {
			if !playing(x) {
				return fmt.Errorf("seat %d: hand tile %d", s, x)
			}
			p.add(x)
		}
		for _, m := range ls.Melds {
			if err := checkMeld(m); err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
			p.melds = append(p.melds, m)
		}
		for _, d := range ls.Discards {
			if !playing(d.Tile) {
				return fmt.Errorf("seat %d: discard %d", s, d.Tile)
			}
		}
		p.pond = append(ponds[s], ls.Discards...)
		for _, f := range ls.Flowers {
			if f.Red() || !isFlower(f) {
				return fmt.Errorf("seat %d: flower %d", s, f)
			}
			p.flowers = append(p.flowers, f)
		}
	}
	return nil
}

// checkMeld reports whether m is a meld that can exist: a run within a
// suit, a pung or kong of a playing kind, not hidden.
func checkMeld(m Meld) error {
	switch {
	case m.Type < MeldChi || m.Type > MeldClosedKan || m.From >= NumSeats || m.Hidden:
	case m.Type == MeldChi && (m.Kind >= 27 || m.Kind%9 > 6 || m.Called < m.Kind || m.Called > m.Kind+2):
	case m.Type != MeldChi && (m.Kind >= tile.NumKinds || m.Called != m.Kind):
	default:
		return nil
	}
	return fmt.Errorf("meld %+v", m)
}

// snapshotVersion is the first byte of an encoded snapshot.
const snapshotVersion = 1

// AppendBinary appends the snapshot's compact encoding to b
// (encoding.BinaryAppender).
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotVersion)
	b = pack.AppendString(b, s.Rules.Name)
	b = pack.AppendInt(b, s.Rules.Hands)
	b = append(b, byte(s.Phase))
	b = pack.AppendUint(b, s.Seq)
	b = appendScores(b, &s.Scores)
	b = pack.AppendInt(b, s.Hands)
	b = pack.AppendBool(b, s.Last != nil)
	if l := s.Last; l != nil {
		for _, x := range l.Wall {
			b = append(b, byte(x))
		}
		b = pack.AppendInt(b, l.Front)
		b = pack.AppendInt(b, l.Back)
		b = append(b, byte(l.ToAct), flags(l.Won), byte(l.Winner), byte(l.WinTile))
		for i := range l.Seats {
			ls := &l.Seats[i]
			b = appendTiles(b, ls.Hand)
			b = pack.AppendUint(b, uint64(len(ls.Melds)))
			for _, m := range ls.Melds {
				b = appendMeld(b, m)
			}
			b = pack.AppendUint(b, uint64(len(ls.Discards)))
			for _, d := range ls.Discards {
				b = append(b, byte(d.Tile), flags(d.Called))
			}
			b = appendTiles(b, ls.Flowers)
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
	out.Rules.Name = r.String("rules name", 64)
	out.Rules.Hands = r.Int("rules hands", 0, MaxHands)
	out.Phase = Phase(r.Byte("phase"))
	out.Seq = r.Uint("seq", 1<<40)
	out.Scores = readScores(r)
	out.Hands = r.Int("hands", 0, MaxHands)
	if r.Bool("last hand") {
		l := &LastHand{}
		for i := range l.Wall {
			l.Wall[i] = tile.Tile(r.Byte("wall"))
		}
		l.Front = r.Int("front", 0, WallSize)
		l.Back = r.Int("back", 0, WallSize)
		l.ToAct = Seat(r.Byte("to act"))
		l.Won = r.Byte("flags")&1 != 0
		l.Winner = Seat(r.Byte("winner"))
		l.WinTile = tile.Tile(r.Byte("win tile"))
		for i := range l.Seats {
			ls := &l.Seats[i]
			ls.Hand = readTiles(r, maxHand)
			if n := r.Count("melds", maxMelds); n > 0 {
				ls.Melds = make([]Meld, n)
				for j := range ls.Melds {
					ls.Melds[j] = readMeld(r)
				}
			}
			if n := r.Count("discards", WallSize); n > 0 {
				ls.Discards = make([]DiscardView, n)
				for j := range ls.Discards {
					ls.Discards[j] = DiscardView{Tile: tile.Tile(r.Byte("discard")), Called: r.Byte("discard flags")&1 != 0}
				}
			}
			ls.Flowers = readTiles(r, 8)
		}
		out.Last = l
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	*s = out
	return nil
}
