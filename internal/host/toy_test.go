package host_test

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/host"
)

// toy is a tiny turn-based game for testing the host. Each round starts with
// a system deal that gives every seat a private secret. Seats then take
// turns playing 1..3 points; every play opens a claim window (Out.Dwell) in
// which the seat after the next may claim the turn (so that it plays next)
// or pass - unless the game was made without offers, when nobody may. A
// round ends at 10 points; the game after rounds rounds.
//
// A toy made with votes (newToyVotes) opens each round with a vote that
// every seat casts at once, as the seats of a Sichuan hand choose their
// exchange: each vote is announced (Out.Simultaneous), and the turns
// start once all four voted.
type toy struct {
	rounds  int
	offers  bool // plays make claim offers
	votes   bool // each round opens with a vote of every seat
	voted   [4]bool
	nvoted  int
	round   int
	dealt   bool
	total   int
	turn    int
	claimer int // the seat that may claim, or -1
	over    bool
}

type toyAction struct {
	Seat int
	Kind string // "deal", "vote", "play", "claim", "pass"
	N    int
}

type toyView struct {
	Seat   int
	Round  int
	Total  int
	Turn   int
	Secret int
	Vote   bool // the seat has its vote to cast
}

var errToy = errors.New("toy: illegal action")

func newToy(rounds int) host.NewGame[toyAction, toyView, string] {
	return newToyOffers(rounds, true, nil)
}

// newToyOffers makes toys with or without claim offers; each new game is
// also stored in *last, when last is set.
func newToyOffers(rounds int, offers bool, last **toy) host.NewGame[toyAction, toyView, string] {
	return newToyWith(rounds, offers, false, last)
}

// newToyVotes makes toys whose rounds open with a vote of every seat.
func newToyVotes(rounds int) host.NewGame[toyAction, toyView, string] {
	return newToyWith(rounds, true, true, nil)
}

// newToyWith makes toys with or without claim offers and votes; each new
// game is also stored in *last, when last is set.
func newToyWith(rounds int, offers, votes bool, last **toy) host.NewGame[toyAction, toyView, string] {
	return func() (host.Game[toyAction, toyView, string], error) {
		g := &toy{rounds: rounds, offers: offers, votes: votes, claimer: -1}
		if last != nil {
			*last = g
		}
		return g, nil
	}
}

// voting reports whether the round's vote is still open.
func (g *toy) voting() bool { return g.votes && g.dealt && g.nvoted < 4 }

func secret(round, seat int) int { return 100*round + 7*seat + 13 }

func (g *toy) Apply(a toyAction) ([]host.Out[string], error) {
	pub := func(f string, args ...any) host.Out[string] {
		return host.Out[string]{To: host.Everyone, Body: fmt.Sprintf(f, args...)}
	}
	switch {
	case g.over:
		return nil, fmt.Errorf("%w: game over", errToy)
	case a.Kind == "deal":
		if g.dealt {
			return nil, fmt.Errorf("%w: already dealt", errToy)
		}
		g.round++
		g.dealt, g.total, g.turn = true, 0, (g.round-1)%4
		g.voted, g.nvoted = [4]bool{}, 0
		outs := []host.Out[string]{pub("round %d", g.round)}
		for s := range 4 {
			outs = append(outs, host.Out[string]{To: host.Only(s), Body: fmt.Sprintf("secret %d", secret(g.round, s))})
		}
		return outs, nil
	case !g.dealt:
		return nil, fmt.Errorf("%w: not dealt", errToy)
	case g.voting():
		if a.Kind != "vote" || a.Seat < 0 || a.Seat > 3 || g.voted[a.Seat] || a.N < 1 || a.N > 3 {
			return nil, fmt.Errorf("%w: seat %d %s %d during the vote", errToy, a.Seat, a.Kind, a.N)
		}
		g.voted[a.Seat] = true
		g.nvoted++
		outs := []host.Out[string]{
			{To: host.Everyone, Body: fmt.Sprintf("voted %d", a.Seat), Simultaneous: true},
			{To: host.Only(a.Seat), Body: fmt.Sprintf("you voted %d", a.N), Simultaneous: true},
		}
		if g.nvoted == 4 {
			outs = append(outs, pub("vote over"))
		}
		return outs, nil
	case g.claimer >= 0:
		if a.Seat != g.claimer || (a.Kind != "claim" && a.Kind != "pass") {
			return nil, fmt.Errorf("%w: seat %d %s in claim window of %d", errToy, a.Seat, a.Kind, g.claimer)
		}
		c := g.claimer
		g.claimer = -1
		if a.Kind == "pass" {
			// Sealed: a pass publishes nothing.
			return nil, nil
		}
		g.turn = c
		return []host.Out[string]{pub("claim %d", c)}, nil
	case a.Kind == "play":
		if a.Seat != g.turn || a.N < 1 || a.N > 3 {
			return nil, fmt.Errorf("%w: seat %d plays %d on %d's turn", errToy, a.Seat, a.N, g.turn)
		}
		g.total += a.N
		outs := []host.Out[string]{pub("play %d %d", a.Seat, a.N)}
		if g.total >= 10 {
			g.dealt = false
			outs = append(outs, pub("end %d", g.round))
			if g.round == g.rounds {
				g.over = true
				outs = append(outs, pub("over"))
			}
			return outs, nil
		}
		g.turn = (g.turn + 1) % 4
		if g.offers {
			g.claimer = (g.turn + 1) % 4
			outs = append(outs, host.Out[string]{To: host.Only(g.claimer), Body: "offer", Offer: true})
		}
		outs[len(outs)-1].Dwell = true // the window is open
		return outs, nil
	}
	return nil, fmt.Errorf("%w: seat %d %s", errToy, a.Seat, a.Kind)
}

