package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// recorder follows one seat from its first event and keeps what it gets.
type recorder struct {
	mu      sync.Mutex
	seqs    []uint64
	evs     []string
	changed chan struct{} // closed and replaced on every event
	done    chan error
}

func record(ctx context.Context, h *toyHost, id, token string, after uint64) *recorder {
	r := &recorder{done: make(chan error, 1), changed: make(chan struct{})}
	go func() {
		r.done <- h.Follow(ctx, id, token, after, func(it host.Item[toyView, string]) error {
			if it.Event == nil {
				return nil
			}
			r.mu.Lock()
			r.seqs = append(r.seqs, it.Event.Seq)
			r.evs = append(r.evs, fmt.Sprintf("%d@%d:%s", it.Event.Seq, it.Event.At.UnixMilli(), describe(it)))
			close(r.changed)
			r.changed = make(chan struct{})
			r.mu.Unlock()
			return nil
		})
	}()
	return r
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.evs)
}

// waitLen waits until the recorder holds n events or more and returns
// them. It fails the test at once if the stream ends first, and after 10s
// (a broken test, not a slow machine) with what it has.
func (r *recorder) waitLen(t testing.TB, n int) []string {
	t.Helper()
	return r.waitUntil(t, fmt.Sprintf("%d events", n), func(evs []string) bool { return len(evs) >= n })
}

// waitUntil waits until ok holds for the recorded events, as waitLen.
func (r *recorder) waitUntil(t testing.TB, what string, ok func(evs []string) bool) []string {
	t.Helper()
	limit := time.NewTimer(10 * time.Second)
	defer limit.Stop()
	for {
		r.mu.Lock()
		evs, changed := slices.Clone(r.evs), r.changed
		r.mu.Unlock()
		if ok(evs) {
			return evs
		}
		select {
		case <-changed:
		case err := <-r.done:
			r.done <- err // for whoever waits for the end
			if evs := r.got(); !ok(evs) {
				t.Fatalf("want %s: the stream ended (%v) with %v", what, err, evs)
			}
		case <-limit.C:
			t.Fatalf("want %s: after 10s, %v", what, r.got())
		}
	}
}

