package client_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// calls counts the RPCs a client starts, by method.
type calls struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *calls) add(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[method]++
}

func (c *calls) get(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

func (c *calls) options() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			c.add(method)
			return invoker(ctx, method, req, reply, cc, opts...)
		}),
		grpc.WithChainStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
			c.add(method)
			return streamer(ctx, desc, cc, method, opts...)
		}),
	}
}

const (
	methodMultiplex    = "/mahjong.authority.v1.TableService/Multiplex"
	methodStreamEvents = "/mahjong.authority.v1.TableService/StreamEvents"
	methodAct          = "/mahjong.authority.v1.TableService/Act"
)

// TestMuxPlaysWholeGames plays two tables at once, their eight seats on
// one Mux: every seat sees its whole game, consistent, and plays it to
// the end with the final scores of the same seeded tables played over
// streams of their own; everything goes over one Multiplex stream, no
// StreamEvents stream and no Act call.
func TestMuxPlaysWholeGames(t *testing.T) {
	ts := startServer(t)
	var n calls
	c := dial(t, ts.Addr, n.options()...)
	m := c.Mux(context.Background())
	defer m.Close()
	tables := [][table.NumSeats]client.Seat{newTable(t, c, 11), newTable(t, c, 12)}
	recs := make([][table.NumSeats]record, len(tables))
	errs := make([]error, len(tables)*table.NumSeats)
	var wg sync.WaitGroup
	for i, seats := range tables {
		for s, st := range seats {
			wg.Go(func() {
				sess := c.Follow(st, client.Options{Mux: m})
				defer sess.Close()
				recs[i][s], errs[i*table.NumSeats+s] = play(ctxT(t), sess, nil)
			})
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("table %d seat %d: %v", i/table.NumSeats, i%table.NumSeats, err)
		}
	}
	for _, r := range recs {
		checkRecords(t, r)
	}
	if got := [3]int{n.get(methodMultiplex), n.get(methodStreamEvents), n.get(methodAct)}; got != [3]int{1, 0, 0} {
		t.Errorf("Multiplex, StreamEvents, Act calls = %v, want one Multiplex stream and nothing else", got)
	}
	// The same seeded tables over streams of their own end alike.
	c2 := dial(t, ts.Addr)
	for i, b := range []byte{11, 12} {
		want := playAll(t, c2, newTable(t, c2, b), nil)
		if recs[i][0].final.Scores != want[0].final.Scores || recs[i][0].acts != want[0].acts {
			t.Errorf("table %d on the mux: scores %v after %d actions; on streams %v after %d", i, recs[i][0].final.Scores, recs[i][0].acts, want[0].final.Scores, want[0].acts)
		}
	}
}

// TestMuxResumesAfterDrop cuts seat 1's follow every few events: each time
// it is unfollowed and followed again after the last event it saw, on the
// same stream, and in the end it received exactly what an unbroken stream
// delivers.
func TestMuxResumesAfterDrop(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	m := c.Mux(context.Background())
	defer m.Close()
	seats := newTable(t, c, 2)
	recs := playAllOn(t, c, m, seats, func(seat table.Seat, s *client.Session, n int, _ client.Update) error {
		if seat == 1 && n%7 == 3 {
			s.Drop()
		}
		return nil
	})
	checkRecords(t, recs)
	r := recs[1]
	// Far more follows than the 16 streams the server allows a
	// connection: each drop's unfollow freed its follow.
	if r.stats.Reconnects < 32 || r.stats.Throttled != 0 {
		t.Errorf("seat 1 reconnected %d times (%d throttled), want many more than 16 and none refused", r.stats.Reconnects, r.stats.Throttled)
	}
	if want := replayed(t, c, seats[1], r.snapSeq); !slices.Equal(r.seqs, want) {
		t.Errorf("seat 1 received %d events, an unbroken stream %d:\ngot  %v\nwant %v", len(r.seqs), len(want), r.seqs, want)
	}
}

