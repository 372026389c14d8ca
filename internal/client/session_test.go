package client_test

import (
	"context"
	"errors"
	"io"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/servertest"
	"github.com/mahjong-authority/authority/internal/table"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// startServer runs the authority in process on the real engine, walls and
// bots, with every timer off unless a test sets it; Restart drops every
// connection and serves the same tables again on the same address.
func startServer(t *testing.T) *servertest.Server { return servertest.Start(t, servertest.Riichi()) }

func dial(t *testing.T, addr string, opts ...grpc.DialOption) *client.Client {
	t.Helper()
	c, err := client.Dial(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func seed(b byte) []byte {
	s := make([]byte, 32)
	s[0] = b
	return s
}

// newTable creates an east-only table from a seed and seats four players.
func newTable(t *testing.T, c *client.Client, b byte) [table.NumSeats]client.Seat {
	t.Helper()
	ctx := ctxT(t)
	tb, _, err := c.CreateTable(ctx, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(b)})
	if err != nil {
		t.Fatal(err)
	}
	var seats [table.NumSeats]client.Seat
	for i := range seats {
		if seats[i], err = c.JoinTable(ctx, tb.GetTableId(), "bot", nil); err != nil {
			t.Fatal(err)
		}
		if seats[i].Seat != table.Seat(i) {
			t.Fatalf("join %d took seat %d", i, seats[i].Seat)
		}
	}
	return seats
}

// record is what a player received.
type record struct {
	seqs     []uint64 // of the events, in order
	snapSeq  uint64   // of the first snapshot
	acts     int
	stats    client.Stats
	final    table.GameEnded
	gameOver bool
}

// play follows a seat to the end of the game with the efficient bot. hook,
// if set, runs after every update (before the seat acts).
func play(ctx context.Context, s *client.Session, hook func(n int, u client.Update) error) (record, error) {
	var rec record
	var b bot.Efficient
	for n := 0; ; n++ {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rec, err
		}
		if u.Snapshot && rec.snapSeq == 0 {
			rec.snapSeq = s.LastSeq()
		}
		if !u.Snapshot {
			rec.seqs = append(rec.seqs, u.Event.Seq)
			if g, ok := u.Event.Body.(table.GameEnded); ok {
				rec.final = g
			}
		}
		if hook != nil {
			if err := hook(n, u); err != nil {
				return rec, err
			}
		}
		if a, ok := b.Act(s.View()); ok {
			if _, err := s.Act(ctx, a); err != nil {
				return rec, err
			}
			rec.acts++
		}
	}
	rec.stats, rec.gameOver = s.Stats(), s.GameOver()
	return rec, nil
}

// playAll plays the four seats at once.
func playAll(t *testing.T, c *client.Client, seats [table.NumSeats]client.Seat, hook func(seat table.Seat, s *client.Session, n int, u client.Update) error) [table.NumSeats]record {
	t.Helper()
	return playAllOn(t, c, nil, seats, hook)
}

// playAllOn is playAll with the sessions on m (on streams and calls of
// their own when m is nil).
func playAllOn(t *testing.T, c *client.Client, m *client.Mux, seats [table.NumSeats]client.Seat, hook func(seat table.Seat, s *client.Session, n int, u client.Update) error) [table.NumSeats]record {
	t.Helper()
	var recs [table.NumSeats]record
	var errs [table.NumSeats]error
	var wg sync.WaitGroup
	for i, st := range seats {
		s := c.Follow(st, client.Options{Mux: m, Backoff: client.Backoff{Initial: 10 * time.Millisecond, Max: 200 * time.Millisecond}})
		var h func(int, client.Update) error
		if hook != nil {
			h = func(n int, u client.Update) error { return hook(st.Seat, s, n, u) }
		}
		wg.Go(func() {
			defer s.Close()
			recs[i], errs[i] = play(ctxT(t), s, h)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
	}
	return recs
}

// checkRecords checks what every seat received: the whole game, no
// inconsistency, the final scores summing to the start.
func checkRecords(t *testing.T, recs [table.NumSeats]record) {
	t.Helper()
	for s, r := range recs {
		if !r.gameOver {
			t.Errorf("seat %d did not see the game end", s)
		}
		if r.stats.Faults != 0 {
			t.Errorf("seat %d counted %d faults", s, r.stats.Faults)
		}
		if r.acts == 0 {
			t.Errorf("seat %d never acted", s)
		}
		sum := 0
		for _, v := range r.final.Scores {
			sum += v
		}
		if sum != 100000 {
			t.Errorf("seat %d: final scores %v sum to %d", s, r.final.Scores, sum)
		}
	}
}

// TestSessionsPlayWholeGame plays a whole game with four sessions and the
// efficient bot. At each of seat 0's decisions its tracked view must equal
// the view the server gives a new stream (the table waits for the seat, so
// nothing moves in between).
func TestSessionsPlayWholeGame(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	seats := newTable(t, c, 1)
	compared := 0
	recs := playAll(t, c, seats, func(seat table.Seat, s *client.Session, _ int, _ client.Update) error {
		if seat != 0 || len(s.View().Legal) == 0 {
			return nil
		}
		fresh := c.Follow(seats[0], client.Options{})
		defer fresh.Close()
		u, err := fresh.Next(ctxT(t))
		if err != nil || !u.Snapshot {
			t.Errorf("fresh stream: %v, %v; want a snapshot", u, err)
			return nil
		}
		// The seat's offer follows the snapshot as an event, numbered
		// right after it: the number it had on seat 0's own stream.
		snapSeq := fresh.LastSeq()
		if u, err = fresh.Next(ctxT(t)); err != nil {
			t.Errorf("fresh stream after the snapshot: %v", err)
			return nil
		}
		switch u.Event.Body.(type) {
		case table.TurnOffer, table.ClaimOffer:
		default:
			t.Errorf("event after the snapshot = %T, want the seat's offer", u.Event.Body)
		}
		if u.Event.Seq != snapSeq+1 || u.Event.Seq > s.LastSeq() {
			t.Errorf("offer after the snapshot numbered %d (snapshot %d, seat at %d)", u.Event.Seq, snapSeq, s.LastSeq())
		}
		got, want := *s.View(), *fresh.View()
		got.Seq, want.Seq = 0, 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tracked view differs from the server's:\ntracked %+v\nserver  %+v", got, want)
		}
		compared++
		return nil
	})
	checkRecords(t, recs)
	if compared < 10 {
		t.Errorf("compared %d views, want more", compared)
	}
	tb, err := c.GetTable(ctxT(t), seats[0].TableID)
	if err != nil || tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("table = %v, %v; want finished", tb.GetState(), err)
	}
}

// replayed returns every event seq a new session of seat receives after
// afterSeq: what a stream that never dropped would have delivered.
func replayed(t *testing.T, c *client.Client, seat client.Seat, afterSeq uint64) []uint64 {
	t.Helper()
	s := c.Follow(seat, client.Options{AfterSeq: afterSeq})
	defer s.Close()
	var seqs []uint64
	for {
		u, err := s.Next(ctxT(t))
		if errors.Is(err, io.EOF) {
			// Joined mid-round, the view is whole from the next deal on:
			// nothing before it counts as a fault.
			if st := s.Stats(); st.Faults != 0 {
				t.Errorf("a session after seq %d counted %d faults", afterSeq, st.Faults)
			}
			return seqs
		}
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, u.Event.Seq)
	}
}

