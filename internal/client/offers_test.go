package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
)

// eventsOnly is a client written from the protocol alone: it keeps no view,
// reads nothing of a snapshot but its number, and acts only when an offer
// arrives as an event (the first discard of a turn, a pass to every claim
// offer). It checks that every stream is numbered on from the snapshot or
// after_seq without gap or repeat.
type eventsOnly struct {
	c    *client.Client
	seat client.Seat
	// drop says, for the n-th offer of its kind (turn or claim) received, whether to drop the stream
	// instead of acting and how to reopen it: after the event before the
	// offer (a resume mid-turn or mid-claim-window), or with a snapshot.
	drop     func(n int) (drop, fresh bool)
	offers   [2]int    // received: turn offers, claim offers
	dropped  [2][2]int // streams dropped at [turn, claim] offers, [resumed, fresh]
	acted    int
	requests int
}

// stall bounds the wait for any message: with every timer off, a client
// that waits for something the server never sends stalls for ever.
const stall = 10 * time.Second

// play follows the seat to the end of its game.
func (p *eventsOnly) play(ctx context.Context) error {
	var last uint64 // the newest seq received
	after := uint64(0)
	for {
		sctx, cancel := context.WithCancel(ctx)
		st, err := p.c.Tables.StreamEvents(sctx, &pb.StreamEventsRequest{TableId: p.seat.TableID, SeatToken: p.seat.Token, AfterSeq: after})
		if err != nil {
			cancel()
			return err
		}
		reopen, over, err := p.stream(ctx, st, &last, after)
		cancel()
		if err != nil || over {
			return err
		}
		after = reopen
	}
}

// stream reads one stream until the game ends (over) or the client drops
// it to reopen after the returned seq.
func (p *eventsOnly) stream(ctx context.Context, st pb.TableService_StreamEventsClient, last *uint64, after uint64) (reopen uint64, over bool, err error) {
	msgs := make(chan *pb.StreamEventsResponse)
	errc := make(chan error, 1)
	go func() {
		for {
			m, err := st.Recv()
			if err != nil {
				errc <- err
				return
			}
			select {
			case msgs <- m:
			case <-st.Context().Done():
				errc <- st.Context().Err()
				return
			}
		}
	}()
	first := true
	for {
		var m *pb.StreamEventsResponse
		select {
		case m = <-msgs:
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				err = errors.New("stream ended before the game")
			}
			return 0, false, err
		case <-time.After(stall):
			return 0, false, fmt.Errorf("seat %d stalled at seq %d", p.seat.Seat, *last)
		}
		if sn := m.GetSnapshot(); sn != nil {
			if !first || after != 0 {
				return 0, false, fmt.Errorf("snapshot in the middle of a stream")
			}
			if sn.GetSeq() < *last {
				return 0, false, fmt.Errorf("snapshot at %d after event %d", sn.GetSeq(), *last)
			}
			*last = sn.GetSeq()
			first = false
			continue
		}
		first = false
		ev := m.GetEvent()
		if ev.GetSeq() != *last+1 {
			return 0, false, fmt.Errorf("event %d after %d", ev.GetSeq(), *last)
		}
		*last = ev.GetSeq()
		var options []*pb.Action
		claim := false
		switch b := ev.GetBody().(type) {
		case *pb.Event_GameEnded:
			return 0, true, nil
		case *pb.Event_TurnOffer:
			options = b.TurnOffer.GetOptions()
		case *pb.Event_ClaimOffer:
			options, claim = b.ClaimOffer.GetOptions(), true
		default:
			continue
		}
		k := 0
		if claim {
			k = 1
		}
		p.offers[k]++
		if drop, fresh := p.drop(p.offers[k]); drop {
			if fresh {
				p.dropped[k][1]++
				*last = 0 // numbered on from the snapshot
				return 0, false, nil
			}
			p.dropped[k][0]++
			*last = ev.GetSeq() - 1
			return *last, false, nil
		}
		a := options[0]
		for _, o := range options {
			if claim && o.GetType() == pb.ActionType_ACTION_TYPE_PASS || !claim && o.GetType() == pb.ActionType_ACTION_TYPE_DISCARD {
				a = o
				break
			}
		}
		p.requests++
		if _, err := p.c.Tables.Act(ctx, &pb.ActRequest{
			TableId: p.seat.TableID, SeatToken: p.seat.Token, LastSeq: *last,
			RequestId: fmt.Sprintf("r%d", p.requests), Action: a,
		}); err != nil {
			return 0, false, fmt.Errorf("seat %d act at %d: %w", p.seat.Seat, *last, err)
		}
		p.acted++
	}
}

// TestEventsOnlyClient plays whole games with four clients that act on
// offer events alone, with every timer off so that a client that waits
// for an offer the server does not send stalls the test: once straight
// through, and once dropping the stream at offers - resuming just before
// the offer (mid-turn and mid-claim-window) or reopening it with a
// snapshot, after which the offer must come again as an event.
func TestEventsOnlyClient(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop func(n int) (bool, bool)
	}{
		{"straight", func(int) (bool, bool) { return false, false }},
		// Every other offer of each kind drops the stream: alternately a
		// resume before the offer and a fresh stream; the offer that
		// comes again is acted on.
		{"drops", func(n int) (bool, bool) { return n%2 == 1, n%4 == 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t)
			c := dial(t, ts.Addr)
			seats := newTable(t, c, 7)
			ctx := ctxT(t)
			players := make([]*eventsOnly, len(seats))
			errs := make([]error, len(seats))
			var wg sync.WaitGroup
			for i, s := range seats {
				players[i] = &eventsOnly{c: c, seat: s, drop: tc.drop}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = players[i].play(ctx)
				}()
			}
			wg.Wait()
			var dropped [2][2]int
			for i, p := range players {
				if errs[i] != nil {
					t.Errorf("seat %d: %v", i, errs[i])
				}
				if p.acted == 0 {
					t.Errorf("seat %d never acted", i)
				}
				for k := range dropped {
					for m := range dropped[k] {
						dropped[k][m] += p.dropped[k][m]
					}
				}
			}
			t.Logf("streams dropped at [turn, claim] offers, [resumed, fresh]: %v", dropped)
			if tc.name == "drops" && (dropped[0][0] < 5 || dropped[0][1] < 5 || dropped[1][0] < 1 || dropped[1][1] < 1) {
				t.Errorf("streams dropped at [turn, claim] offers, [resumed, fresh]: %v, want more", dropped)
			}
		})
	}
}
