package table

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

func seeded(n uint64) *deck.Deck {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	d := deck.New(sha256.Sum256(b[:]))
	return &d
}

// driver plays a table with choices from a byte stream: each step picks one
// of the legal actions (or, now and then, a random malformed one that must
// be refused without a change).
type driver struct {
	t    testing.TB
	tb   *Table
	in   []byte
	seen [NumSeats][]Event // the events each seat may see
	all  []Event
}

func (d *driver) byte() byte {
	if len(d.in) == 0 {
		return 0
	}
	b := d.in[0]
	d.in = d.in[1:]
	return b
}

func (d *driver) step(a Action) []Event {
	before := snapshotState(d.tb)
	evs, err := d.tb.Step(a)
	if err != nil {
		if snapshotState(d.tb) != before {
			d.t.Fatalf("refused %v changed the table", a)
		}
		return nil
	}
	if err := d.tb.Verify(); err != nil {
		d.t.Fatalf("after %v: %v", a, err)
	}
	for _, e := range evs {
		d.all = append(d.all, e)
		for s := range Seat(NumSeats) {
			if e.To.Sees(s) {
				d.seen[s] = append(d.seen[s], e)
			}
		}
	}
	// The action's encoding decodes to the same action.
	b, err := AppendAction(nil, a)
	if err != nil {
		d.t.Fatalf("encode %v: %v", a, err)
	}
	back, err := DecodeAction(b)
	if err != nil || !sameAction(a, back) {
		d.t.Fatalf("decode(encode(%v)) = %v, %v", a, back, err)
	}
	for _, e := range evs {
		b, err := AppendBody(nil, e.Body)
		if err != nil {
			d.t.Fatalf("encode %s: %v", Format(e.Body), err)
		}
		back, err := DecodeBody(b)
		if err != nil || !reflect.DeepEqual(back, e.Body) {
			d.t.Fatalf("decode(encode(%s)) = %v, %v", Format(e.Body), back, err)
		}
	}
	return evs
}

// sameAction compares the fields of a that its type uses with b.
func sameAction(a, b Action) bool {
	if a.Type != Bid {
		a.Bid = 0
	}
	if a.Type != Play {
		a.Cards = card.Counts{}
	}
	if a.Type == Deal {
		a.Seat = 0
		b.Seat = 0
	}
	if (a.Deck == nil) != (b.Deck == nil) || (a.Deck != nil && *a.Deck != *b.Deck) {
		return false
	}
	a.Deck, b.Deck = nil, nil
	return a == b
}

// run plays until the match is over or the input runs out.
func (d *driver) run(maxSteps int) {
	for i := 0; i < maxSteps && d.tb.Phase() != MatchOver; i++ {
		if d.tb.Phase() == BetweenDeals {
			d.step(Action{Type: Deal, Deck: seeded(uint64(d.byte()) + uint64(d.tb.Index())<<8)})
			continue
		}
		s := d.tb.ToAct()
		c := d.byte()
		if c >= 240 {
			// Something the table must refuse or take: a random action.
			a := Action{Seat: Seat(d.byte() % 4), Type: ActionType(d.byte() % 8), Bid: int(d.byte()%5) - 1}
			a.Cards[d.byte()%card.NumRanks] = d.byte() % 3
			d.step(a)
			continue
		}
		legal := d.tb.Legal(s)
		if len(legal) == 0 {
			d.t.Fatalf("seat %d to act has no legal action in %v", s, d.tb.Phase())
		}
		if c < 64 {
			a, ok := d.tb.Default()
			if !ok {
				d.t.Fatalf("no default in %v", d.tb.Phase())
			}
			if _, err := d.tb.Step(a); err != nil {
				d.t.Fatalf("default %v refused: %v", a, err)
			}
			continue
		}
		d.step(legal[int(c)%len(legal)])
	}
}

// TestViewsHideCards: no seat's view or events ever hold another seat's
// cards, or the kitty before the bidding ends.
func TestViewsHideCards(t *testing.T) {
	for seed := range 30 {
		tb, _ := New(Config{Rules: Rules{Name: "t", Rob: seed%2 == 1, Deals: 2}})
		d := &driver{t: t, tb: tb, in: []byte{byte(seed), 100, 200, 150, 90, 70, 130, 180, 220, 66}}
		for i := 0; i < 2000 && tb.Phase() != MatchOver; i++ {
			if len(d.in) == 0 {
				d.in = []byte{byte(i * 37), byte(i*11 + 64)}
			}
			d.run(1)
			checkHidden(t, tb)
		}
		for _, e := range d.all {
			if dt, ok := e.Body.(Dealt); ok && (!e.To.Private || e.To.Seat != dt.Seat) {
				t.Fatalf("a seat's deal went to %+v", e.To)
			}
		}
	}
}

