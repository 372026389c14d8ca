package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// botRules is what `bots` needs of a rule set to play its games: how a
// seat follows its table, the bot that decides for it, and what a seat
// counts of the events it sees. Everything else (tables, joins, think
// times, --for, errors and latencies) is the same for every rule set, in
// play and playSeat.
type botRules[A, V, B any, T client.GameTracker[V, B]] struct {
	// follow opens the session of seat st on table tb.
	follow func(c *client.Client, tb *pb.Table, st client.Seat, opts client.Options) (*client.GameSession[A, V, B, T], error)
	// newBot is the bot of seat s of table slot i's game g.
	newBot func(o botsOptions, i, g, s int) decider[A, V]
	// tally counts an event's body into r: rounds ended, final scores.
	tally func(r *seatResult, b B)
	// rounds and scores name what the end of game line counts.
	rounds, scores string
}

// decider is a bot: the action it takes in a view, if any.
type decider[A, V any] interface {
	Act(v *V) (A, bool)
}

// seatResult is what one bot saw of its game.
type seatResult struct {
	ended  bool
	rounds int
	final  [table.NumSeats]int
}

// gamePlayer is the play function of o.rules' games.
type gamePlayer func(ctx, run context.Context, o botsOptions, i, g int, clients *[table.NumSeats]*client.Client, opts client.Options, m *loadMetrics)

// playerOf returns the play function of a rule set of --rules.
func playerOf(rules string) gamePlayer {
	switch rules {
	case "sichuan":
		return sichuanBots.play
	case "mcr":
		return mcrBots.play
	case "classical":
		return classicalBots.play
	}
	return riichiBots.play
}

// play plays one game of table slot i: a new table, four joins (the
// fourth starts it), four bots following their seats to the end. run
// ends the game in duration mode: a game it cuts is counted as cut, not
// failed.
func (r botRules[A, V, B, T]) play(ctx, run context.Context, o botsOptions, i, g int, clients *[table.NumSeats]*client.Client, opts client.Options, m *loadMetrics) {
	start := time.Now()
	// A call can fail on the deadline before run's timer has fired, so
	// the clock decides.
	end, _ := run.Deadline()
	cut := func() bool {
		return o.duration > 0 && ctx.Err() == nil && (run.Err() != nil || !time.Now().Before(end))
	}
	failOrCut := func(format string, args ...any) {
		if cut() {
			m.mu.Lock()
			m.cut++
			m.mu.Unlock()
			return
		}
		m.fail(1, format, args...)
	}
	tb, _, err := clients[0].CreateTable(run, o.settings(i, g))
	if err != nil {
		failOrCut("table %d game %d: %v", i, g, err)
		return
	}
	id := tb.GetTableId()
	var seats [table.NumSeats]client.Seat
	for s, c := range clients {
		entropy := derive(o, fmt.Sprint("entropy ", s), i, g)
		if seats[s], err = c.JoinTable(run, id, fmt.Sprintf("bot-%d-%d", i, s), entropy[:]); err != nil {
			failOrCut("table %d game %d: %v", i, g, err)
			return
		}
	}
	var wg sync.WaitGroup
	var ended [table.NumSeats]bool
	var r0 seatResult
	for s, st := range seats {
		play := func() {
			who := fmt.Sprintf("table %d game %d seat %d", i, g, st.Seat)
			sess, err := r.follow(clients[st.Seat], tb, st, opts)
			if err != nil {
				m.fail(1, "%s: %v", who, err)
				return
			}
			think := derive(o, fmt.Sprint("think ", s), i, g)
			rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(think[:8]), binary.LittleEndian.Uint64(think[8:16])))
			res := playSeat(run, cut, o, rng, sess, r.newBot(o, i, g, s), r.tally, m, who)
			ended[s] = res.ended
			if s == 0 {
				r0 = res
			}
		}
		if s == len(seats)-1 {
			// The table's own goroutine plays its last seat rather than
			// wait for the others idle: a goroutine (and its stack) less
			// a table.
			play()
		} else {
			wg.Go(play)
		}
	}
	wg.Wait()
	m.mu.Lock()
	m.rounds += r0.rounds
	if !slices.Contains(ended[:], false) {
		m.games++
		fmt.Fprintf(m.log, "table %d game %d/%d ended in %.1fs: %d %s, %s %v\n", i, g+1, o.games, time.Since(start).Seconds(), r0.rounds, r.rounds, r.scores, r0.final)
	}
	m.mu.Unlock()
	if slices.Contains(ended[:], false) {
		failOrCut("table %d game %d (%s) did not end for every seat", i, g, id)
	}
}

// playSeat follows a seat to the end of its game, acting whenever the
// seat has something to do (after a delay drawn from --think with rng),
// and records latencies and errors. Once cut reports the time of
// duration mode up, a failure is no error. Every refused action counts
// as an error, a stale one too (sent on a view that moved on while the
// bot thought: with --think longer than the table's timers allow).
//
// The seat's goroutine only reads its stream and decides: a decision is
// prepared at once (numbered with the view it answers) and sent when its
// think time is up by a timer (time.AfterFunc), on one of m.senders, so a
// thinking seat holds no goroutine and no stack of its own beyond the one
// reading its stream.
func playSeat[A, V, B any, T client.GameTracker[V, B]](ctx context.Context, cut func() bool, o botsOptions, rng *rand.Rand, s *client.GameSession[A, V, B, T], b decider[A, V], tally func(*seatResult, B), m *loadMetrics, who string) seatResult {
	defer s.Close()
	var r seatResult
	var sending sync.WaitGroup // the action on its way, if any
	var timer *time.Timer
	defer func() {
		if timer != nil && timer.Stop() {
			sending.Done() // never sent
		}
		sending.Wait()
		st := s.Stats()
		// Every stream retry is a stream RPC that failed (dropped, or
		// refused when opened), every act retry an Act that did; faults
		// are the inconsistencies.
		if n := st.StreamRetries + st.ActRetries + st.Faults; n > 0 {
			m.fail(n, "%s: %d failed streams (%d reconnections), %d act retries, %d inconsistencies", who, st.StreamRetries, st.Reconnects, st.ActRetries, st.Faults)
		}
	}()
	send := func(p client.Prepared) {
		if ctx.Err() != nil {
			return // the end came while thinking: Next reports it
		}
		t0 := time.Now()
		_, err := s.Send(ctx, p)
		d := time.Since(t0)
		if err != nil {
			if !cut() {
				m.fail(1, "%s: %v", who, err)
			}
			return
		}
		m.act(d)
	}
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return r
		}
		if err != nil {
			if !cut() {
				m.fail(1, "%s: %v", who, err)
			}
			return r
		}
		if u.Live {
			m.event(u.Received.Sub(u.Event.Time))
		}
		tally(&r, u.Event.Body)
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		// One action at a time: an offer that comes while the last
		// action is on its way (a timer of the table answered for the
		// seat) waits for it.
		sending.Wait()
		p, err := s.Prepare(a)
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			continue
		}
		if o.think.max == 0 {
			send(p)
			continue
		}
		sending.Add(1)
		timer = time.AfterFunc(o.think.draw(rng), func() {
			m.senders.run(func() {
				defer sending.Done()
				send(p)
			})
		})
	}
}
