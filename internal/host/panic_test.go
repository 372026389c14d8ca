package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mahjong-authority/authority/internal/host"
)

// panicky is a toy whose Apply panics on a play of three: a rules engine
// with a bug that only some action reaches.
type panicky struct{ *toy }

func (g panicky) Apply(a toyAction) ([]host.Out[string], error) {
	if a.Kind == "play" && a.N == 3 {
		panic("toy: a bug in the rules")
	}
	return g.toy.Apply(a)
}

func newPanicky(rounds int) host.NewGame[toyAction, toyView, string] {
	return func() (host.Game[toyAction, toyView, string], error) {
		return panicky{&toy{rounds: rounds, claimer: -1}}, nil
	}
}

// joinAll takes every seat of table id and returns the tokens.
func joinAll(t *testing.T, h *toyHost, id string) [4]string {
	t.Helper()
	var toks [4]string
	for i := range toks {
		_, tok, err := h.Join(context.Background(), id, "p", nil)
		require.NoError(t, err, "join seat %d", i)
		toks[i] = tok
	}
	return toks
}

// actOn has a seat act on table id with its newest seq.
func actOn(h *toyHost, id, token string, a toyAction, rid string) error {
	last, err := h.SeatSeq(context.Background(), id, token)
	if err != nil {
		return err
	}
	_, err = h.Act(context.Background(), id, host.Request[toyAction]{Token: token, LastSeq: last, RequestID: rid, Action: a})
	return err
}

// TestPanicSetsTableAside checks that a panic inside one table's
// goroutine (here the game's Apply) sets that table aside like a table
// damaged in the store - the request, a stream open on it and every later
// request get a DamagedError, its stored log is left as it was, the panic
// is logged with its stack - while another table of the same host plays
// on to its end.
func TestPanicSetsTableAside(t *testing.T) {
	core, logs := observer.New(zapcore.ErrorLevel)
	store := host.NewMemoryStore[toyAction]()
	h := host.New(host.Config[toyAction, toyView, string]{Store: store, Log: zap.New(core)})
	defer h.Close()
	ctx := context.Background()

	bad, _, err := h.Create(ctx, defaultSettings, nil, newPanicky(1))
	require.NoError(t, err)
	good, _, err := h.Create(ctx, defaultSettings, nil, newToyOffers(1, false, nil))
	require.NoError(t, err)
	badToks, goodToks := joinAll(t, h, bad.ID), joinAll(t, h, good.ID)

	stream := make(chan error, 1)
	opened := make(chan struct{})
	go func() {
		stream <- h.Follow(ctx, bad.ID, badToks[1], 0, func(it host.Item[toyView, string]) error {
			if it.Snapshot != nil {
				close(opened)
			}
			return nil
		})
	}()
	<-opened

	logged := len(store.Entries(bad.ID))
	require.NoError(t, actOn(h, bad.ID, badToks[0], toyAction{Seat: 0, Kind: "play", N: 1}, "ok"))
	logged++
	err = actOn(h, bad.ID, badToks[1], toyAction{Seat: 1, Kind: "play", N: 3}, "boom")
	var damaged *host.DamagedError
	require.ErrorAs(t, err, &damaged, "the request whose action panicked")
	var p *host.PanicError
	require.ErrorAs(t, err, &p)
	assert.Equal(t, "toy: a bug in the rules", p.Value)
	assert.NotContains(t, err.Error(), "a bug in the rules", "the message, which clients get, quotes nothing of the panic")
	assert.ErrorIs(t, err, host.ErrCorruptLog)
	assert.ErrorIs(t, <-stream, host.ErrCorruptLog, "the open stream ends")

	_, err = h.Get(ctx, bad.ID)
	assert.ErrorIs(t, err, host.ErrCorruptLog, "Get after the panic")
	assert.ErrorIs(t, actOn(h, bad.ID, badToks[2], toyAction{Seat: 2, Kind: "play", N: 1}, "x"), host.ErrCorruptLog, "Act after the panic")
	ins, _ := h.List(host.ListQuery{})
	assert.Len(t, ins, 1, "tables listed after the panic")
	assert.Len(t, store.Entries(bad.ID), logged, "the stored log is kept as it was")

	entries := logs.FilterMessageSnippet("set aside").All()
	require.Len(t, entries, 1, "logged once")
	stack, _ := entries[0].ContextMap()["stack"].(string)
	assert.Contains(t, stack, "panicky", "the log carries the stack of the panic")

	// The other table plays on: 3+3+3+1 ends its one round and the game.
	for s, n := range []int{3, 3, 3, 1} {
		require.NoError(t, actOn(h, good.ID, goodToks[s], toyAction{Seat: s, Kind: "play", N: n}, "g"), "good table, seat %d", s)
	}
	in, err := h.Get(ctx, good.ID)
	require.NoError(t, err)
	assert.Equal(t, host.Finished, in.State, "the other table after the panic")

	// A table may be created after it too: the host is whole.
	_, _, err = h.Create(ctx, defaultSettings, nil, newToy(1))
	assert.NoError(t, err)
}

// TestPanicOnRecoverSetsTableAside checks that a game that panics while
// its stored log is replayed is set aside as damaged at recovery: the
// other tables resume and Recover succeeds.
func TestPanicOnRecoverSetsTableAside(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	h1 := host.New(host.Config[toyAction, toyView, string]{Store: store})
	ctx := context.Background()
	var ids []string
	for range 2 {
		in, _, err := h1.Create(ctx, defaultSettings, nil, newToyOffers(2, false, nil))
		require.NoError(t, err)
		toks := joinAll(t, h1, in.ID)
		require.NoError(t, actOn(h1, in.ID, toks[0], toyAction{Seat: 0, Kind: "play", N: 1 + 2*len(ids)}, "r"))
		ids = append(ids, in.ID)
	}
	h1.Close()

	// The game of the second table panics on its stored play of three.
	h2 := host.New(host.Config[toyAction, toyView, string]{Store: store})
	defer h2.Close()
	n, err := h2.Recover(ctx, func(rec host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return func() (host.Game[toyAction, toyView, string], error) {
			return panicky{&toy{rounds: 2, claimer: -1}}, nil
		}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, 1, n, "tables resumed")
	_, err = h2.Get(ctx, ids[0])
	assert.NoError(t, err)
	_, err = h2.Get(ctx, ids[1])
	var p *host.PanicError
	assert.ErrorAs(t, err, &p, "Get of the table whose replay panicked")
	assert.True(t, errors.Is(err, host.ErrCorruptLog) && strings.Contains(err.Error(), "set aside"), "err = %v", err)
	assert.NotContains(t, err.Error(), "a bug in the rules", "the message, which clients get, quotes nothing of the panic")
}
