package client_test

import (
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
)

// TestPreparedSendFromAnotherGoroutine plays a whole game in which every
// decision is prepared on the seat's goroutine and sent from another one
// while the seat goes on reading its stream, as `tablectl bots` does with
// its think times (run it with -race): the game ends for every seat, no
// sequence or view fault, and every action sent was accepted.
func TestPreparedSendFromAnotherGoroutine(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.Addr)
	seats := newTable(t, c, 9)
	var wg sync.WaitGroup
	for _, st := range seats {
		wg.Go(func() {
			s := c.Follow(st, client.Options{})
			defer s.Close()
			var sending sync.WaitGroup
			defer sending.Wait()
			sent := 0
			for {
				_, err := s.Next(ctxT(t))
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Errorf("seat %d: %v", st.Seat, err)
					return
				}
				a, ok := bot.Efficient{}.Act(s.View())
				if !ok {
					continue
				}
				sending.Wait()
				p, err := s.Prepare(a)
				if err != nil {
					t.Errorf("seat %d: prepare: %v", st.Seat, err)
					return
				}
				if len(s.View().Legal) != 0 {
					t.Errorf("seat %d: the view still offers %v after Prepare", st.Seat, s.View().Legal)
				}
				sent++
				sending.Go(func() {
					if _, err := s.Send(ctxT(t), p); err != nil {
						t.Errorf("seat %d: send: %v", st.Seat, err)
					}
				})
			}
			sending.Wait()
			if stats := s.Stats(); stats.Faults != 0 || stats.ActRetries != 0 || !s.GameOver() || sent == 0 {
				t.Errorf("seat %d: stats %+v, game over %v, %d sent", st.Seat, stats, s.GameOver(), sent)
			}
		})
	}
	wg.Wait()
	if _, err := c.Follow(client.Seat{}, client.Options{}).Send(ctxT(t), client.Prepared{}); err == nil {
		t.Error("Send of a zero Prepared: no error")
	}
}
