package sichuan

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrSnapshot is what every error of Restore and Snapshot.UnmarshalBinary
// about the snapshot itself matches.
var ErrSnapshot = errors.New("sichuan: bad snapshot")

// Snapshot is a table between hands or after its match: everything Restore
// needs to make a table that plays on exactly as this one would (the same
// events with the same Seq, the same views) when fed the same actions. Last
// is the hand just played as the seats' views still show it until the next
// deal.
type Snapshot struct {
	Rules  Rules
	Phase  Phase  // BetweenHands or MatchOver
	Seq    uint64 // the Seq of the table's last event
	Scores [NumSeats]int
	Dealer Seat // of the next hand
	Hands  int  // hands dealt so far
	Last   *LastHand
}

// LastHand is the finished hand a table still shows between hands.
type LastHand struct {
	Wall      [WallSize]tile.Tile
	Direction Direction
	Draws     int
	ToAct     Seat
	Seats     [NumSeats]LastSeat
}

// LastSeat is one seat's part of LastHand.
type LastSeat struct {
	Hand      []tile.Tile // concealed, sorted
	Melds     []Meld
	Discards  []DiscardView
	Won       []tile.Tile
	Taken     []bool // per Won: the tile itself went to this seat
	Gave, Got [3]tile.Tile
	Void      tile.Suit
	Left      bool
	KanIn     [NumSeats]int // kan money received, by payer
}

// Snapshot returns the table's snapshot. It fails (ErrPhase) unless the
// table is between hands or its match is over.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.phase != BetweenHands && t.phase != MatchOver {
		return Snapshot{}, fmt.Errorf("%w: snapshot in %v", ErrPhase, t.phase)
	}
	s := Snapshot{Rules: t.rules, Phase: t.phase, Seq: t.seq, Scores: t.scores, Dealer: t.dealer, Hands: t.hands}
	if t.hands == 0 {
		return s, nil
	}
	r := &t.r
	l := &LastHand{Wall: r.wall.Tiles, Direction: r.wall.Direction, Draws: r.next, ToAct: r.toAct}
	for i := range r.seats {
		p := &r.seats[i]
		ls := &l.Seats[i]
		*ls = LastSeat{Hand: clone(p.hand), Melds: clone(p.melds), Discards: clone(p.pond),
			Gave: p.gave, Got: p.got, Void: p.void, Left: p.left, KanIn: p.kanIn}
		for _, w := range p.won {
			ls.Won = append(ls.Won, w.tile)
			ls.Taken = append(ls.Taken, w.taken)
		}
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
// sum to zero, all 108 tiles of the last hand each in one place: see
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
	case s.Phase != BetweenHands && s.Phase != MatchOver:
		return fmt.Errorf("phase %v", s.Phase)
	case s.Dealer >= NumSeats || s.Hands < 0 || s.Hands > t.rules.Hands:
		return fmt.Errorf("dealer %d after %d hands", s.Dealer, s.Hands)
	case (s.Phase == MatchOver) != (s.Hands == t.rules.Hands):
		return fmt.Errorf("%v after %d of %d hands", s.Phase, s.Hands, t.rules.Hands)
	case (s.Hands == 0) != (s.Last == nil):
		return fmt.Errorf("%d hands dealt with a last hand %t", s.Hands, s.Last != nil)
	case s.Hands == 0 && (s.Seq != 0 || s.Dealer != 0 || s.Scores != [NumSeats]int{}):
		return errors.New("a table before its first deal has moved")
	}
	for _, v := range s.Scores {
		if v < -maxScore || v > maxScore {
			return fmt.Errorf("score %d", v)
		}
	}
	t.phase, t.seq, t.scores, t.dealer, t.hands = s.Phase, s.Seq, s.Scores, s.Dealer, s.Hands
	if s.Last != nil {
		if err := t.restoreLast(s.Last); err != nil {
			return err
		}
	}
	return t.Verify()
}

