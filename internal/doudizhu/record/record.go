// Package record is the native record of a hosted Dou Dizhu match: the
// rules, every deal's commitment, revealed seed and moves, the scores, and
// - once the match is over, never before - the server seed and the
// players' entropy that the deal seeds derive from (docs/fairness.md).
// Verify checks a record on its own: each deck against its seed and
// commitment, the seeds against the server seed and entropy, and the moves
// replayed through the engine to the recorded scores.
package record

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record/rounds"
)

// Format names the record's layout; Game tells it from the mahjong
// records.
const (
	Format = "doudizhu-native/1"
	Game   = "doudizhu"
)

// Rules are the table's rules as recorded.
type Rules struct {
	Bidding string `json:"bidding"` // "points" or "call_rob"
	BombCap int    `json:"bomb_cap"`
	Deals   int    `json:"deals"`
}

// Deal is one dealt deck, thrown in or played out.
type Deal struct {
	Index      int       `json:"index"`
	Commitment string    `json:"commitment"` // fair.Commit of the seed, published when dealt
	Seed       string    `json:"seed"`       // revealed when the deal ended
	First      int       `json:"first"`
	Hands      [3]string `json:"hands"` // as dealt
	Kitty      string    `json:"kitty"`
	Moves      []string  `json:"moves"` // "0 bid 2", "1 pass", "0 play 33344", "2 call", "1 rob"
	ThrownIn   bool      `json:"thrown_in,omitempty"`
	Scores     [3]int    `json:"scores"` // after the deal
}

// Record is a match's record. A partial record (the match not over) holds
// the deals that ended, and neither ServerSeed nor Entropy.
type Record struct {
	Format               string    `json:"format"`
	Game                 string    `json:"game"`
	Table                string    `json:"table"`
	Names                [3]string `json:"names"`
	Rules                Rules     `json:"rules"`
	ServerSeedCommitment string    `json:"server_seed_commitment"`
	ServerSeed           string    `json:"server_seed,omitempty"`
	Entropy              []string  `json:"entropy,omitempty"` // one per seat, "" for a seat no player took
	Deals                []Deal    `json:"deals"`
	Scores               [3]int    `json:"scores"`
	Over                 bool      `json:"over"`
}

// RulesOf records engine rules.
func RulesOf(r table.Rules) Rules {
	b := "points"
	if r.Rob {
		b = "call_rob"
	}
	return Rules{Bidding: b, BombCap: r.BombCap, Deals: r.Deals}
}

// Engine returns the engine rules recorded.
func (r Rules) Engine() (table.Rules, error) {
	out := table.Classic
	switch r.Bidding {
	case "points":
	case "call_rob":
		out = table.CallRob
	default:
		return out, fmt.Errorf("rules.bidding %q", r.Bidding)
	}
	out.BombCap, out.Deals = r.BombCap, r.Deals
	return out, nil
}

// Recorder builds the record from a hosted table's steps.
type Recorder struct {
	rec    Record               // the match but its deals: rec.Deals stays nil
	deals  rounds.Encoded[Deal] // the deals that ended, kept encoded
	cur    *Deal
	server [32]byte
	seats  [][]byte
	err    error
}

// savedRecord is a Record whose deals are kept encoded. Its JSON is the
// Record's: the outer Deals stands for the Record's own.
type savedRecord struct {
	*Record
	Deals rounds.Encoded[Deal] `json:"deals"`
}

// NewRecorder starts the record of a table: its rules and the server seed,
// which the record shows only once the match is over.
func NewRecorder(rules table.Rules, server [32]byte) *Recorder {
	c := fair.SeedCommitment(server)
	return &Recorder{server: server, rec: Record{Format: Format, Game: Game, Rules: RulesOf(rules),
		ServerSeedCommitment: hex.EncodeToString(c[:])}}
}

// SetTable names the table and keeps the players' entropy (one entry per
// seat) for the end of the match.
func (r *Recorder) SetTable(id string, entropy [][]byte) {
	r.rec.Table = id
	r.seats = entropy
}

