package table

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/scripttest"
)

var update = flag.Bool("update", false, "rewrite the expected output of the scenario scripts")

// TestScripts runs the scenario scripts under testdata/: commands in,
// expected events out. A block is a command line, optional input lines,
// "----", and the expected output up to a blank line. go test -run
// TestScripts -update rewrites the expected output; review it as a diff.
//
// Commands:
//
//	new [rob] [cap=n] [deals=n]
//	deal [seed=text]  input: "0: cards", "1: cards", "2: cards" (17 each),
//	                  "kitty: cards", "first: seat"; cards not given are
//	                  filled in card order. With seed=, the deck is the
//	                  shuffle of SHA-256(text) and takes no input.
//	<seat> bid <n> | call | rob | pass | play <cards>
//	do                input: one action per line, as above
//	default           the timeout action of the seat to act, applied
//	legal <seat>      the seat's legal actions
//	view <seat>       what the seat sees
//
// After every step the table's invariants are checked, and a refused
// action must leave the table exactly as it was.
func TestScripts(t *testing.T) {
	scripttest.Run(t, *update, func(t *testing.T) func(*scripttest.Block) []string {
		h := &harness{t: t}
		return h.run
	})
}

type harness struct {
	t  *testing.T
	tb *Table
}

func (h *harness) run(b *scripttest.Block) []string {
	f := strings.Fields(b.Cmd)
	switch f[0] {
	case "new":
		cfg := Config{Rules: Classic}
		for _, a := range f[1:] {
			switch {
			case a == "rob":
				cfg.Rules.Rob = true
			case strings.HasPrefix(a, "cap="):
				cfg.Rules.BombCap, _ = strconv.Atoi(a[4:])
			case strings.HasPrefix(a, "deals="):
				cfg.Rules.Deals, _ = strconv.Atoi(a[6:])
			default:
				return []string{"error: unknown option " + a}
			}
		}
		tb, err := New(cfg)
		if err != nil {
			return []string{"error: " + err.Error()}
		}
		h.tb = tb
		return nil
	case "deal":
		d, err := scriptDeck(f[1:], b.Input)
		if err != nil {
			return []string{"error: " + err.Error()}
		}
		return h.step(Action{Type: Deal, Deck: &d})
	case "do":
		var out []string
		for _, l := range b.Input {
			a, err := parseAction(strings.Fields(l))
			if err != nil {
				return append(out, "error: "+err.Error())
			}
			out = append(out, h.step(a)...)
		}
		return out
	case "default":
		a, ok := h.tb.Default()
		if !ok {
			return []string{"no default"}
		}
		return append([]string{"default: " + a.String()}, h.step(a)...)
	case "legal":
		s, _ := strconv.Atoi(f[1])
		var out []string
		for _, a := range h.tb.Legal(Seat(s)) {
			out = append(out, a.String())
		}
		if out == nil {
			return []string{"(none)"}
		}
		return []string{strings.Join(out, ", ")}
	case "view":
		s, _ := strconv.Atoi(f[1])
		return formatView(h.tb.View(Seat(s)))
	}
	a, err := parseAction(f)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return h.step(a)
}

// step applies a and formats its events; a refused action must change
// nothing, and after an accepted one the invariants must hold.
func (h *harness) step(a Action) []string {
	before := snapshotState(h.tb)
	evs, err := h.tb.Step(a)
	if err != nil {
		if after := snapshotState(h.tb); after != before {
			h.t.Fatalf("refused %v changed the table", a)
		}
		return []string{"error: " + err.Error()}
	}
	if err := h.tb.Verify(); err != nil {
		h.t.Fatalf("after %v: %v", a, err)
	}
	var out []string
	for _, e := range evs {
		to := "all"
		if e.To.Private {
			to = fmt.Sprint(e.To.Seat)
		}
		out = append(out, fmt.Sprintf("%d %s %s", e.Seq, to, Format(e.Body)))
	}
	return out
}

// snapshotState is the table's state without its buffers, for comparing
// before and after a refused action.
func snapshotState(t *Table) string {
	return fmt.Sprintf("%v %v %v %v %v %v %v %+v", t.rules, t.phase, t.seq, t.scores, t.index, t.number, t.done, t.d)
}

func parseAction(f []string) (Action, error) {
	if len(f) < 2 {
		return Action{}, fmt.Errorf("action %q: want <seat> <type> [arg]", strings.Join(f, " "))
	}
	s, err := strconv.Atoi(f[0])
	if err != nil {
		return Action{}, fmt.Errorf("seat %q", f[0])
	}
	a := Action{Seat: Seat(s)}
	switch f[1] {
	case "bid":
		a.Type = Bid
		if len(f) > 2 {
			a.Bid, _ = strconv.Atoi(f[2])
		}
	case "call":
		a.Type = Call
	case "rob":
		a.Type = Rob
	case "pass":
		a.Type = Pass
	case "play":
		a.Type = Play
		if len(f) < 3 {
			return a, fmt.Errorf("play what?")
		}
		c, err := card.Parse(f[2])
		if err != nil {
			return a, err
		}
		a.Cards = c
	default:
		return a, fmt.Errorf("unknown action %q", f[1])
	}
	return a, nil
}

func scriptDeck(args, input []string) (deck.Deck, error) {
	for _, a := range args {
		if text, ok := strings.CutPrefix(a, "seed="); ok {
			return deck.New(sha256.Sum256([]byte(text))), nil
		}
	}
	var hands [deck.Seats]string
	var kitty string
	first := 0
	for _, l := range input {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return deck.Deck{}, fmt.Errorf("deal input %q", l)
		}
		v = strings.TrimSpace(v)
		switch k {
		case "0", "1", "2":
			hands[k[0]-'0'] = v
		case "kitty":
			kitty = v
		case "first":
			first, _ = strconv.Atoi(v)
		default:
			return deck.Deck{}, fmt.Errorf("deal input %q", l)
		}
	}
	return deck.Stacked(hands, kitty, first)
}

func formatView(v View) []string {
	out := []string{
		fmt.Sprintf("seat=%d phase=%v index=%d number=%d scores=%s to_act=%d", v.Seat, v.Phase, v.Index, v.Number, ints(v.Scores[:]), v.ToAct),
		fmt.Sprintf("hand=%s left=%s kitty=%s", v.Hand.String(), ints(v.Left[:]), v.Kitty.String()),
		fmt.Sprintf("base=%d has_bid=%v bidder=%d robs=%d bids=%v", v.Base, v.HasBid, v.Bidder, v.Robs, v.Bids),
	}
	if v.HasLandlord {
		out = append(out, fmt.Sprintf("landlord=%d bombs=%d played=%s", v.Landlord, v.Bombs, v.Played.String()))
	}
	if v.HasLast {
		out = append(out, fmt.Sprintf("last=%s by %d", FormatPlay(&v.Last), v.LastBy))
	}
	if v.MustLead {
		out = append(out, "must_lead")
	}
	return out
}
