package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/client"
	cmcr "github.com/mahjong-authority/authority/internal/client/mcr"
	"github.com/mahjong-authority/authority/internal/table"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
)

// playMCRGame is playGame for Chinese Official tables: a new table, four
// joins, four MCR bots following their seats to the end.
func playMCRGame(ctx context.Context, o botsOptions, i, g int, clients *[table.NumSeats]*client.Client, opts client.Options, m *loadMetrics) {
	start := time.Now()
	tb, _, err := clients[0].CreateTable(ctx, o.settings(i, g))
	if err != nil {
		m.fail(1, "table %d game %d: %v", i, g, err)
		return
	}
	id := tb.GetTableId()
	var seats [table.NumSeats]client.Seat
	for s, c := range clients {
		entropy := derive(o, fmt.Sprint("entropy ", s), i, g)
		if seats[s], err = c.JoinTable(ctx, id, fmt.Sprintf("bot-%d-%d", i, s), entropy[:]); err != nil {
			m.fail(1, "table %d game %d: %v", i, g, err)
			return
		}
	}
	var wg sync.WaitGroup
	var ended [table.NumSeats]bool
	var final tmcr.GameEnded
	hands := 0
	for s, st := range seats {
		wg.Go(func() {
			r := playMCRSeat(ctx, cmcr.Follow(clients[st.Seat], st, opts), m, fmt.Sprintf("table %d game %d seat %d", i, g, st.Seat))
			ended[s] = r.ended
			if s == 0 {
				hands, final = r.hands, r.final
			}
		})
	}
	wg.Wait()
	m.mu.Lock()
	m.rounds += hands
	if !slices.Contains(ended[:], false) {
		m.games++
		fmt.Fprintf(m.log, "table %d game %d/%d ended in %.1fs: %d hands, scores %v\n", i, g+1, o.games, time.Since(start).Seconds(), hands, final.Scores)
	}
	m.mu.Unlock()
	if slices.Contains(ended[:], false) {
		m.fail(1, "table %d game %d (%s) did not end for every seat", i, g, id)
	}
}

type mcrSeatResult struct {
	ended bool
	hands int
	final tmcr.GameEnded
}

// playMCRSeat is playSeat with the MCR bot.
func playMCRSeat(ctx context.Context, s *cmcr.Session, m *loadMetrics, who string) mcrSeatResult {
	defer s.Close()
	var r mcrSeatResult
	defer func() {
		st := s.Stats()
		if n := st.StreamRetries + st.ActRetries + st.Faults; n > 0 {
			m.fail(n, "%s: %d failed streams (%d reconnections), %d act retries, %d inconsistencies", who, st.StreamRetries, st.Reconnects, st.ActRetries, st.Faults)
		}
	}()
	var b bmcr.Player
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return r
		}
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			return r
		}
		if u.Live {
			m.event(u.Received.Sub(u.Event.Time))
		}
		switch e := u.Event.Body.(type) {
		case tmcr.HandEnded:
			r.hands++
		case tmcr.GameEnded:
			r.final = e
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		t0 := time.Now()
		_, err = s.Act(ctx, a)
		d := time.Since(t0)
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			continue
		}
		m.act(d)
	}
}
