package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
)

// seededToy is the toy game that also wants its table's id and entropy.
type seededToy struct {
	toy
	calls *[]string // every Seed call of every game of the table
}

func (g *seededToy) Seed(id string, entropy [][]byte) {
	*g.calls = append(*g.calls, fmt.Sprintf("%s %q", id, entropy))
}

// TestSeedAndInspect: the host seeds the game when the table starts and
// reseeds every game it rebuilds; Inspect reads the game in the table's
// goroutine.
func TestSeedAndInspect(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	var calls []string
	newGame := func() (host.Game[toyAction, toyView, string], error) {
		return &seededToy{toy: toy{rounds: 1, claimer: -1}, calls: &calls}, nil
	}
	info, _, err := f.h.Create(context.Background(), defaultSettings, nil, newGame)
	if err != nil {
		t.Fatal(err)
	}
	f.id = info.ID
	inspect := func() []string {
		var out []string
		err := f.h.Inspect(context.Background(), f.id, func(g host.Game[toyAction, toyView, string]) error {
			out = slices.Clone(*g.(*seededToy).calls)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	f.join(3)
	if got := inspect(); len(got) != 0 {
		t.Fatalf("Seed called before the start: %v", got)
	}
	// The fourth seat starts the table.
	if _, f.tokens[3], err = f.h.Join(context.Background(), f.id, "p3", []byte{3}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s %q", f.id, [][]byte{{0}, {1}, {2}, {3}})
	if got := inspect(); !slices.Equal(got, []string{want}) {
		t.Fatalf("Seed calls after the start = %v, want [%s]", got, want)
	}
	// A refused write rebuilds the game: the new game is seeded too.
	f.store.SetFail(func() error { return errors.New("disk full") })
	if _, err := f.act(0, "a", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 3}); !errors.Is(err, host.ErrUnavailable) {
		t.Fatalf("Act with a failing store = %v, want ErrUnavailable", err)
	}
	f.store.SetFail(nil)
	if got := inspect(); !slices.Equal(got, []string{want, want}) {
		t.Fatalf("Seed calls after a rebuild = %v, want [%s %s]", got, want, want)
	}
	if err := f.h.Inspect(context.Background(), "nope", func(host.Game[toyAction, toyView, string]) error { return nil }); !errors.Is(err, host.ErrNotFound) {
		t.Errorf("Inspect(unknown table) = %v, want ErrNotFound", err)
	}
	boom := errors.New("boom")
	if err := f.h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Inspect error = %v, want f's", err)
	}
}
