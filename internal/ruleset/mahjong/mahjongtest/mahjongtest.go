// Package mahjongtest plays hosted games through the host's interface
// (host.Game) as the host would, with no host: for the tests and
// benchmarks of the rule sets' adapters.
package mahjongtest

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
)

// Play plays g to its end: the system deals between rounds, and the first
// seat the game waits for plays its Default. After each action, step (nil:
// none) sees the action and what the host would publish, and returns the
// game to play on with (g itself, or a game restored from its snapshot).
// Play fails tb after max actions, and returns the game it ended with and
// how many actions it took.
func Play[A comparable, V, B any](tb testing.TB, g host.Game[A, V, B], max int, step func(a A, outs []host.Out[B]) host.Game[A, V, B]) (host.Game[A, V, B], int) {
	tb.Helper()
	n := 0
	for !g.Over() {
		if n++; n > max {
			tb.Fatalf("the game does not end in %d actions", max)
		}
		seat := host.System
		if p := g.Pending(); p.Kind != host.WaitSystem {
			seat = p.Seats[0]
		}
		a := g.Default(seat)
		outs, err := g.Apply(a)
		if err != nil {
			tb.Fatalf("%v: %v", a, err)
		}
		if step != nil {
			g = step(a, outs)
		}
	}
	return g, n
}

// Restored snapshots g, which is at a round boundary, restores the
// snapshot into a new game that newGame makes and seeds as g was, and
// fails tb unless the two show seat 1 the same view and, for games that
// count them, have dealt as many rounds.
func Restored[A comparable, V, B any](tb testing.TB, g host.Game[A, V, B], newGame host.NewGame[A, V, B], tableID string, entropy [][]byte) host.Game[A, V, B] {
	tb.Helper()
	snap, err := g.(host.Snapshotter).AppendSnapshot(nil)
	if err != nil {
		tb.Fatal(err)
	}
	g2, err := newGame()
	if err != nil {
		tb.Fatal(err)
	}
	g2.(host.Seeder).Seed(tableID, entropy)
	if err := g2.(host.Snapshotter).Restore(snap); err != nil {
		tb.Fatal(err)
	}
	if !reflect.DeepEqual(g2.View(1), g.View(1)) {
		tb.Fatalf("the restored game shows seat 1 another view")
	}
	type counter interface{ Rounds() int }
	if c, ok := g.(counter); ok && c.Rounds() != g2.(counter).Rounds() {
		tb.Fatalf("the restored game dealt %d rounds, the game %d", g2.(counter).Rounds(), c.Rounds())
	}
	return g2
}

// Dwells counts the events marked for the claim dwell.
func Dwells[B any](outs []host.Out[B]) int {
	n := 0
	for _, o := range outs {
		if o.Dwell {
			n++
		}
	}
	return n
}

// Bench plays one whole game per op of b, seeded: the adapter's hot path
// (Pending, Default, Apply), with the engine's and the recorder's work.
// It reports the actions of a game and the allocations per action.
func Bench[A comparable, V, B any](b *testing.B, newGame host.NewGame[A, V, B]) {
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	actions := 0
	for b.Loop() {
		g, err := newGame()
		if err != nil {
			b.Fatal(err)
		}
		g.(host.Seeder).Seed("bench", [][]byte{[]byte("e0"), nil, nil, []byte("e3")})
		_, n := Play(b, g, 1<<20, nil)
		actions += n
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(actions)/float64(b.N), "actions/op")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(actions), "allocs/action")
}

// Codec is a rule set's action codec (the actions' half of store.Codec).
type Codec[A any] interface {
	AppendAction(dst []byte, a A) []byte
	DecodeAction(b []byte) (A, error)
}

// CheckCodec checks that c decodes every action as it was, that none
// decodes cut by a byte, and that no encoding of bad decodes.
func CheckCodec[A any](t *testing.T, c Codec[A], actions []A, bad [][]byte) {
	t.Helper()
	for _, a := range actions {
		b := c.AppendAction(nil, a)
		got, err := c.DecodeAction(b)
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Errorf("DecodeAction(AppendAction(%+v)) = %+v, %v", a, got, err)
		}
		if got, err := c.DecodeAction(b[:len(b)-1]); err == nil {
			t.Errorf("DecodeAction of %+v cut by a byte = %+v, want an error", a, got)
		}
	}
	for _, b := range bad {
		if a, err := c.DecodeAction(b); err == nil {
			t.Errorf("DecodeAction(%x) = %+v, want an error", b, a)
		}
	}
}

// CheckClassify checks that classify gives the engine's refusals the
// reason the server maps (see server's TestToStatus), with the engine's
// error kept in the chain: errs are the engine's sentinels and illegal its
// error of an illegal action; move is an action of a turn, claim one that
// answers a claim window.
func CheckClassify[A any](t *testing.T, classify func(A, error) error, move, claim A, errs mahjong.Errors, illegal error) {
	t.Helper()
	for _, tc := range []struct {
		a    A
		err  error
		want error
	}{
		{move, errors.New("engine says no"), ruleset.ErrIllegal},
		{move, fmt.Errorf("x: %w", illegal), ruleset.ErrIllegal},
		{move, fmt.Errorf("x: %w", errs.BadAction), ruleset.ErrMalformed},
		{move, errs.NotToAct, ruleset.ErrNotYourTurn},
		{move, errs.Phase, ruleset.ErrNotYourTurn},
		{claim, errs.NotToAct, ruleset.ErrClaimClosed},
		{claim, errs.Phase, ruleset.ErrClaimClosed},
		{move, errs.Over, host.ErrGameOver},
	} {
		got := classify(tc.a, tc.err)
		if !errors.Is(got, tc.want) || !errors.Is(got, tc.err) {
			t.Errorf("classify(%v, %v) = %v, want it to wrap %v and the engine's error", tc.a, tc.err, got, tc.want)
		}
	}
}

// NewGame makes the games of a table of settings set with the rule set's
// parts p, seeded with a fixed server seed.
func NewGame[A comparable, V, B any](tb testing.TB, p ruleset.Parts[A, V, B], set *pb.TableSettings) host.NewGame[A, V, B] {
	tb.Helper()
	raw, err := proto.Marshal(set)
	if err != nil {
		tb.Fatal(err)
	}
	newGame, err := p.Game(ruleset.Meta{Settings: raw, Seed: [32]byte{4, 2}})
	if err != nil {
		tb.Fatal(err)
	}
	return newGame
}

// Settings is a case of a rule set's Check: the settings in, and the
// completed settings it makes of them or the error it wraps. An alias of
// a plain struct, so that a table of cases may list its fields in order.
type Settings = struct {
	Name     string
	In, Want *pb.TableSettings
	Err      error
}

// CheckSettings runs check on each case's settings: it must fail with the
// case's error, or complete them into the case's settings, which a second
// check leaves as they are.
func CheckSettings(t *testing.T, check func(*pb.TableSettings) error, cases []Settings) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			got := proto.Clone(tc.In).(*pb.TableSettings)
			err := check(got)
			if !errors.Is(err, tc.Err) || (err != nil) != (tc.Err != nil) {
				t.Fatalf("Check = %v, want %v", err, tc.Err)
			}
			if err != nil {
				return
			}
			if !proto.Equal(got, tc.Want) {
				t.Fatalf("Check made %v, want %v", got, tc.Want)
			}
			again := proto.Clone(got).(*pb.TableSettings)
			if err := check(again); err != nil || !proto.Equal(again, got) {
				t.Fatalf("Check of completed settings = %v, %v; want them unchanged", again, err)
			}
		})
	}
}