// Step records an accepted action and the events it caused.
func (r *Recorder) Step(a table.Action, evs []table.Event) {
	if a.Type == table.Deal {
		d := a.Deck
		r.cur = &Deal{Commitment: hex.EncodeToString(a.Commitment[:]), First: d.First, Moves: []string{}}
		for s := range r.cur.Hands {
			h := d.Hand(s).Counts()
			r.cur.Hands[s] = h.String()
		}
		k := d.Kitty().Counts()
		r.cur.Kitty = k.String()
		r.cur.Seed = hex.EncodeToString(d.Seed[:])
	} else if r.cur != nil {
		r.cur.Moves = append(r.cur.Moves, FormatMove(a))
	}
	for _, e := range evs {
		switch b := e.Body.(type) {
		case table.DealStarted:
			if r.cur != nil {
				r.cur.Index = b.Index
			}
		case table.ThrownIn:
			r.cur.ThrownIn = true
			r.cur.Scores = r.rec.Scores
			r.end()
		case table.DealEnded:
			r.cur.Scores = b.Scores
			r.rec.Scores = b.Scores
			r.end()
		case table.MatchEnded:
			r.rec.Over = true
		}
	}
}

func (r *Recorder) end() {
	if err := r.deals.Append(r.cur); err != nil && r.err == nil {
		r.err = fmt.Errorf("record: %w", err)
	}
	r.cur = nil
}

// Record returns the record so far with the players' names: the deals
// that ended, and the server seed and entropy only if the match is over.
// Its deals are decoded afresh at each call, a cost of the export that
// keeps the recorder small; Err says why deals are missing, if any are.
func (r *Recorder) Record(names [3]string) Record {
	out := r.rec
	out.Names = names
	var err error
	if out.Deals, err = r.deals.Decode(); err != nil && r.err == nil {
		r.err = fmt.Errorf("record: %w", err)
	}
	if out.Over {
		out.ServerSeed = hex.EncodeToString(r.server[:])
		out.Entropy = make([]string, len(r.seats))
		for i, e := range r.seats {
			out.Entropy[i] = hex.EncodeToString(e)
		}
	}
	return out
}

// Deals is how many deals ended.
func (r *Recorder) Deals() int { return r.deals.Len() }

// Err reports why the record lacks deals (one that did not encode or
// decode), nil if it lacks none.
func (r *Recorder) Err() error { return r.err }

// Over reports whether the match is over.
func (r *Recorder) Over() bool { return r.rec.Over }

// MarshalBinary is the recorder's state at a deal boundary, for the
// host's snapshots (the server seed and entropy come back through
// NewRecorder and SetTable).
func (r *Recorder) MarshalBinary() ([]byte, error) {
	if r.cur != nil {
		return nil, errors.New("record: a deal is in progress")
	}
	return json.Marshal(savedRecord{Record: &r.rec, Deals: r.deals})
}

// UnmarshalBinary restores what MarshalBinary saved.
func (r *Recorder) UnmarshalBinary(b []byte) error {
	var rec Record
	s := savedRecord{Record: &rec}
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	rec.Table, rec.ServerSeedCommitment = r.rec.Table, r.rec.ServerSeedCommitment
	r.rec, r.deals, r.cur, r.err = rec, s.Deals, nil, nil
	return nil
}

// FormatMove writes a seat's move: "<seat> bid <n>", "<seat> play <cards>",
// "<seat> pass", "<seat> call", "<seat> rob".
func FormatMove(a table.Action) string {
	switch a.Type {
	case table.Bid:
		return fmt.Sprintf("%d bid %d", a.Seat, a.Bid)
	case table.Play:
		return fmt.Sprintf("%d play %s", a.Seat, a.Cards.String())
	}
	return fmt.Sprintf("%d %v", a.Seat, a.Type)
}

// ParseMove reads what FormatMove wrote.
func ParseMove(s string) (table.Action, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return table.Action{}, fmt.Errorf("move %q", s)
	}
	seat, err := strconv.Atoi(f[0])
	if err != nil || seat < 0 || seat >= table.NumSeats {
		return table.Action{}, fmt.Errorf("move %q: seat", s)
	}
	a := table.Action{Seat: table.Seat(seat)}
	switch {
	case f[1] == "bid" && len(f) == 3:
		a.Type = table.Bid
		if a.Bid, err = strconv.Atoi(f[2]); err != nil {
			return a, fmt.Errorf("move %q: %w", s, err)
		}
	case f[1] == "play" && len(f) == 3:
		a.Type = table.Play
		if a.Cards, err = card.Parse(f[2]); err != nil {
			return a, fmt.Errorf("move %q: %w", s, err)
		}
	case f[1] == "pass" && len(f) == 2:
		a.Type = table.Pass
	case f[1] == "call" && len(f) == 2:
		a.Type = table.Call
	case f[1] == "rob" && len(f) == 2:
		a.Type = table.Rob
	default:
		return a, fmt.Errorf("move %q", s)
	}
	return a, nil
}