// TestMuxSurvivesServerRestart stops the server twice in mid-game: every
// seat on the Mux sees its follow drop, all resume on one new stream, and
// the game ends with nothing missed or repeated.
func TestMuxSurvivesServerRestart(t *testing.T) {
	ts := startServer(t)
	var n calls
	c := dial(t, ts.Addr, n.options()...)
	m := c.Mux(context.Background())
	defer m.Close()
	seats := newTable(t, c, 3)
	var mu sync.Mutex
	restarts := 0
	recs := playAllOn(t, c, m, seats, func(seat table.Seat, _ *client.Session, n int, _ client.Update) error {
		if seat == 2 && (n == 40 || n == 200) {
			mu.Lock()
			ts.Restart(300 * time.Millisecond)
			restarts++
			mu.Unlock()
		}
		return nil
	})
	checkRecords(t, recs)
	if restarts != 2 {
		t.Fatalf("restarted %d times, want 2", restarts)
	}
	for s, r := range recs {
		if r.stats.Reconnects < 2 {
			t.Errorf("seat %d reconnected %d times, want at least 2", s, r.stats.Reconnects)
		}
		if want := replayed(t, c, seats[s], r.snapSeq); !slices.Equal(r.seqs, want) {
			t.Errorf("seat %d received %d events, an unbroken stream %d", s, len(r.seqs), len(want))
		}
	}
	// One stream at first and one after each restart, and the attempts
	// that failed while the server was down (and the connection's own
	// backoff after it came back), 4 or 5 a restart with the default
	// backoff: a handful for the Mux, where each seat reopening on its own
	// would make as many.
	t.Logf("%d Multiplex streams opened", n.get(methodMultiplex))
	if got := n.get(methodMultiplex); got < 3 || got > 15 {
		t.Errorf("%d Multiplex streams opened over 2 restarts, want 3 and the few attempts the backoff allows", got)
	}
}

// answerLost is a Multiplex stream that loses the answer of the first
// attempt of every third action: its receive fails with UNAVAILABLE
// instead, as a connection that drops after the server applied the action.
type answerLost struct {
	grpc.ClientStream
	mu       *sync.Mutex
	attempts map[string]int    // by request id
	ids      map[uint64]string // request id of each call
	lost     *int
}

func (s *answerLost) SendMsg(m any) error {
	if call, req, ok := client.SentAct(m); ok {
		s.mu.Lock()
		s.ids[call] = req.GetRequestId()
		s.attempts[req.GetRequestId()]++
		s.mu.Unlock()
	}
	return s.ClientStream.SendMsg(m)
}

func (s *answerLost) RecvMsg(m any) error {
	if err := s.ClientStream.RecvMsg(m); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, call := range client.AnsweredCalls(m) {
		id := s.ids[call]
		if s.attempts[id] == 1 && len(s.attempts)%3 == 0 {
			*s.lost++
			return status.Error(codes.Unavailable, "answer lost")
		}
	}
	return nil
}

// TestMuxActRetriesSameRequest loses the answers of some actions with the
// whole stream (the server applied them; the client hears UNAVAILABLE):
// every seat resumes on a new stream, the lost action is sent again there
// with the same request id and gets the same answer, so nothing is applied
// twice (a second application would be refused, and fail the game) and
// the game goes on.
func TestMuxActRetriesSameRequest(t *testing.T) {
	ts := startServer(t)
	var mu sync.Mutex
	attempts, ids, lost := map[string]int{}, map[uint64]string{}, 0
	lose := func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil || method != methodMultiplex {
			return cs, err
		}
		return &answerLost{ClientStream: cs, mu: &mu, attempts: attempts, ids: ids, lost: &lost}, nil
	}
	c := dial(t, ts.Addr, grpc.WithStreamInterceptor(lose))
	m := c.Mux(context.Background())
	defer m.Close()
	seats := newTable(t, c, 4)
	recs := playAllOn(t, c, m, seats, nil)
	checkRecords(t, recs)
	mu.Lock()
	defer mu.Unlock()
	total, retries := 0, 0
	for _, r := range recs {
		total += r.acts
		retries += r.stats.ActRetries
	}
	// Every lost answer is an action sent again; so is an action that
	// was on its way when a stream broke for another's. A retry counts
	// even when its stream broke again before it was sent (another
	// seat's answer lost meanwhile), so there may be more retries than
	// sends again, never fewer.
	resent := 0
	for _, n := range attempts {
		resent += n - 1
	}
	t.Logf("%d acts, %d answers lost, %d resent", total, lost, resent)
	if lost < 10 || len(attempts) != total || retries < resent || resent < lost {
		t.Fatalf("%d acts, %d request ids, %d answers lost, %d resent, %d retries: want one id per act, every lost answer resent, a retry for each", total, len(attempts), lost, resent, retries)
	}
}

