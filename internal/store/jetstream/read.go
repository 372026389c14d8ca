package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// each calls f with every message of st on filter, in order, each read
// from the stream's leader (one request a message): for the indexes,
// where a consumer, which may run on a follower that has not applied the
// latest deletes yet, would list a table finished a moment ago.
func (s *Store[A]) each(ctx context.Context, st jetstream.Stream, filter string, f func(*jetstream.RawStreamMsg) error) error {
	for seq := uint64(1); ; {
		m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(filter))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(m); err != nil {
			return err
		}
		seq = m.Sequence + 1
	}
}

// scan calls f with the messages of st on filter from sequence from on,
// up to sequence last, through an ephemeral consumer. The caller read last
// on the stream's leader; the consumer may run on a follower that has not
// applied it yet, and is waited for until it delivers it or ctx ends.
func (s *Store[A]) scan(ctx context.Context, st jetstream.Stream, filter string, from, last uint64, f func(jetstream.Msg) error) error {
	if last == 0 || from > last {
		return nil
	}
	cfg := jetstream.ConsumerConfig{
		AckPolicy:         jetstream.AckNonePolicy,
		FilterSubject:     filter,
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		MemoryStorage:     true,
		Replicas:          1,
		InactiveThreshold: time.Minute,
	}
	if from > 1 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from
	}
	c, err := st.CreateConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("consumer on %s: %w", filter, err)
	}
	defer func() {
		// Leaving it would only cost the server until InactiveThreshold.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = st.DeleteConsumer(dctx, c.CachedInfo().Name)
	}()
	reached, ferr := false, error(nil)
	take := func(m jetstream.Msg) {
		if ferr != nil || reached {
			return
		}
		md, err := m.Metadata()
		if err != nil {
			ferr = err
			return
		}
		if md.Sequence.Stream > last {
			reached = true
			return
		}
		ferr = f(m)
		reached = md.Sequence.Stream == last
	}
	idle := false
	for !reached {
		// What is there now, without waiting; when that was nothing, wait
		// a little for more.
		var batch jetstream.MessageBatch
		var err error
		if !idle {
			batch, err = c.FetchNoWait(256)
		} else {
			batch, err = c.Fetch(256, jetstream.FetchMaxWait(200*time.Millisecond))
		}
		if err != nil {
			return fmt.Errorf("fetch %s: %w", filter, err)
		}
		got := 0
		for m := range batch.Messages() {
			got++
			take(m)
		}
		if ferr != nil {
			return ferr
		}
		berr := batch.Error()
		switch {
		case got > 0:
			idle = false
			continue
		// Nothing yet, or a consumer just made that the server this
		// client talks to does not reach yet (no responders).
		case berr == nil || errors.Is(berr, jetstream.ErrNoMessages) || errors.Is(berr, nats.ErrTimeout) || errors.Is(berr, nats.ErrNoResponders):
		default:
			return fmt.Errorf("fetch %s: %w", filter, berr)
		}
		idle = true
		select {
		case <-ctx.Done():
			return fmt.Errorf("fetch %s: nothing up to sequence %d: %w", filter, last, errors.Join(berr, ctx.Err()))
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// stored is a table as read from the store.
type stored[A any] struct {
	rec     host.TableRecord
	snap    *host.TableSnapshot
	entries []host.Entry[A]
	last    uint64 // stream sequence of the table's last log message (0: none)
	count   uint64 // entries in the log
}

// read reads a table: its record (rec, if not nil, is it already), its
// latest snapshot and the log after it.
func (s *Store[A]) read(ctx context.Context, table string, rec *host.TableRecord) (*stored[A], error) {
	t := &stored[A]{}
	if rec != nil {
		t.rec = *rec
	} else {
		if err := checkID(table); err != nil {
			return nil, fmt.Errorf("%w: %w", err, host.ErrNoTable)
		}
		m, err := lastMsg(ctx, s.meta, s.subject("table", table))
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, fmt.Errorf("table %s: %w", table, host.ErrNoTable)
		}
		if err := json.Unmarshal(m.Data, &t.rec); err != nil {
			return nil, fmt.Errorf("%w: record: %w", store.ErrCorrupt, err)
		}
	}
	lm, err := lastMsg(ctx, s.log, s.subject("log", table))
	if err != nil {
		return nil, err
	}
	if lm != nil {
		if t.count, err = entriesOf(lm.Header); err != nil {
			return nil, err
		}
		t.last = lm.Sequence
	}
	var from, seq uint64
	sm, err := lastMsg(ctx, s.meta, s.subject("snap", table))
	if err != nil {
		return nil, err
	}
	if sm != nil {
		// A snapshot this store cannot read, or past the log, is no
		// snapshot: the host replays the whole log.
		if n, sq, state, ok := decodeSnapshot(sm.Data); ok && n <= t.count && sq <= t.last {
			t.snap = &host.TableSnapshot{Entries: n, State: state}
			from, seq = n, sq
		}
	}
	t.entries, err = s.entries(ctx, table, from, seq, t.last)
	if err != nil {
		return nil, err
	}
	if uint64(len(t.entries)) != t.count-from {
		return nil, fmt.Errorf("%w: log of %d entries read as %d from %d", store.ErrCorrupt, t.count, len(t.entries), from)
	}
	return t, nil
}

// entries returns a table's entries from the from-th on, reading its log
// from the message after sequence after (0: from the start) up to
// sequence last. Messages end with their Authority-Entries: the entries
// of one before from are skipped, and a log that does not follow on from
// after is read again from the start.
func (s *Store[A]) entries(ctx context.Context, table string, from, after, last uint64) ([]host.Entry[A], error) {
	if last == 0 || after >= last {
		// An empty log, or a snapshot that covers the whole of it (the
		// caller checks the count).
		return nil, nil
	}
	var out []host.Entry[A]
	var next uint64 // index of the next entry expected
	gap := errors.New("gap")
	read := func(startSeq uint64, start uint64) error {
		out, next = out[:0], start
		return s.scan(ctx, s.log, s.subject("log", table), startSeq, last, func(m jetstream.Msg) error {
			n, err := entriesOf(m.Headers())
			if err != nil {
				return err
			}
			if m.Headers().Get(hdrFence) != "" {
				if n != next {
					return gap
				}
				return nil
			}
			k := len(out)
			var c int
			out, c, err = s.decodeBatch(out, m.Data())
			if err != nil {
				return err
			}
			first := n - uint64(c)
			if first != next {
				return gap
			}
			next = n
			if first < from {
				// Before the snapshot: drop what precedes from.
				drop := min(from-first, uint64(c))
				out = append(out[:k], out[k+int(drop):]...)
			}
			return nil
		})
	}
	if after > 0 {
		err := read(after+1, from)
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, gap) {
			return nil, err
		}
	}
	if err := read(1, 0); err != nil {
		if errors.Is(err, gap) {
			return nil, fmt.Errorf("%w: the log of %s has a gap at entry %d", store.ErrCorrupt, table, next)
		}
		return nil, err
	}
	return out, nil
}

