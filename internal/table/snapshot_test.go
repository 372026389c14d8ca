package table_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// botGame plays a whole game with bots (a random bot calls, kans and
// riichis; the efficient one wins) and returns its actions.
func botGame(t testing.TB, rules table.Rules, bots [table.NumSeats]bot.Bot, seed uint64) []table.Action {
	t.Helper()
	tb, err := table.New(table.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var acts []table.Action
	for rounds := 0; tb.Phase() != table.GameOver; {
		if len(acts) > 100_000 {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		var a table.Action
		if tb.Phase() == table.BetweenRounds {
			var ws [32]byte
			binary.LittleEndian.PutUint64(ws[:], seed)
			binary.LittleEndian.PutUint64(ws[8:], uint64(rounds))
			w := wall.New(ws, rules.Aka)
			a = table.Action{Type: table.Deal, Wall: &w}
			rounds++
		} else {
			found := false
			for s := range table.Seat(table.NumSeats) {
				if tb.Waiting(s) {
					v := tb.View(s)
					a, found = bots[s].Act(&v)
					break
				}
			}
			if !found {
				t.Fatalf("seed %d: nobody acts in %v", seed, tb.Phase())
			}
		}
		if _, err := tb.Step(a); err != nil {
			t.Fatalf("seed %d: %v: %v", seed, a, err)
		}
		acts = append(acts, a)
	}
	return acts
}

// realGames returns the actions of the shared real games as the replayer
// feeds them, with their configs.
func realGames(t testing.TB) ([]table.Config, [][]table.Action) {
	t.Helper()
	f, err := os.Open("../../testdata/replays/tenhou-games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	var cfgs []table.Config
	var games [][]table.Action
	for sc.Scan() {
		g, err := replay.Decode(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rules, err := replay.Rules(g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		var acts []table.Action
		out := replay.Watch(g, func(s replay.Step) {
			if s.Err == nil {
				acts = append(acts, s.Action)
			}
		})
		if !out.OK {
			t.Fatalf("%s does not replay: %s", g.ID, out.Error)
		}
		cfgs = append(cfgs, table.Config{Rules: rules, StartScores: g.StartScores})
		games = append(games, acts)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cfgs, games
}

// played is the original table's course: the events of every step and,
// after every step, every seat's view and a spectator's.
type played struct {
	events [][]table.Event
	views  [][table.NumSeats + 1]table.View
	snaps  map[int]table.Snapshot // after step i (-1: before the first)
}

func play(t *testing.T, cfg table.Config, acts []table.Action, views bool) *played {
	t.Helper()
	tb, err := table.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := &played{snaps: map[int]table.Snapshot{}}
	snap := func(i int) {
		s, err := tb.Snapshot()
		if err != nil {
			t.Fatalf("Snapshot after step %d in %v: %v", i, tb.Phase(), err)
		}
		p.snaps[i] = s
	}
	snap(-1)
	for i, a := range acts {
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("step %d %v: %v", i, a, err)
		}
		p.events = append(p.events, evs)
		var vs [table.NumSeats + 1]table.View
		if views || tb.Phase() == table.BetweenRounds || tb.Phase() == table.GameOver {
			for s := range vs {
				vs[s] = tb.View(table.Seat(s))
			}
		}
		p.views = append(p.views, vs)
		if ph := tb.Phase(); ph == table.BetweenRounds || ph == table.GameOver {
			snap(i)
		} else if _, err := tb.Snapshot(); !errors.Is(err, table.ErrPhase) {
			t.Fatalf("Snapshot in %v = %v, want ErrPhase", ph, err)
		}
	}
	return p
}

// checkRestores restores the table at every round boundary of a game - the
// snapshot through its binary encoding - and requires the restored table to
// show the same views, give the same snapshot, and then play the rest of
// the game with the same events (and, with views, the same views after
// every step) as the original.
func checkRestores(t *testing.T, cfg table.Config, acts []table.Action, views bool) int {
	t.Helper()
	p := play(t, cfg, acts, views)
	for at, snap := range p.snaps {
		raw, err := snap.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var dec table.Snapshot
		if err := dec.UnmarshalBinary(raw); err != nil {
			t.Fatalf("UnmarshalBinary of the snapshot after step %d: %v", at, err)
		}
		if !reflect.DeepEqual(dec, snap) {
			t.Fatalf("snapshot after step %d decodes as\n%+v\nwant\n%+v", at, dec, snap)
		}
		tb, err := table.Restore(cfg, dec)
		if err != nil {
			t.Fatalf("Restore after step %d: %v", at, err)
		}
		if again, err := tb.Snapshot(); err != nil || !reflect.DeepEqual(again, snap) {
			t.Fatalf("restored table's snapshot after step %d = %+v, %v; want %+v", at, again, err, snap)
		}
		if at >= 0 {
			for s := range table.Seat(table.NumSeats + 1) {
				if v := tb.View(s); !reflect.DeepEqual(v, p.views[at][s]) {
					t.Fatalf("after step %d, seat %d's view of the restored table\n%+v\nwant\n%+v", at, s, v, p.views[at][s])
				}
			}
		}
		for i := at + 1; i < len(acts); i++ {
			evs, err := tb.Step(acts[i])
			if err != nil {
				t.Fatalf("restored after step %d: step %d %v: %v", at, i, acts[i], err)
			}
			if !reflect.DeepEqual(evs, p.events[i]) {
				t.Fatalf("restored after step %d: step %d events\n%v\nwant\n%v", at, i, evs, p.events[i])
			}
			if views {
				for s := range table.Seat(table.NumSeats + 1) {
					if v := tb.View(s); !reflect.DeepEqual(v, p.views[i][s]) {
						t.Fatalf("restored after step %d: step %d seat %d's view\n%+v\nwant\n%+v", at, i, s, v, p.views[i][s])
					}
				}
			}
		}
		if err := tb.Verify(); err != nil {
			t.Fatalf("restored after step %d, at the end: %v", at, err)
		}
		if tb.Phase() != table.GameOver {
			t.Fatalf("restored after step %d: %v at the end", at, tb.Phase())
		}
	}
	return len(p.snaps)
}

func TestSnapshotRestoreBots(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	boundaries := 0
	for seed := range uint64(games) {
		rules := table.TenhouHanchan
		if seed%3 == 2 {
			rules = table.TenhouTonpuu
		}
		bots := [table.NumSeats]bot.Bot{bot.NewRandom(seed), bot.Efficient{}, bot.NewRandom(seed + 100), bot.Efficient{}}
		if seed%2 == 1 {
			bots = [table.NumSeats]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
		}
		acts := botGame(t, rules, bots, seed)
		boundaries += checkRestores(t, table.Config{Rules: rules}, acts, true)
	}
	t.Logf("%d games, %d boundaries", games, boundaries)
}

func TestSnapshotRestoreRealGames(t *testing.T) {
	cfgs, games := realGames(t)
	if testing.Short() {
		cfgs, games = cfgs[:10], games[:10]
	}
	boundaries := 0
	for i := range games {
		boundaries += checkRestores(t, cfgs[i], games[i], i < 3)
	}
	t.Logf("%d games, %d boundaries", len(games), boundaries)
}

// TestRestoreRefuses: Restore refuses a snapshot that does not fit its
// config or that no table could have reached, with ErrSnapshot.
func TestRestoreRefuses(t *testing.T) {
	cfg := table.Config{Rules: table.TenhouHanchan}
	acts := botGame(t, cfg.Rules, [table.NumSeats]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}, 3)
	p := play(t, cfg, acts, false)
	var good table.Snapshot
	for at, s := range p.snaps {
		if at >= 0 && s.Phase == table.BetweenRounds && s.RiichiSticks == 0 {
			good = s
			break
		}
	}
	if good.Last == nil {
		t.Fatal("no boundary after a round without sticks")
	}
	if _, err := table.Restore(cfg, good); err != nil {
		t.Fatalf("Restore(good) = %v", err)
	}
	// deep copies the last round, so that a case may change it.
	deep := func(s table.Snapshot) table.Snapshot {
		raw, _ := s.MarshalBinary()
		var c table.Snapshot
		if err := c.UnmarshalBinary(raw); err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []struct {
		name   string
		change func(s *table.Snapshot)
	}{
		{"other rules", func(s *table.Snapshot) { s.Rules = table.TenhouTonpuu }},
		{"other start", func(s *table.Snapshot) { s.StartScores[0] += 1000 }},
		{"in a turn", func(s *table.Snapshot) { s.Phase = table.Turn }},
		{"points from nowhere", func(s *table.Snapshot) { s.Scores[2] += 1000 }},
		{"a stick from nowhere", func(s *table.Snapshot) { s.RiichiSticks++ }},
		{"round 5", func(s *table.Snapshot) { s.Number = 5 }},
		{"no wind", func(s *table.Snapshot) { s.RoundWind = 7 }},
		{"negative honba", func(s *table.Snapshot) { s.Honba = -1 }},
		{"rounds without a last round", func(s *table.Snapshot) { s.Last = nil }},
		{"a last round before any", func(s *table.Snapshot) { s.Rounds = 0 }},
		{"too many draws", func(s *table.Snapshot) { s.Last.Draws = 71 }},
		{"no indicator", func(s *table.Snapshot) { s.Last.Dora = 0 }},
		{"kan dora without a kan", func(s *table.Snapshot) { s.Last.Dora = 1 + s.Last.Kans + 1 }},
		{"seat 4 to act", func(s *table.Snapshot) { s.Last.ToAct = 4 }},
		{"a tile twice", func(s *table.Snapshot) { s.Last.Seats[0].Hand[0] = s.Last.Seats[1].Hand[0] }},
		{"a tile lost", func(s *table.Snapshot) { s.Last.Seats[2].Hand = s.Last.Seats[2].Hand[1:] }},
		{"a flower", func(s *table.Snapshot) { s.Last.Seats[3].Hand[0] = tile.Tile(40) }},
		{"a wall of 137 kinds", func(s *table.Snapshot) { s.Last.Wall[0] = s.Last.Wall[1] }},
		{"a bad meld", func(s *table.Snapshot) {
			s.Last.Seats[0].Melds = append(s.Last.Seats[0].Melds, table.Meld{From: 9})
		}},
	} {
		s := deep(good)
		c.change(&s)
		if _, err := table.Restore(cfg, s); !errors.Is(err, table.ErrSnapshot) {
			t.Errorf("Restore(%s) = %v, want ErrSnapshot", c.name, err)
		}
	}
	if _, err := table.Restore(table.Config{Rules: table.Rules{}}, good); !errors.Is(err, table.ErrConfig) {
		t.Errorf("Restore with a bad config = %v, want ErrConfig", err)
	}
	raw, _ := good.MarshalBinary()
	for _, bad := range [][]byte{nil, {2}, raw[:len(raw)-1], append(raw, 0)} {
		var s table.Snapshot
		if err := s.UnmarshalBinary(bad); !errors.Is(err, table.ErrSnapshot) {
			t.Errorf("UnmarshalBinary(%d bytes) = %v, want ErrSnapshot", len(bad), err)
		}
	}
}

// TestBodyCodec encodes and decodes every event of bot and real games.
func TestBodyCodec(t *testing.T) {
	cfgs, games := realGames(t)
	cfgs, games = cfgs[:20], games[:20]
	cfgs = append(cfgs, table.Config{Rules: table.TenhouHanchan})
	games = append(games, botGame(t, table.TenhouHanchan, [table.NumSeats]bot.Bot{bot.NewRandom(1), bot.NewRandom(2), bot.NewRandom(3), bot.NewRandom(4)}, 9))
	kinds := map[string]bool{}
	for i := range games {
		p := play(t, cfgs[i], games[i], false)
		for _, evs := range p.events {
			for _, e := range evs {
				raw, err := table.AppendBody(nil, e.Body)
				if err != nil {
					t.Fatalf("AppendBody(%v) = %v", e, err)
				}
				got, err := table.DecodeBody(raw)
				if err != nil || !reflect.DeepEqual(got, e.Body) {
					t.Fatalf("DecodeBody(AppendBody(%#v)) = %#v, %v", e.Body, got, err)
				}
				kinds[reflect.TypeOf(e.Body).Name()] = true
			}
		}
	}
	// Turn offers are the host's; the engine never emits them.
	offer := table.TurnOffer{Seat: 2, Options: []table.Action{{Seat: 2, Type: table.Tsumo}, {Seat: 2, Type: table.Discard, Tile: tile.RedP5, Tsumogiri: true}}}
	raw, _ := table.AppendBody(nil, offer)
	if got, err := table.DecodeBody(raw); err != nil || !reflect.DeepEqual(got, table.Body(offer)) {
		t.Fatalf("DecodeBody(AppendBody(%v)) = %v, %v", offer, got, err)
	}
	if len(kinds) < 12 {
		t.Errorf("the games show only %d body types: %v", len(kinds), kinds)
	}
	if _, err := table.AppendBody(nil, nil); !errors.Is(err, table.ErrBody) {
		t.Errorf("AppendBody(nil) = %v, want ErrBody", err)
	}
	for _, bad := range [][]byte{nil, {0}, {99}, {3, 4, 0, 0, 0}, append(raw, 1)} {
		if b, err := table.DecodeBody(bad); !errors.Is(err, table.ErrBody) {
			t.Errorf("DecodeBody(%v) = %v, %v; want ErrBody", bad, b, err)
		}
	}
}

// FuzzSnapshot: no input makes UnmarshalBinary or Restore panic; what
// Restore accepts passes Verify and encodes back to the same snapshot.
func FuzzSnapshot(f *testing.F) {
	cfg := table.Config{Rules: table.TenhouHanchan}
	acts := botGame(f, cfg.Rules, [table.NumSeats]bot.Bot{bot.NewRandom(5), bot.NewRandom(6), bot.Efficient{}, bot.Efficient{}}, 5)
	tb, _ := table.New(cfg)
	for _, a := range acts {
		if _, err := tb.Step(a); err != nil {
			f.Fatal(err)
		}
		if s, err := tb.Snapshot(); err == nil {
			raw, _ := s.MarshalBinary()
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var s table.Snapshot
		if err := s.UnmarshalBinary(raw); err != nil {
			return
		}
		tb, err := table.Restore(cfg, s)
		if err != nil {
			return
		}
		if err := tb.Verify(); err != nil {
			t.Fatalf("restored table: %v", err)
		}
		again, err := tb.Snapshot()
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("restored %+v, snapshot again %+v, %v", s, again, err)
		}
	})
}

// FuzzBody: no input makes DecodeBody panic, and what it decodes encodes
// to a body that decodes the same.
func FuzzBody(f *testing.F) {
	for _, b := range []table.Body{
		table.Drew{Seat: 1, Tile: tile.RedM5, Known: true, WallLeft: 40},
		table.Won{Seat: 2, From: 1, Hand: []tile.Tile{1, 2, 3}, Yaku: []judge.YakuHan{{Yaku: judge.Riichi, Han: 1}}},
		table.RoundEnded{Kind: table.EndExhaustive, Tenpai: [4]bool{true}, Hands: [4][]tile.Tile{{1, 2, 3}}},
		table.ClaimOffer{Seat: 3, Options: []table.Action{{Seat: 3, Type: table.Pon, Tiles: [2]tile.Tile{5, 5}}}},
	} {
		raw, _ := table.AppendBody(nil, b)
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := table.DecodeBody(raw)
		if err != nil {
			return
		}
		again, err := table.AppendBody(nil, b)
		if err != nil {
			t.Fatalf("AppendBody(%#v) = %v", b, err)
		}
		b2, err := table.DecodeBody(again)
		if err != nil || !reflect.DeepEqual(b, b2) {
			t.Fatalf("%#v encodes to a body that decodes as %#v, %v", b, b2, err)
		}
	})
}
