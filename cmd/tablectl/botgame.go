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
	"sync/atomic"
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
	// With --mux and --think, the table's own goroutine plays its four
	// seats (one table, one goroutine): their sessions signal one wake.
	together := opts.Mux != nil && m.think != nil
	if together {
		opts.Wake = make(chan struct{}, 1)
	}
	var players []*seatPlayer[A, V, B, T]
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
			p := &seatPlayer[A, V, B, T]{ctx: run, cut: cut, o: o, rng: rng, s: sess, b: r.newBot(o, i, g, s), tally: r.tally, m: m, who: who, seat: s}
			if together {
				p.wake = opts.Wake
				players = append(players, p)
				return
			}
			res := p.play()
			ended[s] = res.ended
			if s == 0 {
				r0 = res
			}
		}
		if s == len(seats)-1 || together {
			// The table's own goroutine plays its last seat rather than
			// wait for the others idle: a goroutine (and its stack) less
			// a table. Together, it only makes the four players here.
			play()
		} else {
			wg.Go(play)
		}
	}
	if together {
		for _, p := range playTogether(run, opts.Wake, players) {
			ended[p.seat] = p.r.ended
			if p.seat == 0 {
				r0 = p.r
			}
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

// seatPlayer is a bot following its seat to the end of its game, acting
// whenever the seat has something to do (after a delay drawn from --think
// with rng), and recording latencies and errors. Once cut reports the
// time of duration mode up, a failure is no error. Every refused action
// counts as an error, a stale one too (sent on a view that moved on while
// the bot thought: with --think longer than the table's timers allow).
//
// The goroutine reading the seat's session only decides: a decision is
// prepared at once (numbered with the view it answers) and sent when its
// think time is up by m.think, the one scheduler of all the seats, on one
// of its workers, so a thinking seat holds no goroutine, no stack and no
// timer of its own beyond the one reading its session.
type seatPlayer[A, V, B any, T client.GameTracker[V, B]] struct {
	ctx   context.Context
	cut   func() bool
	o     botsOptions
	rng   *rand.Rand
	s     *client.GameSession[A, V, B, T]
	b     decider[A, V]
	tally func(*seatResult, B)
	m     *loadMetrics
	who   string
	seat  int

	r        seatResult
	sending  sync.WaitGroup  // the action on its way, if any
	pending  client.Prepared // the action thinking sends, with
	thinking *later          // its send, reused from action to action
	// With the table's seats played together (wake not nil): busy while
	// an action is on its way, when the seat's next decision is deferred
	// until its answer, which signals wake, so that the table's goroutine
	// never waits for one seat.
	wake     chan struct{}
	busy     atomic.Bool
	deferred bool
}

// play plays the seat on a goroutine of its own, waiting in Next.
func (p *seatPlayer[A, V, B, T]) play() seatResult {
	defer p.finish()
	for {
		u, err := p.s.Next(p.ctx)
		if p.update(u, err) {
			return p.r
		}
	}
}

// playTogether plays the seats of one table on the calling goroutine:
// their sessions share wake, and each is read with TryNext when it is
// signalled. It returns once every seat's game is over for it.
func playTogether[A, V, B any, T client.GameTracker[V, B]](ctx context.Context, wake chan struct{}, seats []*seatPlayer[A, V, B, T]) []*seatPlayer[A, V, B, T] {
	playing := slices.Clone(seats)
	defer func() {
		for _, p := range playing {
			p.finish()
		}
	}()
	for len(playing) > 0 {
		playing = slices.DeleteFunc(playing, func(p *seatPlayer[A, V, B, T]) bool {
			for {
				u, ok, err := p.s.TryNext(p.ctx)
				if err == nil && !ok {
					break
				}
				if p.update(u, err) {
					p.finish()
					return true
				}
			}
			if p.deferred && !p.busy.Load() {
				p.deferred = false
				p.decide()
			}
			return false
		})
		if len(playing) == 0 {
			break
		}
		select {
		case <-wake:
		case <-ctx.Done():
			// Every session's TryNext reports the end.
		}
	}
	return seats
}

// finish waits for the action on its way, counts the session's failures
// and closes it.
func (p *seatPlayer[A, V, B, T]) finish() {
	defer p.s.Close()
	if p.thinking != nil && p.thinking.stop() {
		p.sending.Done() // never sent
	}
	p.sending.Wait()
	st := p.s.Stats()
	// Every stream retry is a stream RPC that failed (dropped, or
	// refused when opened), every act retry an Act that did; faults
	// are the inconsistencies.
	if n := st.StreamRetries + st.ActRetries + st.Faults; n > 0 {
		p.m.fail(n, "%s: %d failed streams (%d reconnections), %d act retries, %d inconsistencies", p.who, st.StreamRetries, st.Reconnects, st.ActRetries, st.Faults)
	}
}

// update takes what the session returned; it reports whether the seat is
// done (its game over, or the session failed).
func (p *seatPlayer[A, V, B, T]) update(u client.GameUpdate[B], err error) bool {
	if errors.Is(err, io.EOF) {
		p.r.ended = true
		return true
	}
	if err != nil {
		if !p.cut() {
			p.m.fail(1, "%s: %v", p.who, err)
		}
		return true
	}
	if u.Live {
		p.m.event(u.Received.Sub(u.Event.Time))
	}
	p.tally(&p.r, u.Event.Body)
	p.decide()
	return false
}

// decide acts if the seat has something to do.
func (p *seatPlayer[A, V, B, T]) decide() {
	a, ok := p.b.Act(p.s.View())
	if !ok {
		return
	}
	if p.wake != nil && p.busy.Load() {
		p.deferred = true
		return
	}
	// One action at a time: an offer that comes while the last action is
	// on its way (a timer of the table answered for the seat) waits for
	// it.
	p.sending.Wait()
	prep, err := p.s.Prepare(a)
	if err != nil {
		p.m.fail(1, "%s: %v", p.who, err)
		return
	}
	if p.o.think.max == 0 {
		p.send(prep)
		return
	}
	if p.thinking == nil {
		p.thinking = &later{f: func() {
			p.send(p.pending)
			p.sending.Done()
			if p.wake != nil {
				p.busy.Store(false)
				select {
				case p.wake <- struct{}{}:
				default:
				}
			}
		}}
	}
	p.pending = prep
	p.busy.Store(true)
	p.sending.Add(1)
	p.m.think.at(p.thinking, p.o.think.draw(p.rng))
}

// send sends a prepared action and records its round trip.
func (p *seatPlayer[A, V, B, T]) send(prep client.Prepared) {
	if p.ctx.Err() != nil {
		return // the end came while thinking: Next reports it
	}
	t0 := time.Now()
	_, err := p.s.Send(p.ctx, prep)
	d := time.Since(t0)
	if err != nil {
		if !p.cut() {
			p.m.fail(1, "%s: %v", p.who, err)
		}
		return
	}
	p.m.act(d)
}
