package classical

import (
	"errors"
	"fmt"

	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrSnapshot is what every error of Restore and Snapshot.UnmarshalBinary
// about the snapshot itself matches.
var ErrSnapshot = errors.New("classical: bad snapshot")

// Snapshot is a table between hands or after its game: everything Restore
// needs to make a table that plays on exactly as this one would (the same
// events with the same Seq, the same views) when fed the same actions.
// Between hands a view shows the scores only, so nothing of the hand just
// played is kept.
type Snapshot struct {
	Rules  Rules
	Phase  Phase  // BetweenHands or GameOver
	Seq    uint64 // the Seq of the table's last event
	Scores [NumSeats]int
	Dealer Seat      // East of the next hand
	Round  tile.Wind // the prevailing wind of the next hand
	Hands  int       // hands dealt so far
}

// Snapshot returns the table's snapshot. It fails (ErrPhase) unless the
// table is between hands or its game is over.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.phase != BetweenHands && t.phase != GameOver {
		return Snapshot{}, fmt.Errorf("%w: snapshot in %v", ErrPhase, t.phase)
	}
	return Snapshot{Rules: t.rules, Phase: t.phase, Seq: t.seq, Scores: t.scores, Dealer: t.dealer, Round: t.round, Hands: t.hands}, nil
}

// Restore returns the table s describes, with the rules of cfg (which
// must be the snapshot's).
func Restore(cfg Config, s Snapshot) (*Table, error) {
	if cfg.Rules != s.Rules {
		return nil, fmt.Errorf("%w: rules %+v, the snapshot's are %+v", ErrSnapshot, cfg.Rules, s.Rules)
	}
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	sum := 0
	for _, v := range s.Scores {
		sum += v
	}
	switch {
	case s.Phase != BetweenHands && s.Phase != GameOver:
		return nil, fmt.Errorf("%w: phase %v", ErrSnapshot, s.Phase)
	case sum != 0:
		return nil, fmt.Errorf("%w: scores sum to %d", ErrSnapshot, sum)
	case s.Dealer >= NumSeats || s.Hands < 0:
		return nil, fmt.Errorf("%w: dealer %d, %d hands", ErrSnapshot, s.Dealer, s.Hands)
	case int(s.Round) >= s.Rules.Rounds:
		return nil, fmt.Errorf("%w: round %d of %d", ErrSnapshot, s.Round, s.Rules.Rounds)
	}
	t.phase, t.seq, t.scores, t.dealer, t.round, t.hands = s.Phase, s.Seq, s.Scores, s.Dealer, s.Round, s.Hands
	return t, nil
}

const snapshotVersion = 1

// AppendBinary appends the snapshot's compact binary form to b.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotVersion)
	b = pack.AppendString(b, s.Rules.Name)
	b = pack.AppendInt(b, s.Rules.Limit)
	b = pack.AppendBool(b, s.Rules.FishingFirst)
	b = pack.AppendInt(b, s.Rules.Rounds)
	b = pack.AppendInt(b, int(s.Phase))
	b = pack.AppendUint(b, s.Seq)
	b = appendScores(b, &s.Scores)
	b = append(b, byte(s.Dealer))
	b = pack.AppendInt(b, int(s.Round))
	b = pack.AppendInt(b, s.Hands)
	return b, nil
}

// MarshalBinary is AppendBinary to a new slice.
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary reads what AppendBinary wrote, all of b.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	r := pack.NewReader(b)
	if v := r.Byte("version"); v != snapshotVersion && r.Err() == nil {
		return fmt.Errorf("%w: version %d", ErrSnapshot, v)
	}
	var n Snapshot
	n.Rules.Name = r.String("name", 64)
	n.Rules.Limit = r.Int("limit", 0, jc.Limits[len(jc.Limits)-1])
	n.Rules.FishingFirst = r.Bool("fishing first")
	n.Rules.Rounds = r.Int("rounds", 1, 4)
	n.Phase = Phase(r.Int("phase", int(BetweenHands), int(GameOver)))
	n.Seq = r.Uint("seq", 1<<62)
	n.Scores = readScores(r)
	n.Dealer = readSeat(r)
	n.Round = tile.Wind(r.Int("round", 0, 3))
	n.Hands = r.Int("hands", 0, 1<<30)
	if err := r.Done(); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	*s = n
	return nil
}