func checkHidden(t *testing.T, tb *Table) {
	t.Helper()
	if tb.Phase() != Bidding && tb.Phase() != Playing {
		return
	}
	for s := range Seat(NumSeats) {
		v := tb.View(s)
		if v.Hand != tb.d.hands[s].Counts() {
			t.Fatalf("seat %d sees the hand %s, holds %s", s, v.Hand.String(), tb.d.hands[s].String())
		}
		if tb.Phase() == Bidding && !v.Kitty.Empty() {
			t.Fatalf("seat %d sees the kitty %s during the bidding", s, v.Kitty.String())
		}
		// Nothing in the view but its own hand, the shown kitty and the
		// played cards names cards: strip those and compare.
		v.Hand, v.Kitty, v.Played, v.Last, v.Legal = card.Counts{}, card.Counts{}, card.Counts{}, judge.Play{}, nil
		w := View{Seat: s, Phase: v.Phase, Index: v.Index, Number: v.Number, Scores: v.Scores, Left: v.Left, First: v.First,
			ToAct: v.ToAct, Base: v.Base, Bidder: v.Bidder, HasBid: v.HasBid, Robs: v.Robs, Bids: v.Bids, Landlord: v.Landlord,
			HasLandlord: v.HasLandlord, LastBy: v.LastBy, HasLast: v.HasLast, MustLead: v.MustLead, Bombs: v.Bombs, Seq: v.Seq}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("view of seat %d has fields the check does not know: %+v", s, v)
		}
	}
	// The spectator's view (a seat number no one sits at) holds no hand.
	if v := tb.View(NumSeats); !v.Hand.Empty() || v.Legal != nil {
		t.Fatalf("a spectator sees %s", v.Hand.String())
	}
}

// TestRestore: a table restored from a snapshot between deals, encoded and
// decoded, plays on with the same events as the original.
func TestRestore(t *testing.T) {
	in := make([]byte, 4000)
	for i := range in {
		in[i] = byte(i*97 + 13)
	}
	tb, _ := New(Config{Rules: Rules{Name: "t", Deals: 3, BombCap: 2}, StartScores: [3]int{10, 0, -10}})
	d := &driver{t: t, tb: tb, in: in}
	// Play the first deal through.
	for tb.Phase() != BetweenDeals || tb.done == 0 {
		d.run(1)
	}
	snap, err := tb.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := snap.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Snapshot
	if err := back.UnmarshalBinary(b); err != nil || back != snap {
		t.Fatalf("snapshot round trip: %+v, %v", back, err)
	}
	tb2, err := Restore(back)
	if err != nil {
		t.Fatal(err)
	}
	d2 := &driver{t: t, tb: tb2, in: append([]byte(nil), d.in...)}
	d.all, d2.all = nil, nil
	d.run(10000)
	d2.run(10000)
	if tb.Phase() != MatchOver || !reflect.DeepEqual(d.all, d2.all) {
		t.Fatalf("the restored table played differently: %d and %d events", len(d.all), len(d2.all))
	}
	if _, err := tb.Snapshot(); err != nil {
		t.Fatalf("snapshot after the match: %v", err)
	}
}

func TestSnapshotDuringDeal(t *testing.T) {
	tb, _ := New(Config{Rules: Classic})
	tb.Step(Action{Type: Deal, Deck: seeded(1)})
	if _, err := tb.Snapshot(); !errors.Is(err, ErrPhase) {
		t.Errorf("Snapshot during a deal = %v, want ErrPhase", err)
	}
	var s Snapshot
	if err := s.UnmarshalBinary([]byte{1, 2}); !errors.Is(err, ErrCodec) {
		t.Errorf("UnmarshalBinary(junk) = %v, want ErrCodec", err)
	}
	if _, err := Restore(Snapshot{Rules: Classic, Phase: Playing}); !errors.Is(err, ErrCodec) {
		t.Errorf("Restore(playing) = %v, want ErrCodec", err)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, r := range []Rules{{Deals: 0}, {Deals: 1, BombCap: -1}} {
		if _, err := New(Config{Rules: r}); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", r, err)
		}
	}
}