// FuzzAct sends random, malformed and out-of-order requests to a table of
// the toy game with a claim dwell (and, when the first byte is 128 or
// more, a vote of every seat at once opening each round), moves the clock
// and makes the store fail now and then: nothing may panic, a refused request must leave the game,
// the log and the store as they were, every seat's numbers run 1, 2, 3, ...
// without gaps, and a host recovered from the store must rebuild the same
// game and the same numbered events for every seat, from its latest
// snapshot (the toy takes one after each round) and the entries after it.
func FuzzAct(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 0, 1, 3, 1, 2, 3, 0, 0})
	f.Add([]byte{5, 5, 5, 5, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2})
	f.Add([]byte{0, 5, 2, 200, 6, 1, 0, 0, 2, 10, 0, 0, 6, 2, 0, 0, 1, 5, 2, 0, 7, 0, 0, 0, 0, 5, 2, 0})
	// With votes: seats 0 to 3 vote, each with its newest seq, then seat 0
	// plays and seat 2 passes its offer.
	f.Add([]byte{130, 25, 2, 0, 1, 26, 2, 0, 2, 27, 2, 0, 3, 28, 2, 0, 0, 0, 3, 0, 2, 7, 0, 0})
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, ops []byte) {
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	store := host.NewMemoryStore[toyAction]()
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: store, Codec: toyCodec{}})
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	set := host.Settings{Seats: 4, TurnTime: 10 * time.Second, ClaimTime: 3 * time.Second, ClaimDwell: time.Second}
	votes := len(ops) > 0 && ops[0] >= 128
	var g *toy
	info, _, err := h.Create(ctx, set, nil, newToyWith(2, true, votes, &g))
	if err != nil {
		t.Fatal(err)
	}
	var tokens [4]string
	var recs [4]*recorder
	for i := range tokens {
		_, tokens[i], _ = h.Join(ctx, info.ID, "p", nil)
		recs[i] = record(ctx, h, info.ID, tokens[i], 1) // after its own join notice
	}
	// barrier waits until the table has run everything posted to it.
	barrier := func() { _, _ = h.Seat(ctx, info.ID, tokens[0]) }
	kinds := []string{"play", "pass", "claim", "deal", "", "vote"}
	last := [4]uint64{}
	for i := 0; i+3 < len(ops); i += 4 {
		switch op := ops[i] % 8; op {
		case 6:
			clk.Advance(time.Duration(ops[i+1]%8) * 500 * time.Millisecond)
			barrier()
			continue
		case 7:
			if ops[i+1]%2 == 0 {
				store.SetFail(func() error { return errors.New("disk full") })
			} else {
				store.SetFail(nil)
			}
			continue
		}
		barrier()
		before, _ := h.Get(context.Background(), info.ID)
		game, entries := *g, len(store.Entries(info.ID))
		seat := int(ops[i] % 5) // 4 (or 5): a bad token
		tok := "bogus"
		if seat < 4 {
			tok = tokens[seat]
			recs[seat].mu.Lock()
			if n := len(recs[seat].seqs); n > 0 {
				last[seat] = recs[seat].seqs[n-1]
			}
			recs[seat].mu.Unlock()
		}
		a := toyAction{Seat: int(ops[i+1] % 5), Kind: kinds[int(ops[i+1]/5)%len(kinds)], N: int(ops[i+2]%5) - 1}
		var lastSeq uint64
		if seat < 4 {
			lastSeq = last[seat] - min(last[seat], uint64(ops[i+3]%3)) + uint64(ops[i+3]/128)
		}
		_, err := h.Act(ctx, info.ID, host.Request[toyAction]{Token: tok, LastSeq: lastSeq, RequestID: fmt.Sprint(ops[i+3] % 8), Action: a})
		after, _ := h.Get(context.Background(), info.ID)
		if after.LastSeq < before.LastSeq {
			t.Fatalf("log went back from %d to %d", before.LastSeq, after.LastSeq)
		}
		if err != nil && !errors.Is(err, host.ErrGameOver) {
			if after.LastSeq != before.LastSeq {
				t.Fatalf("refused %+v (%v) moved the log from %d to %d", a, err, before.LastSeq, after.LastSeq)
			}
			if *g != game {
				t.Fatalf("refused %+v (%v) changed the game from %+v to %+v", a, err, game, *g)
			}
			if n := len(store.Entries(info.ID)); n != entries {
				t.Fatalf("refused %+v (%v) stored %d entries", a, err, n-entries)
			}
		}
	}
	// Let a step the store refused be retried, so that the table waits
	// for its players again.
	store.SetFail(nil)
	clk.Advance(1500 * time.Millisecond)
	barrier()
	final := *g
	// Every seat's stream has its numbers in a row, from 2 (after the
	// join notice the recorder skipped).
	var want [4][]string
	for s, r := range recs {
		r.mu.Lock()
		for k, seq := range r.seqs {
			if seq != uint64(k)+2 {
				r.mu.Unlock()
				t.Fatalf("seat %d's event %d has seq %d, want %d: %v", s, k, seq, k+2, r.evs)
			}
		}
		r.mu.Unlock()
	}
	// Wait for the recorders to have every event, then recover a
	// second host from the store.
	for s := range recs {
		// seqAfterOpen counts the return notice of its own stream, which
		// the recorder does not see.
		n := seqAfterOpen(t, h, info.ID, tokens[s])
		want[s] = recs[s].waitLen(t, int(n)-1)
	}
	// A restart recovers the tables not finished; the clock may have run
	// the timers long enough to end the game, and a finished table stays
	// in the store, read back on demand (the lifecycle tests), not
	// recovered.
	over := false
	if in, err := h.Get(ctx, info.ID); err == nil && in.State == host.Finished {
		over = true
	}
	var g2 *toy
	h2 := host.New(host.Config[toyAction, toyView, string]{Clock: clock.NewFake(clk.Now()), Store: store, Codec: toyCodec{}})
	defer h2.Close()
	n, err := h2.Recover(ctx, func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToyWith(2, true, votes, &g2), nil
	})
	if want := map[bool]int{false: 1, true: 0}[over]; err != nil || n != want {
		t.Fatalf("Recover = %d, %v; want %d (game over: %v)", n, err, want, over)
	}
	if over {
		return
	}
	if _, err := h2.Seat(ctx, info.ID, tokens[0]); err != nil { // barrier
		t.Fatal(err)
	}
	if *g2 != final {
		t.Fatalf("recovered game %+v, want %+v", *g2, final)
	}
	for s := range recs {
		rctx, rcancel := context.WithCancel(ctx)
		r := record(rctx, h2, info.ID, tokens[s], 1)
		r.waitLen(t, len(want[s]))
		rcancel()
		<-r.done
		if got := r.got()[:len(want[s])]; !slices.Equal(got, want[s]) {
			t.Fatalf("seat %d after recovery:\n%v\nwant\n%v", s, got, want[s])
		}
	}
}

// seqAfterOpen is the seat's newest seq: what a resume past it is refused
// with tells it without a snapshot (which a claim dwell holds back).
func seqAfterOpen(t *testing.T, h *toyHost, id, token string) uint64 {
	t.Helper()
	n, err := h.SeatSeq(context.Background(), id, token)
	if err != nil {
		t.Fatalf("SeatSeq: %v", err)
	}
	return n
}
