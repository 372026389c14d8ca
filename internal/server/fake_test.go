package server_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// fakeEngine is a tiny stand-in for the table engine with the same event
// vocabulary: rounds are dealt from the wall the host passes in, seats draw
// and discard in turn, every discard opens a claim window for one seat
// (which may only pass; the seat across unless offerTo says otherwise), and
// a round ends in an exhaustive draw after drawsPerRound draws. It lets the
// server be tested end to end on its own.
type fakeEngine struct {
	rounds, drawsPerRound int
	offerTo               func(discarder table.Seat) (table.Seat, bool)

	phase   table.Phase
	round   int
	dealer  table.Seat
	w       *wall.Wall
	next    int // next live wall draw
	hands   [table.NumSeats][]tile.Tile
	drawn   tile.Tile
	has     bool
	toAct   table.Seat
	claimer table.Seat
	scores  [table.NumSeats]int
	ponds   [table.NumSeats][]table.DiscardView
}

var errFake = errors.New("fake engine: refused")

func newFake(rounds, draws int) riichi.NewEngine {
	return newFakeOffers(rounds, draws, func(d table.Seat) (table.Seat, bool) { return (d + 2) % table.NumSeats, true })
}

// newFakeOffers makes fakes whose discards offer a claim to the seat
// offerTo names, if any.
func newFakeOffers(rounds, draws int, offerTo func(discarder table.Seat) (table.Seat, bool)) riichi.NewEngine {
	return func(cfg table.Config) (riichi.Engine, error) {
		f := &fakeEngine{rounds: rounds, drawsPerRound: draws, phase: table.BetweenRounds, offerTo: offerTo}
		for i := range f.scores {
			f.scores[i] = cfg.Rules.StartScore
		}
		return f, nil
	}
}

// fakeWall is a wall without the real shuffle: the set in a seed-dependent
// rotation, enough for the fake.
func fakeWall(seed [32]byte, aka bool) wall.Wall {
	w := wall.Wall{Seed: seed}
	off := int(seed[0]) + int(seed[1])
	for i := range w.Tiles {
		k := tile.Kind(((i + off) % wall.Size) / 4)
		w.Tiles[i] = tile.Plain(k)
	}
	return w
}

func (f *fakeEngine) Phase() table.Phase { return f.phase }

func (f *fakeEngine) draw(s table.Seat) []table.Event {
	t := f.w.Tiles[wall.LivePos(f.next)]
	f.next++
	f.drawn, f.has, f.toAct, f.phase = t, true, s, table.Turn
	left := f.drawsPerRound - f.next
	return []table.Event{
		{To: table.Everyone, Body: table.Drew{Seat: s, WallLeft: left}},
		{To: table.Only(s), Body: table.Drew{Seat: s, Tile: t, Known: true, WallLeft: left}},
	}
}