func unhex32(field, s string) ([32]byte, error) {
	var out [32]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return out, fmt.Errorf("%s: want 32 bytes in hex, have %q", field, s)
	}
	copy(out[:], b)
	return out, nil
}

// ErrVerify is what every failed check of Verify matches.
var ErrVerify = errors.New("record does not verify")

func fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrVerify, fmt.Sprintf(format, args...))
}

// Verify checks a record: each deal's deck is the shuffle of its seed and
// its commitment commits to that seed for this table and deal; with the
// server seed (a finished match) the seed commitment opens and every deal
// seed derives from the server seed and the entropy; and the moves, played
// through the engine from the first deal, end at the recorded scores. It
// returns how many deals it checked.
func Verify(rec *Record) (int, error) {
	if rec.Format != Format || rec.Game != Game {
		return 0, fail("format %q, game %q", rec.Format, rec.Game)
	}
	rules, err := rec.Rules.Engine()
	if err != nil {
		return 0, fail("%v", err)
	}
	var tableSeed [32]byte
	chained := rec.ServerSeed != ""
	if chained {
		server, err := unhex32("server_seed", rec.ServerSeed)
		if err != nil {
			return 0, fail("%v", err)
		}
		c := fair.SeedCommitment(server)
		if hex.EncodeToString(c[:]) != rec.ServerSeedCommitment {
			return 0, fail("the server seed does not open its commitment")
		}
		if len(rec.Entropy) > fair.Seats {
			return 0, fail("%d entropies", len(rec.Entropy))
		}
		var e [fair.Seats][]byte
		for i, s := range rec.Entropy {
			if e[i], err = hex.DecodeString(s); err != nil {
				return 0, fail("entropy %d: %v", i, err)
			}
		}
		tableSeed = fair.TableSeed(server, e)
	} else if rec.Over {
		return 0, fail("a finished match without its server seed")
	}
	eng, err := table.New(table.Config{Rules: rules})
	if err != nil {
		return 0, fail("%v", err)
	}
	for i, d := range rec.Deals {
		if d.Index != i {
			return i, fail("deal %d has index %d", i, d.Index)
		}
		seed, err := unhex32(fmt.Sprintf("deal %d: seed", i), d.Seed)
		if err != nil {
			return i, fail("%v", err)
		}
		commit, err := unhex32(fmt.Sprintf("deal %d: commitment", i), d.Commitment)
		if err != nil {
			return i, fail("%v", err)
		}
		if fair.Commit(seed, rec.Table, uint32(i)) != commit {
			return i, fail("deal %d: the seed does not open the commitment", i)
		}
		if chained && fair.RoundSeed(tableSeed, uint32(i)) != seed {
			return i, fail("deal %d: the seed is not the table seed's", i)
		}
		dk := deck.New(seed)
		for s := range d.Hands {
			h := dk.Hand(s).Counts()
			if h.String() != d.Hands[s] {
				return i, fail("deal %d: seat %d's hand is not the seed's", i, s)
			}
		}
		if k := dk.Kitty().Counts(); k.String() != d.Kitty || dk.First != d.First {
			return i, fail("deal %d: the kitty or first bidder is not the seed's", i)
		}
		if _, err := eng.Step(table.Action{Type: table.Deal, Deck: &dk, Commitment: commit}); err != nil {
			return i, fail("deal %d: %v", i, err)
		}
		for _, m := range d.Moves {
			a, err := ParseMove(m)
			if err != nil {
				return i, fail("deal %d: %v", i, err)
			}
			if _, err := eng.Step(a); err != nil {
				return i, fail("deal %d: move %q: %v", i, m, err)
			}
		}
		if eng.Phase() != table.BetweenDeals && eng.Phase() != table.MatchOver {
			return i, fail("deal %d does not end with its moves", i)
		}
		if eng.Scores() != d.Scores {
			return i, fail("deal %d: scores %v, replayed %v", i, d.Scores, eng.Scores())
		}
	}
	if eng.Scores() != rec.Scores || (eng.Phase() == table.MatchOver) != rec.Over {
		return len(rec.Deals), fail("scores %v over %t, replayed %v %v", rec.Scores, rec.Over, eng.Scores(), eng.Phase())
	}
	return len(rec.Deals), nil
}
