package jetstream

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/host"
)

// Claim reads a table as LoadTable does and fences it: it appends a fence
// marker to the table's log that expects the log to end where it was
// read, so that from then on only this instance can append to it (the
// appends of the node that held it before fail with host.ErrFenced). A
// write that slips in between the read and the fence makes Claim read
// again, until the call's deadline.
func (s *Store[A]) Claim(ctx context.Context, table string) (host.TableRecord, *host.TableSnapshot, []host.Entry[A], error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	p := s.pos(table)
	p.mu.Lock()
	defer p.mu.Unlock()
	for try := 0; ; try++ {
		t, err := s.read(ctx, table, nil)
		if err != nil {
			return host.TableRecord{}, nil, nil, fmt.Errorf("jetstream store: claim %s: %w", table, err)
		}
		m := nats.NewMsg(s.subject("log", table))
		m.Header.Set(hdrFence, s.node)
		m.Header.Set(hdrEntries, strconv.FormatUint(t.count, 10))
		m.Header.Set(jetstream.MsgIDHeader, s.node+"."+table+".fence."+strconv.FormatUint(t.last, 10))
		ack, err := s.send(ctx, m, jetstream.WithExpectLastSequencePerSubject(t.last))
		if err == nil {
			p.known, p.last, p.count = true, ack.Sequence, t.count
			return t.rec, t.snap, t.entries, nil
		}
		if !wrongLast(err) {
			return host.TableRecord{}, nil, nil, fmt.Errorf("jetstream store: claim %s: %w", table, err)
		}
		// Someone wrote in between: read again after a random while, so
		// that claimants racing each other do not keep colliding.
		wait := time.Duration(mrand.Int64N(int64(min(try+1, 10)) * int64(20*time.Millisecond)))
		select {
		case <-ctx.Done():
			return host.TableRecord{}, nil, nil, fmt.Errorf("jetstream store: claim %s: %w (last: %w)", table, ctx.Err(), err)
		case <-time.After(wait):
		}
	}
}