// TestSessionResumesAfterDrop cuts seat 1's stream every few events: each
// time it resumes after the last event it saw, and in the end it received
// exactly what an unbroken stream delivers.
func TestSessionResumesAfterDrop(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	seats := newTable(t, c, 2)
	recs := playAll(t, c, seats, func(seat table.Seat, s *client.Session, n int, _ client.Update) error {
		if seat == 1 && n%7 == 3 {
			s.Drop()
		}
		return nil
	})
	checkRecords(t, recs)
	r := recs[1]
	if r.stats.Reconnects < 10 {
		t.Errorf("seat 1 reconnected %d times, want many", r.stats.Reconnects)
	}
	if want := replayed(t, c, seats[1], r.snapSeq); !slices.Equal(r.seqs, want) {
		t.Errorf("seat 1 received %d events, an unbroken stream %d:\ngot  %v\nwant %v", len(r.seqs), len(want), r.seqs, want)
	}
}

// TestSessionSurvivesServerRestart stops the server twice in mid-game (all
// connections drop, requests fail while it is down) and serves the same
// tables again on the same address: every seat resumes and the game ends
// with nothing missed or repeated.
func TestSessionSurvivesServerRestart(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	seats := newTable(t, c, 3)
	var mu sync.Mutex
	restarts := 0
	recs := playAll(t, c, seats, func(seat table.Seat, _ *client.Session, n int, _ client.Update) error {
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
}

// TestActRetriesSameRequest loses the answer of every first Act attempt
// (the server applied it; the client hears Unavailable): the retry carries
// the same request id and gets the same answer, so nothing is applied
// twice and the game goes on.
func TestActRetriesSameRequest(t *testing.T) {
	ts := startServer(t)
	var mu sync.Mutex
	attempts := map[string]int{}
	lose := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		if r, ok := req.(*pb.ActRequest); ok {
			mu.Lock()
			attempts[r.GetRequestId()]++
			first := attempts[r.GetRequestId()] == 1
			mu.Unlock()
			if first && err == nil {
				return status.Error(codes.Unavailable, "answer lost")
			}
		}
		return err
	}
	c := dial(t, ts.Addr, grpc.WithUnaryInterceptor(lose))
	seats := newTable(t, c, 4)
	recs := playAll(t, c, seats, nil)
	checkRecords(t, recs)
	total, retries := 0, 0
	for _, r := range recs {
		total += r.acts
		retries += r.stats.ActRetries
	}
	if len(attempts) != total || retries != total {
		t.Fatalf("%d acts, %d request ids, %d retries: want one id per act and one retry each", total, len(attempts), retries)
	}
	for id, n := range attempts {
		if n != 2 {
			t.Fatalf("request %s sent %d times, want 2", id, n)
		}
	}
}

// TestWatchFollowsTable follows a table of bots as a spectator: public
// events only, the whole game, a consistent view at the end.
func TestWatchFollowsTable(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	ctx := ctxT(t)
	tb, owner, err := c.CreateTable(ctx, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(5), FillWithBots: true})
	if err != nil {
		t.Fatal(err)
	}
	w := c.Watch(tb.GetTableId(), client.Options{})
	defer w.Close()
	if err := c.StartTable(ctx, tb.GetTableId(), owner); err != nil {
		t.Fatal(err)
	}
	var final table.GameEnded
	n := 0
	for {
		u, err := w.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		switch b := u.Event.Body.(type) {
		case table.Dealt, table.Fishing, table.ClaimOffer, table.TurnOffer:
			t.Fatalf("spectator received private %T", b)
		case table.Drew:
			if b.Known {
				t.Fatalf("spectator received a drawn tile")
			}
		case table.GameEnded:
			final = b
		}
		if n%50 == 0 {
			w.Drop()
		}
	}
	if st := w.Stats(); st.Faults != 0 || st.Reconnects == 0 {
		t.Fatalf("spectator stats %+v: want no faults and some reconnections", st)
	}
	v := w.View()
	if v.Phase != table.GameOver || v.Scores != final.Scores || v.Hand != nil {
		t.Fatalf("spectator's final view: phase %v scores %v hand %v; want game over, %v, no hand", v.Phase, v.Scores, v.Hand, final.Scores)
	}
}

// TestSessionCountsRefusedOpens refuses the first attempts to open a
// seat's stream on the client's side, as a connection that is down does:
// the session retries until one opens, and counts every attempt that
// failed, although no stream was ever dropped.
func TestSessionCountsRefusedOpens(t *testing.T) {
	ts := startServer(t)
	const refused = 3
	var mu sync.Mutex
	opens := 0
	refuse := func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		mu.Lock()
		opens++
		n := opens
		mu.Unlock()
		if n <= refused {
			return nil, status.Error(codes.Unavailable, "connection down")
		}
		return streamer(ctx, desc, cc, method, opts...)
	}
	c := dial(t, ts.Addr, grpc.WithStreamInterceptor(refuse))
	seats := newTable(t, c, 6)
	s := c.Follow(seats[0], client.Options{Backoff: client.Backoff{Initial: time.Millisecond, Max: time.Millisecond}})
	defer s.Close()
	u, err := s.Next(ctxT(t))
	if err != nil || !u.Snapshot {
		t.Fatalf("Next = %+v, %v; want the snapshot", u, err)
	}
	if st := s.Stats(); st.StreamRetries != refused {
		t.Errorf("stats %+v after %d refused opens: want StreamRetries %d", st, refused, refused)
	}
}
