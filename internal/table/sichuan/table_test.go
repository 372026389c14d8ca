package sichuan

import (
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// startHand deals a stacked hand with exchange off and every seat's void
// chosen, so that the dealer is to act.
func startHand(t *testing.T, rules Rules, hands map[Seat]string, voids [NumSeats]tile.Suit) *Table {
	t.Helper()
	rules.Exchange = false
	tb, err := New(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var st Stack
	for s, h := range hands {
		for i, x := range tile.MustParse(h) {
			if err := st.Put(DealPos(int(s), i), x); err != nil {
				t.Fatal(err)
			}
		}
	}
	w, err := st.Wall(ToNext)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Step(Action{Type: Deal, Wall: &w}); err != nil {
		t.Fatal(err)
	}
	for s := range Seat(NumSeats) {
		if _, err := tb.Step(Action{Seat: s, Type: Void, Suit: voids[s]}); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// TestNoKanOnEmptyWall: with no tile left to replace it, no kan is listed
// or accepted, and a pon or kan of the last discard is not offered.
func TestNoKanOnEmptyWall(t *testing.T) {
	tb := startHand(t, Default, map[Seat]string{0: "5555m1166m12789p9s", 1: "123456789p99s68s"},
		[NumSeats]tile.Suit{tile.Sou, tile.Man, tile.Sou, tile.Pin})
	if !hasAction(tb.Legal(0), ClosedKan) {
		t.Fatalf("a closed kan should be legal with tiles left: %v", tb.Legal(0))
	}
	tb.r.next = LiveSize // the wall is empty: the dealer's fourteenth was its last chance
	if hasAction(tb.Legal(0), ClosedKan) {
		t.Errorf("Legal lists a kan with no tile left: %v", tb.Legal(0))
	}
	if _, err := tb.Step(Action{Seat: 0, Type: ClosedKan, Tile: tile.Plain(tile.M5)}); !errors.Is(err, ErrIllegal) {
		t.Errorf("closed kan on an empty wall: %v, want ErrIllegal", err)
	}
	// Seat 1 holds 99s: the last discard, 9s, offers it no pon.
	evs, err := tb.Step(Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.S9)})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if o, ok := e.Body.(ClaimOffer); ok && hasAction(o.Options, Pon) {
			t.Errorf("pon of the last discard offered: %v", e)
		}
	}
	if tb.Phase() != BetweenHands && tb.Phase() != MatchOver && tb.Phase() != ClaimWindow {
		t.Errorf("after the last discard the phase is %v", tb.Phase())
	}
}

func hasAction(as []Action, typ ActionType) bool {
	for _, a := range as {
		if a.Type == typ {
			return true
		}
	}
	return false
}

// TestRefusals: malformed and illegal actions are refused with the right
// sentinel, and change nothing.
func TestRefusals(t *testing.T) {
	tb := startHand(t, Default, map[Seat]string{0: "5555m1166m12789p9s"},
		[NumSeats]tile.Suit{tile.Sou, tile.Man, tile.Sou, tile.Pin})
	tests := []struct {
		a    Action
		want error
	}{
		{Action{Seat: 1, Type: Discard, Tile: tile.Plain(tile.M1)}, ErrNotToAct},
		{Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.S1)}, ErrIllegal},       // not held
		{Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.M1)}, ErrIllegal},       // void first: 9s
		{Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.East)}, ErrBadAction},   // no honours
		{Action{Seat: 0, Type: Discard, Tile: tile.RedOf(tile.M5)}, ErrBadAction},     // no red fives
		{Action{Seat: 0, Type: AddedKan, Tile: tile.Plain(tile.M1)}, ErrIllegal},      // no pon
		{Action{Seat: 0, Type: Tsumo}, ErrIllegal},                                    // no win
		{Action{Seat: 0, Type: Pon}, ErrPhase},                                        // no window
		{Action{Seat: 0, Type: Void, Suit: tile.Man}, ErrPhase},                       // voids are chosen
		{Action{Type: Deal, Wall: &Wall{}}, ErrPhase},                                 // a hand is on
		{Action{Seat: 0, Type: ClosedKan, Tile: tile.Plain(tile.M1)}, ErrIllegal},     // two only
		{Action{Seat: 0, Type: ActionType(99), Tile: tile.Plain(tile.M1)}, ErrPhase},  // no such type
		{Action{Seat: 9, Type: Discard, Tile: tile.Plain(tile.M1)}, ErrNotToAct},      // no such seat
		{Action{Seat: 0, Type: Exchange, Tiles: [3]tile.Tile{0, 1, 2}}, ErrPhase},     // exchange over
		{Action{Seat: 0, Type: OpenKan, Tile: tile.Plain(tile.M5)}, ErrPhase},         // no window
		{Action{Seat: 0, Type: Ron, Tile: tile.Plain(tile.M5)}, ErrPhase},             // no window
		{Action{Seat: 0, Type: Pass}, ErrPhase},                                       // no window
		{Action{Seat: 0, Type: Discard, Tile: tile.Tile(200)}, ErrBadAction},          // no tile
		{Action{Seat: 0, Type: ClosedKan, Tile: tile.Plain(tile.East)}, ErrBadAction}, // no honours
		{Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.S9)}, nil},              // the void tile
		{Action{Seat: 0, Type: Discard, Tile: tile.Plain(tile.M1)}, ErrNotToAct},      // not its turn now
	}
	for _, tt := range tests {
		before := cloneTable(tb)
		_, err := tb.Step(tt.a)
		if tt.want == nil {
			if err != nil {
				t.Fatalf("Step(%v) = %v", tt.a, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("Step(%v) = %v, want %v", tt.a, err, tt.want)
		}
		var ae *ActionError
		if !errors.As(err, &ae) || ae.Action != tt.a {
			t.Errorf("Step(%v): error %v is not an ActionError for it", tt.a, err)
		}
		if after := cloneTable(tb); !equalTables(&before, &after) {
			t.Errorf("refused %v changed the table", tt.a)
		}
	}
}

// TestConfig: bad options are refused.
func TestConfig(t *testing.T) {
	for _, r := range []Rules{{FanCap: 2, Hands: 8}, {FanCap: 6, Hands: 8}, {FanCap: 3}, {FanCap: 3, Hands: MaxHands + 1}} {
		if _, err := New(Config{Rules: r}); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", r, err)
		}
	}
	for _, r := range []Rules{Default, BloodyRiver} {
		if _, err := New(Config{Rules: r}); err != nil {
			t.Errorf("New(%s) = %v", r.Name, err)
		}
	}
}

// TestWallGolden pins the shuffle: the same seed gives the same wall and
// direction forever.
func TestWallGolden(t *testing.T) {
	w := NewWall([32]byte{1, 2, 3})
	got := tile.FormatInOrder(w.Tiles[:20]) + " " + w.Direction.String()
	const want = "5s8p4m2p2s29p1m6p8m72s62m8s37p2s5m6p across"
	if got != want {
		t.Errorf("NewWall(1,2,3) starts %s, want %s", got, want)
	}
	if err := w.Check(); err != nil {
		t.Error(err)
	}
	w.Tiles[0], w.Tiles[1] = w.Tiles[1], w.Tiles[0]
	if w.Tiles[0] != w.Tiles[1] && w.Check() == nil {
		t.Error("a wall that is not its seed's shuffle passes Check")
	}
}
