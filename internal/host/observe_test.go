package host_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mahjong-authority/authority/internal/host"
)

// counter is an Observer that counts what it is told, by name.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) add(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[name]++
}

func (c *counter) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

func (c *counter) Acted(by host.Actor, kind string, err error) {
	result := "ok"
	switch {
	case errors.Is(err, host.ErrStaleSeq):
		result = "stale"
	case err != nil:
		result = "refused"
	}
	c.add(fmt.Sprintf("acted %v %s %s", by, kind, result))
}
func (c *counter) StreamOpened(spectator bool) { c.add(fmt.Sprint("opened ", spectator)) }
func (c *counter) StreamClosed(spectator bool) { c.add(fmt.Sprint("closed ", spectator)) }
func (c *counter) EventSent(d time.Duration) {
	if d >= 0 {
		c.add("sent")
	}
}
func (c *counter) ClaimWindow()                     { c.add("window") }
func (c *counter) Dwell(d time.Duration)            { c.add(fmt.Sprint("dwell ", d)) }
func (c *counter) GameOver()                        { c.add("game over") }
func (c *counter) Snapshot(bytes int)               { c.add("snapshot") }
func (c *counter) Recovered(n int, _ time.Duration) { c.add(fmt.Sprint("recovered ", n)) }
func (c *counter) TableSetAside(why host.SetAside)  { c.add(fmt.Sprint("set aside ", why)) }

// TestObserver plays a toy game with a claim dwell and a turn timer
// under an observer and checks what the host told it: actions by whom
// and with what result, claim windows and their dwell, streams opened and
// closed, events sent, snapshots, the end of the game, and at a restart
// the recovery and a table set aside.
func TestObserver(t *testing.T) {
	obs := &counter{}
	s := host.Settings{Seats: 4, TurnTime: 5 * time.Second, ClaimTime: 2 * time.Second, ClaimDwell: time.Second}
	f := newFixture(t, s, 2, host.Config[toyAction, toyView, string]{Observer: obs, Codec: toyCodec{},
		ActionKind: func(a toyAction) string { return a.Kind }})
	// A second table, whose game the restart below cannot make.
	other, _, err := f.h.Create(context.Background(), s, []byte("other"), newToy(1))
	require.NoError(t, err)
	f.join(4)
	seat := f.follow(0, 0)
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() {
		watched <- f.h.Watch(ctx, f.id, 0, func(*host.Event[string]) error { return nil })
	}()
	seat.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })

	stale := f.seq(0)
	_, err = f.act(0, "a", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 3})
	require.NoError(t, err)
	f.clk.Advance(time.Second) // the dwell ends: the claim window of seat 2 is open
	f.seq(0)
	_, err = f.act(0, "b", stale, toyAction{Seat: 0, Kind: "play", N: 3})
	require.Error(t, err)
	for i := 0; f.info().State != host.Finished; i++ {
		require.Less(t, i, 1000, "the game does not end on timeouts")
		f.clk.Advance(time.Second)
		f.seq(0) // a barrier: the table has run what the timers posted
	}
	seat.waitFor(t, body("over"))
	cancel()
	<-watched
	seat.stop()
	_ = seat.wait()

	assert.Equal(t, 1, obs.get("acted player play ok"))
	assert.Equal(t, 1, obs.get("acted player play stale"), "the stale request")
	assert.Equal(t, 2, obs.get("acted system deal ok"), "two rounds dealt")
	assert.Positive(t, obs.get("acted timeout play ok"), "turns played by the timer")
	assert.Positive(t, obs.get("acted timeout pass ok"), "claim windows passed by the timer")
	windows := obs.get("window")
	assert.Greater(t, windows, 4, "every play opens a window")
	assert.Equal(t, windows, obs.get("dwell 1s"), "every window held for the dwell: %v", obs.n)
	assert.Equal(t, 1, obs.get("opened false"))
	assert.Equal(t, 1, obs.get("closed false"))
	assert.Equal(t, 1, obs.get("opened true"))
	assert.Equal(t, 1, obs.get("closed true"))
	assert.Positive(t, obs.get("sent"), "events sent on the seat's stream")
	assert.Equal(t, 2, obs.get("snapshot"), "a snapshot at the end of each round")
	assert.Equal(t, 1, obs.get("game over"))

	// A restart resumes the table not finished whose game it can make and
	// sets the other aside.
	f.h.Close()
	obs2 := &counter{}
	h2 := host.New(host.Config[toyAction, toyView, string]{Store: f.store, Observer: obs2})
	defer h2.Close()
	n, err := h2.Recover(context.Background(), func(rec host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		if rec.ID == other.ID {
			return nil, errors.New("no game for this table")
		}
		return newToy(1), nil
	})
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Equal(t, 1, obs2.get("recovered 0"))
	assert.Equal(t, 1, obs2.get("set aside damaged"))
}
