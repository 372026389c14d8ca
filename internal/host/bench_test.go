package host_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// BenchmarkAct measures one accepted action through a table's goroutine
// (authentication, dedupe, seq check, the game, the store, the log, four
// streams following), plus the refused tries of the seats before the one
// whose move it is (1.5 on average), each after a SeatSeq.
func BenchmarkAct(b *testing.B) { benchAct(b, host.Settings{Seats: 4}) }

// BenchmarkActTimed is BenchmarkAct at a table with turn and claim timers
// (an hour: they never run out): every action arms the timer for the next
// wait.
func BenchmarkActTimed(b *testing.B) {
	benchAct(b, host.Settings{Seats: 4, TurnTime: time.Hour, ClaimTime: time.Hour})
}

func benchAct(b *testing.B, s host.Settings) {
	h := host.New(host.Config[toyAction, toyView, string]{})
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info, _, err := h.Create(ctx, s, nil, newToy(1<<30))
	if err != nil {
		b.Fatal(err)
	}
	var tokens [4]string
	for i := range tokens {
		_, tokens[i], _ = h.Join(ctx, info.ID, "p", nil)
	}
	for i := range tokens {
		go h.Follow(ctx, info.ID, tokens[i], 0, func(host.Item[toyView, string]) error { return nil })
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		// Every seat plays 1 on its turn and the seat with the offer
		// passes: try them in turn.
		acted := false
		for s := range 4 {
			last, _ := h.SeatSeq(ctx, info.ID, tokens[s])
			for _, a := range []toyAction{{Seat: s, Kind: "play", N: 1}, {Seat: s, Kind: "pass"}} {
				if _, err := h.Act(ctx, info.ID, host.Request[toyAction]{Token: tokens[s], LastSeq: last, RequestID: fmt.Sprint(i, s, a.Kind), Action: a}); err == nil {
					acted = true
					break
				}
			}
			if acted {
				break
			}
		}
		if !acted {
			b.Fatal("nobody could act")
		}
	}
}

// BenchmarkList is one page of 50 tables out of 10,000 held, 100 of them
// playing: newest first (a binary search, then 50 tables looked at) and
// only the playing ones (about 5,000 tables looked at for a page from the
// newest: the filter's cost is a scan of the tables it skips).
func BenchmarkList(b *testing.B) {
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk})
	defer h.Close()
	ctx := context.Background()
	for i := range 10_000 {
		clk.Advance(time.Millisecond)
		info, owner, err := h.Create(ctx, host.Settings{Seats: 4, FillWithBots: true}, nil, newToy(1))
		if err != nil {
			b.Fatal(err)
		}
		if i%100 == 0 {
			// A player who never acts keeps the table playing.
			if _, _, err := h.Join(ctx, info.ID, "p", nil); err != nil {
				b.Fatal(err)
			}
			if err := h.Start(ctx, info.ID, owner); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, q := range []struct {
		name string
		q    host.ListQuery
	}{
		{"newest", host.ListQuery{NewestFirst: true, Limit: 50}},
		{"playing", host.ListQuery{NewestFirst: true, Limit: 50, States: []host.State{host.Playing}}},
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if page, more := h.List(q.q); len(page) != 50 || !more {
					b.Fatalf("%d tables, more %v", len(page), more)
				}
			}
		})
	}
}
