package store

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
)

// The appender is the goroutine of the write-ahead log: it gathers
// Appends (lingering as the writer does, see lingering), numbers them,
// writes them to the log in one write and one fdatasync, adds them to
// the journal and answers them. It never waits for bbolt: the tables'
// incarnations and last numbers are in memory (journal.known), and only
// an append to a table it does not know (finished before Open, or
// missing) makes it read bbolt, in a read transaction that no writer
// holds up. The writer goroutine keeps every bbolt transaction (the
// other writes, snapshots, moves, page drops); it asks the appender to
// rotate or retire the log's segments (walOp), since only the appender
// writes the log while it runs.
//
// Ordering. A Create is known to the appender before it returns
// (journal.committed), so an Append called after it finds the table. A
// Delete (or Prune) racing with an Append of the same table may come
// before or after it: an append numbered under the deleted incarnation
// carries it into the log and the journal, where replay, moves and
// readers skip it (its incarnation is not the table's); and the
// appender never puts a table back into known once a deletion removed
// it (it updates only a table still known under the same incarnation,
// and a look-up that raced with a deletion is done again).

// walOp is the writer's request to the appender, served between two
// flushes: start the log's next segment (rotate), answering its number,
// or retire the segments before before.
type walOp struct {
	rotate bool
	before uint64
	reply  chan walReply
}

type walReply struct {
	num uint64
	err error
}

// appender runs the log until the store closes: what it gathered then is
// flushed and answered; what is still queued fails with ErrClosed.
func (s *Bolt[A]) appender() {
	defer close(s.appDone)
	l := lingering{gain: 1, below: appendBelow, enough: appendEnough}
	batch := make([]*request, 0, maxBatch)
	for {
		batch = batch[:0]
		select {
		case r := <-s.apps:
			batch = append(batch, r)
		case op := <-s.walOps:
			s.serveWAL(op)
			continue
		case <-s.quit:
			return
		}
		batch = l.gather(s.apps, batch, s.linger, s.quit)
		s.commitAppends(batch)
		clear(batch) // no request outlives its flush here
	}
}

// serveWAL does what the writer asked of the log.
func (s *Bolt[A]) serveWAL(op walOp) {
	var rep walReply
	if op.rotate {
		// A segment nothing was written to is this drain's first as well.
		if s.wal.off > 0 || s.wal.f == nil {
			rep.err = s.wal.rotate()
		}
		rep.num = s.wal.num
	} else {
		s.wal.retire(op.before)
	}
	op.reply <- rep
}

// askWAL has the appender serve op; ErrClosed once it stopped.
func (s *Bolt[A]) askWAL(op walOp) walReply {
	op.reply = make(chan walReply, 1)
	select {
	case s.walOps <- op:
		return <-op.reply
	case <-s.appDone:
		return walReply{err: ErrClosed}
	}
}

// rotateWAL starts the log's next segment and returns its number: every
// entry of the segments before it is in the journal when it returns.
func (s *Bolt[A]) rotateWAL() (uint64, error) {
	r := s.askWAL(walOp{rotate: true})
	return r.num, r.err
}

// retireWAL retires the segments before n (a failure leaves them, read
// again and skipped at the next Open).
func (s *Bolt[A]) retireWAL(n uint64) { s.askWAL(walOp{before: n}) }