func TestStepErrors(t *testing.T) {
	tb, _ := New(Config{Rules: Classic})
	bad := deck.Deck{First: 5}
	tests := []struct {
		a    Action
		want error
	}{
		{Action{Type: Deal}, ErrBadAction},
		{Action{Type: Deal, Deck: &bad}, ErrBadDeck},
		{Action{Type: Pass}, ErrPhase},
		{Action{Type: 42}, ErrBadAction},
	}
	for _, tt := range tests {
		if _, err := tb.Step(tt.a); !errors.Is(err, tt.want) {
			t.Errorf("Step(%v) = %v, want %v", tt.a, err, tt.want)
		}
	}
}

// FuzzTable drives the engine with arbitrary choices: every step keeps the
// invariants (54 cards, each in one place), refused actions change
// nothing, and every accepted action survives its encoding.
func FuzzTable(f *testing.F) {
	f.Add([]byte{0, 100, 200, 150, 90, 70, 130, 180, 220, 66})
	f.Add([]byte{7, 250, 1, 2, 3, 4, 5, 241, 9, 9, 9, 9, 120, 120, 120})
	f.Add([]byte{3, 64, 64, 64, 65, 66, 67, 68})
	f.Fuzz(func(t *testing.T, in []byte) {
		rules := Rules{Name: "f", Deals: 2}
		if len(in) > 0 {
			rules.Rob = in[0]&1 != 0
			rules.BombCap = int(in[0] >> 1 & 3)
		}
		tb, _ := New(Config{Rules: rules})
		d := &driver{t: t, tb: tb, in: in}
		d.run(len(in) + 10)
		for s := range Seat(NumSeats) {
			for _, e := range d.seen[s] {
				if dt, ok := e.Body.(Dealt); ok && dt.Seat != s {
					t.Fatalf("seat %d saw seat %d's cards", s, dt.Seat)
				}
			}
		}
	})
}

// FuzzAction: DecodeAction never panics, and what it accepts encodes and
// decodes back to itself.
func FuzzAction(f *testing.F) {
	for _, a := range []Action{{Seat: 1, Type: Bid, Bid: 2}, {Type: Play, Cards: card.MustParse("33344455")}, {Type: Deal, Deck: seeded(3), Commitment: [32]byte{1}}} {
		b, _ := AppendAction(nil, a)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAction(b)
		if err != nil {
			return
		}
		again, err := AppendAction(nil, a)
		if err != nil {
			t.Fatalf("DecodeAction(%x) = %v, which does not encode: %v", b, a, err)
		}
		back, err := DecodeAction(again)
		if err != nil || !sameAction(a, back) {
			t.Fatalf("DecodeAction(%x) = %v, encodes to %x, decodes to %v, %v", b, a, again, back, err)
		}
	})
}

// FuzzBody: DecodeBody never panics, and what it accepts encodes and
// decodes back to itself.
func FuzzBody(f *testing.F) {
	for _, b := range []Body{DealStarted{Index: 3, Number: 2, First: 1, Commitment: [32]byte{9}, Scores: [3]int{4, -2, -2}},
		Played{Seat: 2, Play: judge.Play{Type: judge.Straight, Rank: card.Five, Len: 5, Cards: card.MustParse("56789")}, Left: 3},
		DealEnded{Winner: 1, LandlordWon: true, Spring: true, Base: 3, Stake: 6, Deltas: [3]int{-6, 12, -6}},
		Offer{Seat: 1, Bids: 0b1100, Pass: true},
		Offer{Seat: 2, Play: true, Pass: true, ToBeat: judge.Play{Type: judge.Pair, Rank: card.Ten, Len: 1, Cards: card.MustParse("TT")}}} {
		enc, _ := AppendBody(nil, b)
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		body, err := DecodeBody(b)
		if err != nil {
			return
		}
		again, err := AppendBody(nil, body)
		if err != nil {
			t.Fatalf("DecodeBody(%x) = %v, which does not encode: %v", b, body, err)
		}
		back, err := DecodeBody(again)
		if err != nil || !reflect.DeepEqual(back, body) {
			t.Fatalf("DecodeBody(%x) = %v, encodes to %x, decodes to %v, %v", b, body, again, back, err)
		}
	})
}