func (f *fakeEngine) Step(a table.Action) ([]table.Event, error) {
	switch {
	case f.phase == table.GameOver:
		return nil, fmt.Errorf("%w: game over", errFake)
	case a.Type == table.Deal:
		if f.phase != table.BetweenRounds || a.Wall == nil {
			return nil, fmt.Errorf("%w: deal now", errFake)
		}
		f.w, f.next = a.Wall, 0
		f.dealer = table.Seat(f.round % table.NumSeats)
		f.round++
		evs := []table.Event{{To: table.Everyone, Body: table.RoundStarted{
			RoundWind: tile.WindEast, Number: f.round, Dealer: f.dealer, Scores: f.scores,
			Dora: f.w.Tiles[wall.DoraPos(0)], WallLeft: f.drawsPerRound,
		}}}
		for off := range table.NumSeats {
			s := (f.dealer + table.Seat(off)) % table.NumSeats
			f.hands[s] = f.hands[s][:0]
			for n := range 13 {
				f.hands[s] = append(f.hands[s], f.w.Tiles[wall.DealPos(off, n)])
			}
			tile.Sort(f.hands[s])
			f.ponds[s] = nil
			evs = append(evs, table.Event{To: table.Only(s), Body: table.Dealt{Seat: s, Hand: slices.Clone(f.hands[s])}})
		}
		return append(evs, f.draw(f.dealer)...), nil
	case a.Type == table.Discard:
		if f.phase != table.Turn || a.Seat != f.toAct {
			return nil, fmt.Errorf("%w: seat %d discards out of turn", errFake, a.Seat)
		}
		tsumogiri := a.Tile == f.drawn
		if !tsumogiri {
			i := slices.Index(f.hands[a.Seat], a.Tile)
			if i < 0 {
				return nil, fmt.Errorf("%w: seat %d has no %v", errFake, a.Seat, a.Tile)
			}
			f.hands[a.Seat] = slices.Delete(f.hands[a.Seat], i, i+1)
			f.hands[a.Seat] = append(f.hands[a.Seat], f.drawn)
			tile.Sort(f.hands[a.Seat])
		}
		f.has = false
		f.ponds[a.Seat] = append(f.ponds[a.Seat], table.DiscardView{Tile: a.Tile, Tsumogiri: tsumogiri})
		evs := []table.Event{
			{To: table.Everyone, Body: table.Discarded{Seat: a.Seat, Tile: a.Tile, Tsumogiri: tsumogiri}},
			{To: table.Only(a.Seat), Body: table.Fishing{Seat: a.Seat, Shanten: 3}},
		}
		claimer, ok := f.offerTo(a.Seat)
		if !ok {
			// Nobody may claim: the window closes at once.
			return append(evs, f.afterWindow()...), nil
		}
		f.claimer, f.phase = claimer, table.ClaimWindow
		return append(evs, table.Event{To: table.Only(f.claimer), Body: table.ClaimOffer{Seat: f.claimer}}), nil
	case a.Type == table.Pass:
		if f.phase != table.ClaimWindow || a.Seat != f.claimer {
			return nil, fmt.Errorf("%w: seat %d passes without an offer", errFake, a.Seat)
		}
		return f.afterWindow(), nil
	}
	return nil, fmt.Errorf("%w: %v", errFake, a.Type)
}

// afterWindow goes on after a claim window: the next draw or the end of
// the round.
func (f *fakeEngine) afterWindow() []table.Event {
	if f.next == f.drawsPerRound {
		return f.endRound()
	}
	return f.draw(f.toAct.Next())
}

func (f *fakeEngine) endRound() []table.Event {
	over := f.round == f.rounds
	evs := []table.Event{{To: table.Everyone, Body: table.RoundEnded{Kind: table.EndExhaustive, Scores: f.scores, GameOver: over, WallSeed: f.w.Seed}}}
	f.phase = table.BetweenRounds
	if over {
		f.phase = table.GameOver
		evs = append(evs, table.Event{To: table.Everyone, Body: table.GameEnded{Scores: f.scores, Ranks: [4]int{1, 2, 3, 4}}})
	}
	return evs
}

func (f *fakeEngine) Legal(s table.Seat) []table.Action {
	switch {
	case f.phase == table.Turn && s == f.toAct:
		var out []table.Action
		for _, t := range append(slices.Clone(f.hands[s]), f.drawn) {
			a := table.Action{Seat: s, Type: table.Discard, Tile: t}
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
		return out
	case f.phase == table.ClaimWindow && s == f.claimer:
		return []table.Action{{Seat: s, Type: table.Pass}}
	}
	return nil
}

func (f *fakeEngine) View(s table.Seat) table.View {
	v := table.View{
		Seat: s, Phase: f.phase, RoundWind: tile.WindEast, Number: f.round, Dealer: f.dealer,
		Scores: f.scores, ToAct: f.toAct, Hand: slices.Clone(f.hands[s]), Legal: f.Legal(s),
		WallLeft: f.drawsPerRound - f.next,
	}
	if f.w != nil {
		v.Dora = []tile.Tile{f.w.Tiles[wall.DoraPos(0)]}
	}
	if f.has && f.toAct == s {
		v.Drawn, v.HasDrawn = f.drawn, true
	}
	for i := range v.Seats {
		v.Seats[i] = table.SeatView{Discards: slices.Clone(f.ponds[i]), HandSize: len(f.hands[i]), Score: f.scores[i]}
	}
	return v
}