// TestMuxTryNextOneGoroutine plays a table's four seats on one goroutine:
// their sessions share a Wake and are read with TryNext whenever it is
// signalled. Every seat sees its whole game, consistent, with the final
// scores of the same seeded table played over streams of their own.
func TestMuxTryNextOneGoroutine(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	m := c.Mux(context.Background())
	defer m.Close()
	ctx := ctxT(t)
	wake := make(chan struct{}, 1)
	var sessions [table.NumSeats]*client.Session
	for s, st := range newTable(t, c, 13) {
		sessions[s] = c.Follow(st, client.Options{Mux: m, Wake: wake})
		defer sessions[s].Close()
	}
	var recs [table.NumSeats]record
	var b bot.Efficient
	for ended := 0; ended < table.NumSeats; {
		for s, sess := range sessions {
			if recs[s].gameOver {
				continue
			}
			for {
				u, ok, err := sess.TryNext(ctx)
				if errors.Is(err, io.EOF) {
					recs[s].stats, recs[s].gameOver = sess.Stats(), true
					ended++
					break
				}
				if err != nil {
					t.Fatalf("seat %d: %v", s, err)
				}
				if !ok {
					break
				}
				if u.Snapshot && recs[s].snapSeq == 0 {
					recs[s].snapSeq = sess.LastSeq()
				}
				if !u.Snapshot {
					recs[s].seqs = append(recs[s].seqs, u.Event.Seq)
					if g, ok := u.Event.Body.(table.GameEnded); ok {
						recs[s].final = g
					}
				}
				if a, ok := b.Act(sess.View()); ok {
					if _, err := sess.Act(ctx, a); err != nil {
						t.Fatalf("seat %d: %v", s, err)
					}
					recs[s].acts++
				}
			}
		}
		if ended < table.NumSeats {
			select {
			case <-wake:
			case <-ctx.Done():
				t.Fatal(ctx.Err())
			}
		}
	}
	checkRecords(t, recs)
	want := playAll(t, c, newTable(t, c, 13), nil)
	if recs[0].final.Scores != want[0].final.Scores || recs[0].acts != want[0].acts {
		t.Errorf("one goroutine on the mux: scores %v after %d actions; on streams %v after %d", recs[0].final.Scores, recs[0].acts, want[0].final.Scores, want[0].acts)
	}
}

// TestMuxTryNextEndsWithItsContext: TryNext reports the end of its own
// context at once, even while the follow's stream (opened in another
// context) lives on, rather than "nothing yet" for ever - a caller waiting
// on the Wake and its context would spin.
func TestMuxTryNextEndsWithItsContext(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	m := c.Mux(context.Background())
	defer m.Close()
	seats := newTable(t, c, 14)
	s := c.Follow(seats[0], client.Options{Mux: m, Wake: make(chan struct{}, 1)})
	defer s.Close()
	// Opened here, in a context that lives on; what came is taken.
	for {
		_, ok, err := s.TryNext(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for {
		// What came since (a table's timer) is still taken first.
		_, ok, err := s.TryNext(ended)
		if ok && err == nil {
			continue
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("TryNext in an ended context = %v, %v; want context.Canceled", ok, err)
		}
		break
	}
}