func (g *toy) View(seat int) toyView {
	v := toyView{Seat: seat, Round: g.round, Total: g.total, Turn: g.turn, Vote: g.voting() && !g.voted[seat]}
	if g.dealt {
		v.Secret = secret(g.round, seat)
	}
	return v
}

func (g *toy) Pending() host.Pending {
	switch {
	case g.over:
		return host.Pending{}
	case !g.dealt:
		return host.Pending{Kind: host.WaitSystem}
	case g.voting():
		var p host.Pending
		for s, v := range g.voted {
			if !v {
				p.Seats = append(p.Seats, s)
			}
		}
		p.Kind = host.WaitTurn
		return p
	case g.claimer >= 0:
		return host.Pending{Kind: host.WaitClaim, Seats: []int{g.claimer}}
	}
	return host.Pending{Kind: host.WaitTurn, Seats: []int{g.turn}}
}

func (g *toy) Default(seat int) toyAction {
	switch {
	case seat == host.System:
		return toyAction{Kind: "deal"}
	case g.voting():
		return toyAction{Seat: seat, Kind: "vote", N: 1}
	case seat == g.claimer:
		return toyAction{Seat: seat, Kind: "pass"}
	}
	return toyAction{Seat: seat, Kind: "play", N: 1}
}

func (g *toy) Over() bool { return g.over }

// maxBot plays 3 every turn and claims every offer: a bot that is not the
// default, so tests can tell who played.
type maxBot struct{}

func (maxBot) Act(seat int, v toyView) (toyAction, error) {
	if v.Vote {
		return toyAction{Seat: seat, Kind: "vote", N: 3}, nil
	}
	if v.Turn == seat {
		return toyAction{Seat: seat, Kind: "play", N: 3}, nil
	}
	return toyAction{Seat: seat, Kind: "claim"}, nil
}

// The toy takes snapshots between rounds: with a Codec configured, the
// host saves one after every round.

func (g *toy) Boundary() bool { return !g.dealt && g.round > 0 && g.claimer < 0 }

func (g *toy) AppendSnapshot(dst []byte) ([]byte, error) {
	if !g.Boundary() {
		return dst, fmt.Errorf("%w: snapshot during a round", errToy)
	}
	return fmt.Appendf(dst, "%d %d %d %t %t", g.round, g.total, g.turn, g.over, g.offers), nil
}

func (g *toy) Restore(state []byte) error {
	var h toy
	if _, err := fmt.Sscanf(string(state), "%d %d %d %t %t", &h.round, &h.total, &h.turn, &h.over, &h.offers); err != nil {
		return fmt.Errorf("%w: state %q: %v", errToy, state, err)
	}
	if g.round != 0 || h.round < 1 || h.round > g.rounds || h.over != (h.round == g.rounds) || h.offers != g.offers {
		return fmt.Errorf("%w: state %q for a game of %d rounds", errToy, state, g.rounds)
	}
	g.round, g.total, g.turn, g.over = h.round, h.total, h.turn, h.over
	return nil
}

// toyCodec encodes the toy's actions and events.
type toyCodec struct{}

func (toyCodec) AppendAction(dst []byte, a toyAction) []byte {
	return fmt.Appendf(dst, "%d %s %d", a.Seat, a.Kind, a.N)
}

func (toyCodec) DecodeAction(b []byte) (toyAction, error) {
	var a toyAction
	if _, err := fmt.Sscanf(string(b), "%d %s %d", &a.Seat, &a.Kind, &a.N); err != nil {
		return a, fmt.Errorf("toy action %q: %w", b, err)
	}
	return a, nil
}

func (toyCodec) AppendBody(dst []byte, b string) ([]byte, error) { return append(dst, b...), nil }

func (toyCodec) DecodeBody(b []byte) (string, error) { return string(b), nil }
