package table

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/pack"
)

// The binary encodings a host keeps in its store: actions (its log) and
// snapshots between deals. Compact and strict: a decoder refuses anything
// an encoder could not have written, and no input makes it panic.

// ErrCodec is what every error of the decoders matches.
var ErrCodec = errors.New("doudizhu: bad encoding")

// Deal flags.
const (
	dealSeeded    = 1 << iota // the deck is the shuffle of the seed that follows
	dealCommitted             // a commitment follows
)

// AppendAction appends the encoding of a: its type, its seat, then for a
// Bid the points, for a Play the cards (a nibble a rank, 8 bytes), for a
// Deal a flag byte, then the seed (a shuffled deck) or the 54 cards and the
// first bidder (a stacked one), then the commitment if it has one.
func AppendAction(dst []byte, a Action) ([]byte, error) {
	if a.Type < Deal || a.Type > Play {
		return dst, fmt.Errorf("%w: action type %d", ErrCodec, a.Type)
	}
	dst = append(dst, byte(a.Type), byte(a.Seat))
	switch a.Type {
	case Bid:
		dst = pack.AppendInt(dst, a.Bid)
	case Play:
		dst = appendCounts(dst, &a.Cards)
	case Deal:
		if a.Deck == nil {
			return dst, fmt.Errorf("%w: deal without a deck", ErrCodec)
		}
		var flags byte
		if a.Deck.Seed != ([32]byte{}) {
			flags |= dealSeeded
		}
		if a.Commitment != ([32]byte{}) {
			flags |= dealCommitted
		}
		dst = append(dst, flags)
		if flags&dealSeeded != 0 {
			dst = append(dst, a.Deck.Seed[:]...)
		} else {
			for _, c := range a.Deck.Cards {
				dst = append(dst, byte(c))
			}
			dst = append(dst, byte(a.Deck.First))
		}
		if flags&dealCommitted != 0 {
			dst = append(dst, a.Commitment[:]...)
		}
	}
	return dst, nil
}

// DecodeAction decodes what AppendAction wrote. A deal's deck is checked
// (a permutation of the 54 cards); whether the action is legal is Step's
// business.
func DecodeAction(b []byte) (Action, error) {
	r := pack.NewReader(b)
	a := Action{Type: ActionType(r.Byte("type")), Seat: Seat(r.Byte("seat"))}
	switch a.Type {
	case Bid:
		a.Bid = r.Int("bid", 0, 3)
	case Play:
		a.Cards = readCounts(r)
	case Deal:
		flags := r.Byte("flags")
		if flags&^(dealSeeded|dealCommitted) != 0 {
			r.Fail("deal flags %#x", flags)
		}
		var d deck.Deck
		if flags&dealSeeded != 0 {
			seed := [32]byte(pad32(r.Fixed("seed", 32)))
			if r.Err() == nil && seed == ([32]byte{}) {
				r.Fail("a zero seed")
			}
			d = deck.New(seed)
		} else {
			cards := r.Fixed("cards", card.NumCards)
			for i := range cards {
				d.Cards[i] = card.Card(cards[i])
			}
			d.First = int(r.Byte("first"))
			if r.Err() == nil {
				if err := d.Check(); err != nil {
					r.Fail("%v", err)
				}
			}
		}
		a.Deck = &d
		if flags&dealCommitted != 0 {
			a.Commitment = [32]byte(pad32(r.Fixed("commitment", 32)))
			if r.Err() == nil && a.Commitment == ([32]byte{}) {
				r.Fail("a zero commitment")
			}
		}
	case Call, Rob, Pass:
	default:
		r.Fail("action type %d", a.Type)
	}
	if err := r.Done(); err != nil {
		return Action{}, fmt.Errorf("%w: %v", ErrCodec, err)
	}
	return a, nil
}

// pad32 makes a failed Fixed read (nil) the right length.
func pad32(b []byte) []byte {
	if len(b) != 32 {
		return make([]byte, 32)
	}
	return b
}

// appendCounts writes the 15 counts as nibbles, two ranks a byte.
func appendCounts(dst []byte, c *card.Counts) []byte {
	for r := 0; r < card.NumRanks; r += 2 {
		b := c[r] & 0xF
		if r+1 < card.NumRanks {
			b |= c[r+1] << 4
		}
		dst = append(dst, b)
	}
	return dst
}