// commitAppends numbers the appends of a batch, writes them to the log
// in one write and one fdatasync, adds them to the journal and answers
// them. The journal's lock is held only to read the numbers and to add
// the flushed entries, never across the write. It touches no request
// once it answered it: Append recycles it then (appendRequests).
func (s *Bolt[A]) commitAppends(appends []*request) {
	start := time.Now()
	j := &s.jr
	j.mu.RLock()
	missing := false
	for _, r := range appends {
		if _, ok := j.known[r.table]; !ok {
			missing = true
			break
		}
	}
	j.mu.RUnlock()
	if missing {
		s.lookUp(appends)
	}
	clear(j.batch)
	j.mu.RLock()
	for _, r := range appends {
		if r.fail != nil {
			continue
		}
		st, ok := j.batch[r.table]
		if !ok {
			if st, ok = j.known[r.table]; !ok {
				// Deleted since it was looked up.
				r.fail = fmt.Errorf("bolt store: table %s: %w", r.table, host.ErrNoTable)
				continue
			}
		}
		r.first = st.last + 1
		st.last += uint64(len(r.entries))
		j.batch[r.table] = st
	}
	j.mu.RUnlock()
	for _, r := range appends {
		if r.fail != nil {
			continue
		}
		inc := j.batch[r.table].inc
		for i, v := range r.entries {
			s.wal.add(inc, r.table, r.first+uint64(i), v)
		}
	}
	err := s.wal.flush()
	if err == nil {
		now := time.Now()
		j.mu.Lock()
		for _, r := range appends {
			if r.fail != nil {
				continue
			}
			inc := j.batch[r.table].inc
			p := j.tables[r.table]
			if p == nil || p.inc != inc {
				// Entries of another incarnation are of a deleted table.
				if p != nil {
					j.n -= len(p.entries)
				}
				p = &pending{inc: inc}
				j.tables[r.table] = p
			}
			for i, v := range r.entries {
				p.entries = append(p.entries, pendingEntry{n: r.first + uint64(i), raw: v})
			}
			p.last = r.first + uint64(len(r.entries)) - 1
			if j.n == 0 {
				j.since = now
			}
			j.n += len(r.entries)
			if st, ok := j.known[r.table]; ok && st.inc == inc {
				j.known[r.table] = tableState{inc: inc, last: p.last}
			}
		}
		due := j.full(s.mv) || now.Sub(j.since) >= s.mv.every
		j.mu.Unlock()
		if due {
			// The writer moves it at its next turn; it may be waiting for
			// a request or its ticker.
			select {
			case s.kick <- struct{}{}:
			default:
			}
		}
	}
	for _, r := range appends {
		switch {
		case r.fail != nil:
			r.err <- r.fail
		case err != nil:
			r.err <- err
		default:
			r.err <- nil
		}
	}
	s.obs.Committed(time.Since(start), len(appends))
}

// lookUp finds in bbolt the tables of appends the appender does not know
// (finished, or missing): their incarnation and the number of their last
// entry. An append to a table that does not exist fails. The journal's
// entries of them are read before the transaction: a move that took
// them since committed before it began, and the log's sequence tells.
// A look-up that a deletion raced with is done again (journal.gen).
func (s *Bolt[A]) lookUp(appends []*request) {
	j := &s.jr
	for {
		j.mu.RLock()
		gen := j.gen
		mem := make(map[string]*tableState) // nil: no entries in the journal
		for _, r := range appends {
			if _, ok := j.known[r.table]; !ok {
				var st *tableState
				if p := j.tables[r.table]; p != nil {
					st = &tableState{inc: p.inc, last: p.last}
				}
				mem[r.table] = st
			}
		}
		j.mu.RUnlock()
		found := make(map[string]tableState, len(mem))
		err := s.db.View(func(tx *bolt.Tx) error {
			tables := tx.Bucket(bucketTables)
			for id, m := range mem {
				tb := tables.Bucket([]byte(id))
				if tb == nil {
					continue
				}
				st := tableState{inc: seqOf(tb), last: tb.Bucket(bucketLog).Sequence()}
				if m != nil && m.inc == st.inc {
					st.last = max(st.last, m.last)
				}
				found[id] = st
			}
			return nil
		})
		j.mu.Lock()
		if err == nil && j.gen != gen {
			j.mu.Unlock()
			continue
		}
		for id, st := range found {
			if _, ok := j.known[id]; !ok && err == nil {
				j.known[id] = st
			}
		}
		j.mu.Unlock()
		for _, r := range appends {
			if _, ok := mem[r.table]; !ok {
				continue
			}
			if err != nil {
				r.fail = fmt.Errorf("bolt store: table %s: %w", r.table, err)
			} else if _, ok := found[r.table]; !ok {
				r.fail = fmt.Errorf("bolt store: table %s: %w", r.table, host.ErrNoTable)
			}
		}
		return
	}
}
