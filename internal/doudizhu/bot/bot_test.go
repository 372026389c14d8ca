package bot

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// playView is seat 1 (a farmer; seat 0 is the landlord) to play hand
// against prev played by seat by (no prev: it leads).
func playView(hand, prev string, by table.Seat, left [3]int) *table.View {
	v := &table.View{Seat: 1, Phase: table.Playing, ToAct: 1, Landlord: 0, HasLandlord: true, Hand: card.MustParse(hand), Left: left}
	if prev != "" {
		c := card.MustParse(prev)
		v.Last, v.LastBy, v.HasLast = judge.Classify(&c), by, true
	} else {
		v.MustLead = true
	}
	v.Left[1] = v.Hand.Len()
	return v
}

func TestPlay(t *testing.T) {
	many := [3]int{15, 0, 15}
	tests := []struct {
		name, hand, prev string
		by               table.Seat
		left             [3]int
		want             string // "pass" or the cards
	}{
		{"smallest single that beats", "3456789", "5", 0, many, "6"},
		{"smallest pair", "3399KKAA", "88", 0, many, "99"},
		{"cheapest kicker", "55534K", "3334", 0, many, "3555"},
		{"the partner's trick stands", "3456789", "5", 2, many, "pass"},
		{"no bomb on a harmless trick", "333345", "2", 0, many, "pass"},
		{"a bomb when the landlord is about to go out", "333345", "2", 0, [3]int{3, 0, 15}, "3333"},
		{"the rocket when nothing else beats", "XD45", "2222", 0, [3]int{2, 0, 15}, "XD"},
		{"no breaking the bomb for a single", "333349TK", "2", 0, many, "pass"},
		{"a bomb that leaves one card", "33334", "2", 0, many, "3333"},
		{"going out beats everything else", "345", "", 0, many, "3"},
		{"the longest lead", "345679KK", "", 0, many, "34567"},
		{"no 2 in a lead while there is more", "3322", "", 0, many, "33"},
		{"going out", "TJQKA", "34567", 2, many, "TJQKA"},
	}
	var b Bot
	for _, tt := range tests {
		v := playView(tt.hand, tt.prev, tt.by, tt.left)
		a, err := b.Act(v)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := "pass"
		if a.Type == table.Play {
			got = a.Cards.String()
		}
		if got != tt.want {
			t.Errorf("%s: hand %s against %q: %s, want %s", tt.name, tt.hand, tt.prev, got, tt.want)
		}
	}
}

func TestBid(t *testing.T) {
	tests := []struct {
		hand string
		want int
	}{
		{"3456789TJQK345678", 0},
		{"3456789TJQKA22XD3", 3},
		{"3456789TJQKAA22X4", 1},
		{"3456789TJQK222XA4", 2},
	}
	var b Bot
	for _, tt := range tests {
		v := &table.View{Seat: 0, Phase: table.Bidding, ToAct: 0, Hand: card.MustParse(tt.hand),
			Legal: []table.Action{{Type: table.Bid, Bid: 1}, {Type: table.Bid, Bid: 2}, {Type: table.Bid, Bid: 3}, {Type: table.Pass}}}
		a, _ := b.Act(v)
		got := 0
		if a.Type == table.Bid {
			got = a.Bid
		}
		if got != tt.want {
			t.Errorf("bid with %s (strength %d) = %d, want %d", tt.hand, Strength(&v.Hand), got, tt.want)
		}
	}
}

// playMatch plays a whole match of bots from seed, checking the table's
// invariants after every step, and returns the deals played and steps.
func playMatch(tb testing.TB, rules table.Rules, seed uint64, check bool) (deals, steps int) {
	t, err := table.New(table.Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	var bots [table.NumSeats]Bot
	for t.Phase() != table.MatchOver {
		var a table.Action
		if t.Phase() == table.BetweenDeals {
			var s [16]byte
			binary.LittleEndian.PutUint64(s[:], seed)
			binary.LittleEndian.PutUint64(s[8:], uint64(t.Index()))
			d := deck.New(sha256.Sum256(s[:]))
			a = table.Action{Type: table.Deal, Deck: &d}
			deals++
		} else {
			s := t.ToAct()
			v := t.View(s)
			if a, err = bots[s].Act(&v); err != nil {
				tb.Fatal(err)
			}
		}
		if _, err := t.Step(a); err != nil {
			tb.Fatalf("seed %d: bot action %v refused: %v", seed, a, err)
		}
		steps++
		if check {
			if err := t.Verify(); err != nil {
				tb.Fatalf("seed %d after %v: %v", seed, a, err)
			}
		}
		if steps > 100000 {
			tb.Fatalf("seed %d: the match does not end", seed)
		}
	}
	return deals, steps
}

// TestWholeMatches plays bots against each other in both bidding modes.
func TestWholeMatches(t *testing.T) {
	for seed := range uint64(40) {
		playMatch(t, table.Rules{Name: "t", Deals: 3}, seed, true)
		playMatch(t, table.Rules{Name: "t", Rob: true, BombCap: 3, Deals: 3}, seed, true)
	}
}

// BenchmarkDeal measures whole bot deals in process: deal, bidding and
// play, with the bots' views and decisions, no invariant checks.
func BenchmarkDeal(b *testing.B) {
	b.ReportAllocs()
	deals := 0
	seed := uint64(0)
	for b.Loop() {
		n, _ := playMatch(b, table.Classic, seed, false)
		deals += n
		seed++
	}
	b.ReportMetric(float64(deals)/b.Elapsed().Seconds(), "deals/s")
}