func (t *Table) restoreLast(l *LastHand) error {
	switch {
	case l.Draws < 0 || l.Draws > LiveSize:
		return fmt.Errorf("last hand: %d draws", l.Draws)
	case l.ToAct >= NumSeats:
		return fmt.Errorf("last hand: seat %d to act", l.ToAct)
	}
	w := Wall{Tiles: l.Wall, Direction: l.Direction}
	if err := w.Check(); err != nil {
		return fmt.Errorf("last hand: %w", err)
	}
	r := &t.r
	var ponds [NumSeats][]DiscardView
	var won [NumSeats][]wonTile
	for s := range r.seats {
		ponds[s], won[s] = r.seats[s].pond[:0], r.seats[s].won[:0]
	}
	*r = hand{wall: w, next: l.Draws, toAct: l.ToAct}
	for s := range r.seats {
		ls := &l.Seats[s]
		p := &r.seats[s]
		switch {
		case len(ls.Hand) > maxHand || len(ls.Melds) > maxMelds || len(ls.Discards) > LiveSize || len(ls.Won) > LiveSize:
			return fmt.Errorf("seat %d: %d tiles, %d melds, %d discards, %d won", s, len(ls.Hand), len(ls.Melds), len(ls.Discards), len(ls.Won))
		case len(ls.Taken) != len(ls.Won):
			return fmt.Errorf("seat %d: %d won tiles, %d taken flags", s, len(ls.Won), len(ls.Taken))
		case ls.Void > tile.Sou:
			return fmt.Errorf("seat %d: void %v", s, ls.Void)
		case ls.Left && len(ls.Won) != 1:
			return fmt.Errorf("seat %d left after %d wins", s, len(ls.Won))
		case !slices.IsSorted(ls.Hand):
			return fmt.Errorf("seat %d: hand not sorted", s)
		}
		p.hand, p.melds = p.handBuf[:0], p.meldBuf[:0]
		for _, x := range ls.Hand {
			if !suited(x) {
				return fmt.Errorf("seat %d: hand tile %d", s, x)
			}
			p.add(x)
		}
		for _, m := range ls.Melds {
			if m.Type < MeldPon || m.Type > MeldClosedKan || m.Kind >= numKinds || m.From >= NumSeats {
				return fmt.Errorf("seat %d: meld %+v", s, m)
			}
			p.melds = append(p.melds, m)
		}
		p.pond = append(ponds[s], ls.Discards...)
		p.won = won[s]
		for i, x := range ls.Won {
			p.won = append(p.won, wonTile{tile: x, taken: ls.Taken[i]})
		}
		for _, x := range append(slices.Clone(ls.Won), ls.Gave[0], ls.Gave[1], ls.Gave[2], ls.Got[0], ls.Got[1], ls.Got[2]) {
			if !suited(x) {
				return fmt.Errorf("seat %d: tile %d", s, x)
			}
		}
		for _, d := range ls.Discards {
			if !suited(d.Tile) {
				return fmt.Errorf("seat %d: discard %d", s, d.Tile)
			}
		}
		p.gave, p.got, p.void, p.voidSet, p.left, p.wins, p.kanIn = ls.Gave, ls.Got, ls.Void, true, ls.Left, len(ls.Won), ls.KanIn
		if p.wins > 0 {
			r.winners++
		}
	}
	return nil
}

// snapshotVersion is the first byte of an encoded snapshot.
const snapshotVersion = 1

// AppendBinary appends the snapshot's compact encoding to b
// (encoding.BinaryAppender).
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotVersion)
	b = appendRules(b, &s.Rules)
	b = append(b, byte(s.Phase))
	b = pack.AppendUint(b, s.Seq)
	b = appendScores(b, &s.Scores)
	b = append(b, byte(s.Dealer))
	b = pack.AppendInt(b, s.Hands)
	b = pack.AppendBool(b, s.Last != nil)
	if l := s.Last; l != nil {
		for _, x := range l.Wall {
			b = append(b, byte(x))
		}
		b = append(b, byte(l.Direction))
		b = pack.AppendInt(b, l.Draws)
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
				b = append(b, byte(d.Tile), flags(d.Called))
			}
			b = appendTiles(b, ls.Won)
			for _, tk := range ls.Taken {
				b = pack.AppendBool(b, tk)
			}
			b = append(b, byte(ls.Gave[0]), byte(ls.Gave[1]), byte(ls.Gave[2]), byte(ls.Got[0]), byte(ls.Got[1]), byte(ls.Got[2]))
			b = append(b, byte(ls.Void), flags(ls.Left))
			b = appendScores(b, &ls.KanIn)
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
	out.Phase = Phase(r.Byte("phase"))
	out.Seq = r.Uint("seq", 1<<40)
	out.Scores = readScores(r)
	out.Dealer = Seat(r.Byte("dealer"))
	out.Hands = r.Int("hands", 0, MaxHands)
	if r.Bool("last hand") {
		l := &LastHand{}
		for i := range l.Wall {
			l.Wall[i] = tile.Tile(r.Byte("wall"))
		}
		l.Direction = Direction(r.Byte("direction"))
		l.Draws = r.Int("draws", 0, LiveSize)
		l.ToAct = Seat(r.Byte("to act"))
		for i := range l.Seats {
			ls := &l.Seats[i]
			ls.Hand = readTiles(r, maxHand)
			if n := r.Count("melds", maxMelds); n > 0 {
				ls.Melds = make([]Meld, n)
				for j := range ls.Melds {
					ls.Melds[j] = readMeld(r)
				}
			}
			if n := r.Count("discards", LiveSize); n > 0 {
				ls.Discards = make([]DiscardView, n)
				for j := range ls.Discards {
					ls.Discards[j] = DiscardView{Tile: tile.Tile(r.Byte("discard")), Called: r.Byte("discard flags")&1 != 0}
				}
			}
			ls.Won = readTiles(r, LiveSize)
			if len(ls.Won) > 0 {
				ls.Taken = make([]bool, len(ls.Won))
				for j := range ls.Taken {
					ls.Taken[j] = r.Bool("taken")
				}
			}
			ls.Gave, ls.Got = readThree(r), readThree(r)
			ls.Void = tile.Suit(r.Byte("void"))
			ls.Left = r.Byte("flags")&1 != 0
			ls.KanIn = readScores(r)
		}
		out.Last = l
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	*s = out
	return nil
}

func appendRules(b []byte, r *Rules) []byte {
	b = pack.AppendString(b, r.Name)
	b = append(b, flags(r.Exchange, r.VoidFirst, r.PassLock, r.BloodyRiver))
	b = pack.AppendInt(b, r.FanCap)
	return pack.AppendInt(b, r.Hands)
}

func readRules(r *pack.Reader) Rules {
	var out Rules
	out.Name = r.String("rules name", 64)
	f := r.Byte("rule flags")
	out.Exchange, out.VoidFirst, out.PassLock, out.BloodyRiver = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0
	out.FanCap = r.Int("fan cap", 0, 64)
	out.Hands = r.Int("hands", 0, MaxHands)
	return out
}