// Live returns the records of the tables not finished, in the order of
// creation, reading the live index only: what a node lists to learn which
// tables it might take over, before it claims those it wins. A record
// that does not decode is returned as a *host.DamagedError (joined).
func (s *Store[A]) Live(ctx context.Context) ([]host.TableRecord, error) {
	recs, damaged, err := s.readLive(ctx)
	if err != nil {
		return nil, err
	}
	return recs, errors.Join(damaged...)
}

// readLive reads the live index.
func (s *Store[A]) readLive(ctx context.Context) ([]host.TableRecord, []error, error) {
	var recs []host.TableRecord
	var damaged []error
	prefix := s.subject("live", "")
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err := s.each(ctx, s.live, s.subject("live", "*"), func(m *jetstream.RawStreamMsg) error {
		var rec host.TableRecord
		if err := json.Unmarshal(m.Data, &rec); err != nil {
			id := m.Subject[len(prefix):]
			damaged = append(damaged, &host.DamagedError{ID: id, Err: fmt.Errorf("%w: record: %w", store.ErrCorrupt, err)})
			return nil
		}
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("jetstream store: tables: %w", err)
	}
	return recs, damaged, nil
}

// Load calls f for every table not finished, in the order of creation,
// with its latest snapshot and the entries after it. It reads the live
// index, not the finished tables. The tables it loads are this
// instance's to append to (the recovery of a single owner; in a cluster,
// a node takes a table over with Claim).
func (s *Store[A]) Load(ctx context.Context, f func(host.TableRecord, *host.TableSnapshot, []host.Entry[A]) error) error {
	recs, damaged, err := s.readLive(ctx)
	if err != nil {
		return err
	}
	for i := range recs {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := recs[i].ID
		t, err := s.readBound(ctx, id, &recs[i])
		switch {
		case errors.Is(err, store.ErrCorrupt):
			damaged = append(damaged, &host.DamagedError{ID: id, Err: err})
			continue
		case err != nil:
			return fmt.Errorf("jetstream store: table %s: %w", id, err)
		}
		p := s.pos(id)
		p.mu.Lock()
		p.known, p.last, p.count = true, t.last, t.count
		p.mu.Unlock()
		if err := f(t.rec, t.snap, t.entries); err != nil {
			return err
		}
	}
	return errors.Join(damaged...)
}

func (s *Store[A]) readBound(ctx context.Context, table string, rec *host.TableRecord) (*stored[A], error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.read(ctx, table, rec)
}

// LoadTable returns one table, finished or not. It reads only: the
// instance may not append to a table it has not created, loaded or
// claimed.
func (s *Store[A]) LoadTable(ctx context.Context, table string) (host.TableRecord, *host.TableSnapshot, []host.Entry[A], error) {
	t, err := s.readBound(ctx, table, nil)
	if err != nil {
		return host.TableRecord{}, nil, nil, fmt.Errorf("jetstream store: table %s: %w", table, err)
	}
	return t.rec, t.snap, t.entries, nil
}

// LoadEntries returns a table's entries from the from-th on.
func (s *Store[A]) LoadEntries(ctx context.Context, table string, from uint64) ([]host.Entry[A], error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.exists(ctx, table); err != nil {
		return nil, err
	}
	lm, err := lastMsg(ctx, s.log, s.subject("log", table))
	if err != nil || lm == nil {
		return nil, err
	}
	var after uint64
	// The snapshot says where its entries end in the log: no need to
	// read what comes before it.
	if sm, err := lastMsg(ctx, s.meta, s.subject("snap", table)); err == nil && sm != nil {
		if n, sq, _, ok := decodeSnapshot(sm.Data); ok && n == from {
			after = sq
		}
	}
	es, err := s.entries(ctx, table, from, after, lm.Sequence)
	if err != nil {
		return nil, fmt.Errorf("jetstream store: table %s: %w", table, err)
	}
	return es, nil
}

// LoadEvents returns the Events of a table's snapshot.
func (s *Store[A]) LoadEvents(ctx context.Context, table string, entries uint64) ([]byte, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.exists(ctx, table); err != nil {
		return nil, err
	}
	m, err := lastMsg(ctx, s.meta, s.subject("events", table, strconv.FormatUint(entries, 10)))
	if err != nil {
		return nil, fmt.Errorf("jetstream store: table %s: %w", table, err)
	}
	if m == nil {
		return nil, fmt.Errorf("jetstream store: table %s: events of the snapshot at %d: %w", table, entries, host.ErrNoSnapshot)
	}
	return m.Data, nil
}
