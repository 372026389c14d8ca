package wire_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
	"github.com/mahjong-authority/authority/internal/wire"
)

// onWire is what the wire keeps of a body: the wire leaves out the tile
// of ron and open kan offers (the window's tile, which the server knows)
// and writes hands and meld tiles sorted.
func onWire(b table.Body) table.Body {
	switch b := b.(type) {
	case table.Dealt:
		b.Hand = sorted(b.Hand)
		return b
	case table.ClaimOffer:
		b.Options = offered(b.Options)
		return b
	case table.TurnOffer:
		b.Options = offered(b.Options)
		return b
	case table.Called:
		b.Meld = sortedMeld(b.Meld)
		return b
	case table.Won:
		b.Hand = sorted(b.Hand)
		b.Melds = sortedMelds(b.Melds)
		if len(b.Ura) == 0 {
			b.Ura = nil
		}
		return b
	case table.RoundEnded:
		for s := range b.Hands {
			b.Hands[s] = sorted(b.Hands[s])
		}
		return b
	}
	return b
}

func sorted(ts []tile.Tile) []tile.Tile {
	if len(ts) == 0 {
		return nil
	}
	ts = slices.Clone(ts)
	tile.Sort(ts)
	return ts
}

func sortedMeld(m table.Meld) table.Meld {
	n := m.Len()
	copy(m.Tiles[:n], sorted(m.Tiles[:n]))
	return m
}

func sortedMelds(ms []table.Meld) []table.Meld {
	if len(ms) == 0 {
		return nil
	}
	out := make([]table.Meld, len(ms))
	for i, m := range ms {
		out[i] = sortedMeld(m)
	}
	return out
}

func offered(as []table.Action) []table.Action {
	if len(as) == 0 {
		return nil
	}
	as = slices.Clone(as)
	for i := range as {
		if as[i].Type == table.Ron || as[i].Type == table.OpenKan {
			as[i].Tile = 0
		}
	}
	return as
}

// viewOnWire is what the wire keeps of a view: as onWire, and empty lists
// as nil.
func viewOnWire(v table.View) table.View {
	v.Hand, v.Legal = sorted(v.Hand), offered(v.Legal)
	if len(v.Dora) == 0 {
		v.Dora = nil // indicators keep their order
	}
	for i := range v.Seats {
		s := &v.Seats[i]
		s.Melds = sortedMelds(s.Melds)
		if len(s.Discards) == 0 {
			s.Discards = nil
		}
	}
	return v
}

// TestGamesRoundTrip plays whole games on the engine, efficient bots
// (riichi, wins) and random ones (calls, kans, aborts), and sends every
// event body and every seat's view after every step through the wire and
// back; MarshalEvent encodes every event as proto.Marshal does.
func TestGamesRoundTrip(t *testing.T) {
	seen := map[string]int{}
	at := time.Unix(1700000000, 0)
	for seed := range uint64(12) {
		var bots [table.NumSeats]bot.Bot
		for s := range bots {
			if seed%3 == 0 {
				bots[s] = bot.Efficient{}
			} else {
				bots[s] = bot.NewRandom(seed*4 + uint64(s))
			}
		}
		eng, err := table.New(table.Config{Rules: table.TenhouTonpuu})
		if err != nil {
			t.Fatal(err)
		}
		var ws [32]byte
		binary.LittleEndian.PutUint64(ws[:], seed)
		for step := 0; eng.Phase() != table.GameOver; step++ {
			if step > 5000 {
				t.Fatalf("seed %d: game too long", seed)
			}
			var a table.Action
			if eng.Phase() == table.BetweenRounds {
				ws[31]++
				w := wall.New(ws, true)
				a = table.Action{Type: table.Deal, Wall: &w}
			} else {
				for s := range table.Seat(table.NumSeats) {
					if eng.Waiting(s) {
						v := eng.View(s)
						a, _ = bots[s].Act(&v)
						break
					}
				}
			}
			evs, err := eng.Step(a)
			if err != nil {
				t.Fatalf("seed %d step %d: %v: %v", seed, step, a, err)
			}
			for s := range table.Seat(table.NumSeats) {
				if l := eng.Legal(s); len(l) > 0 && eng.Phase() == table.Turn {
					evs = append(evs, table.Event{To: table.Only(s), Body: table.TurnOffer{Seat: s, Options: l}})
				}
			}
			for _, e := range evs {
				seen[fmt.Sprintf("%T", e.Body)]++
				if c, ok := e.Body.(table.Called); ok {
					seen[c.Meld.Type.String()]++
				}
				pe, err := wire.EventToPB(e.Seq, at, e.Body)
				if err != nil {
					t.Fatalf("seed %d step %d: EventToPB(%#v) = %v", seed, step, e.Body, err)
				}
				got, err := wire.BodyFromPB(pe)
				if want := onWire(e.Body); err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d step %d: BodyFromPB(EventToPB(%#v)) =\n%#v, %v; want\n%#v", seed, step, e.Body, got, err, want)
				}
				want, err := proto.Marshal(pe)
				if err != nil {
					t.Fatal(err)
				}
				if enc, err := wire.MarshalEvent(e.Seq, at, e.Body); err != nil || !bytes.Equal(enc, want) {
					t.Fatalf("seed %d step %d: MarshalEvent(%#v) =\n%x, %v; want proto.Marshal's\n%x", seed, step, e.Body, enc, err, want)
				}
			}
			for s := range table.Seat(table.NumSeats) {
				v := eng.View(s)
				got, err := wire.ViewFromPB(wire.ViewToPB(v), v.Seq)
				if want := viewOnWire(v); err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d step %d seat %d: ViewFromPB(ViewToPB(v)) =\n%+v, %v; want\n%+v", seed, step, s, got, err, want)
				}
			}
		}
	}
	t.Logf("seen: %v", seen)
	for _, k := range []string{"chi", "pon", "open_kan", "closed_kan", "added_kan", "table.Won", "table.RiichiAccepted", "table.ClaimOffer", "table.GameEnded"} {
		if seen[k] == 0 {
			t.Errorf("the games had no %s: its round trip was not checked", k)
		}
	}
}