func readCounts(r *pack.Reader) card.Counts {
	var c card.Counts
	b := r.Fixed("cards", (card.NumRanks+1)/2)
	if b == nil {
		return c
	}
	for i, x := range b {
		c[2*i] = x & 0xF
		if 2*i+1 < card.NumRanks {
			c[2*i+1] = x >> 4
		} else if x>>4 != 0 {
			r.Fail("cards: stray high nibble")
		}
	}
	if !c.Fits() {
		r.Fail("cards: more copies than the deck holds")
	}
	return c
}

// Snapshot is a table between deals or after its last deal: everything
// Restore needs to make a table that plays on exactly as this one would
// (the same events with the same Seq, the same scores) when fed the same
// actions. Between deals the next Deal resets the deal's state, so the
// match's state is a few numbers. (A restored table does not show the last
// deal's cards in its views between deals, as the original does; they
// were all revealed by then.)
type Snapshot struct {
	Rules       Rules
	StartScores [NumSeats]int
	Phase       Phase // BetweenDeals or MatchOver
	Seq         uint64
	Scores      [NumSeats]int
	Index       int // Deal actions accepted
	Number      int // scored deals started
	Done        int // scored deals finished
}

// Snapshot returns the table's snapshot; it fails during a deal.
func (t *Table) Snapshot() (Snapshot, error) {
	if t.phase != BetweenDeals && t.phase != MatchOver {
		return Snapshot{}, fmt.Errorf("%w: a deal is in progress", ErrPhase)
	}
	return Snapshot{Rules: t.rules, StartScores: t.start, Phase: t.phase, Seq: t.seq, Scores: t.scores,
		Index: t.index, Number: t.number, Done: t.done}, nil
}

// Restore makes the table s was taken of.
func Restore(s Snapshot) (*Table, error) {
	t, err := New(Config{Rules: s.Rules, StartScores: s.StartScores})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCodec, err)
	}
	if s.Phase != BetweenDeals && s.Phase != MatchOver {
		return nil, fmt.Errorf("%w: phase %v", ErrCodec, s.Phase)
	}
	t.phase, t.seq, t.scores, t.index, t.number, t.done = s.Phase, s.Seq, s.Scores, s.Index, s.Number, s.Done
	if err := t.Verify(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCodec, err)
	}
	if (s.Phase == MatchOver) != (s.Done == s.Rules.Deals) || s.Number < s.Done || s.Number > s.Done+1 {
		return nil, fmt.Errorf("%w: %d of %d deals done, %d started, phase %v", ErrCodec, s.Done, s.Rules.Deals, s.Number, s.Phase)
	}
	return t, nil
}

const snapshotVersion = 1

// AppendBinary appends the snapshot's encoding: a version byte, the rules
// (name, rob, bomb cap, deals), then the numbers as varints.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, snapshotVersion)
	b = pack.AppendString(b, s.Rules.Name)
	b = pack.AppendBool(b, s.Rules.Rob)
	b = pack.AppendInt(b, s.Rules.BombCap)
	b = pack.AppendInt(b, s.Rules.Deals)
	for _, v := range s.StartScores {
		b = pack.AppendInt(b, v)
	}
	b = append(b, byte(s.Phase))
	b = pack.AppendUint(b, s.Seq)
	for _, v := range s.Scores {
		b = pack.AppendInt(b, v)
	}
	b = pack.AppendInt(b, s.Index)
	b = pack.AppendInt(b, s.Number)
	b = pack.AppendInt(b, s.Done)
	return b, nil
}

// MarshalBinary is AppendBinary to a new slice.
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary decodes what AppendBinary wrote; Restore checks that the
// numbers make a table.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	r := pack.NewReader(b)
	if v := r.Byte("version"); r.Err() == nil && v != snapshotVersion {
		r.Fail("version %d", v)
	}
	var n Snapshot
	n.Rules.Name = r.String("rules name", 64)
	n.Rules.Rob = r.Bool("rob")
	n.Rules.BombCap = r.Int("bomb cap", 0, 20)
	n.Rules.Deals = r.Int("deals", 1, 1<<16)
	for i := range n.StartScores {
		n.StartScores[i] = r.Int("start score", -maxScore, maxScore)
	}
	n.Phase = Phase(r.Byte("phase"))
	n.Seq = r.Uint("seq", 1<<62)
	for i := range n.Scores {
		n.Scores[i] = r.Int("score", -maxScore*4, maxScore*4)
	}
	n.Index = r.Int("index", 0, 1<<30)
	n.Number = r.Int("number", 0, 1<<16)
	n.Done = r.Int("done", 0, 1<<16)
	if err := r.Done(); err != nil {
		return fmt.Errorf("%w: %v", ErrCodec, err)
	}
	*s = n
	return nil
}
