package host

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"sort"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/pack"
)

// Snapshots keep recovery fast. Recovery rebuilds a table by replaying its
// log through the game; without snapshots a table late in its game replays
// the whole game. So at each round boundary of a game that can save its
// state there (Snapshotter), after the step that ended the round and its
// events are published, the host saves a TableSnapshot: its own state
// (seats, tokens, bots, every viewer's numbering, the dedupe window), the
// game's, and the events logged since the previous snapshot. Recovery
// restores the latest snapshot and replays only the entries after it.
//
// The events before the snapshot stay in the store, one segment per
// snapshot, and a stream that resumes from before it (or a spectator who
// starts from the beginning) reads them back segment by segment: the
// state says how many events of each viewer every segment holds. A
// snapshot that is missing or does not restore costs only time: the table
// is rebuilt from the whole log, as before snapshots.

// Snapshotter is a Game that can save its state at some points of play -
// a riichi table between rounds - so that recovery replays only the log
// after the latest one.
type Snapshotter interface {
	// Boundary reports whether the game may be snapshotted now.
	Boundary() bool
	// AppendSnapshot appends the game's state to dst; it fails unless
	// Boundary.
	AppendSnapshot(dst []byte) ([]byte, error)
	// Restore sets a new game - just made, and seeded if it is a Seeder -
	// to a state AppendSnapshot saved. On error the host drops the game.
	Restore(state []byte) error
}

// Codec encodes a game's actions and event bodies: the saved events'
// bodies, and the actions a table keeps - its game's history, to make the
// game again after a refused write (history.go), and a digest of each
// answered request's action in the dedupe window (dedupe.go), which the
// snapshots save. DecodeAction must give back the very action
// AppendAction encoded; AppendAction is also called, to digest it, on an
// action the game refuses.
type Codec[A, B any] interface {
	AppendAction(dst []byte, a A) []byte
	DecodeAction(b []byte) (A, error)
	AppendBody(dst []byte, b B) ([]byte, error)
	DecodeBody(b []byte) (B, error)
}

// ErrSnapshot is what every error about a snapshot that does not restore
// matches; recovery then replays the whole log.
var ErrSnapshot = errors.New("host: snapshot does not restore")

// maxWaiting is how many snapshots of a table wait for the store, behind
// the one it writes, before the newest replaces the last: a few, so that
// a store slower than a few rounds is written less often, not that every
// burst of quick rounds loses its snapshots.
const maxWaiting = 4

// The encodings' first bytes; a new layout takes the next number.
const (
	// 4: the dedupe window as it keeps its entries, the digests of the
	// id (64 bits) and of the action (32); 3: the window's ids as digests;
	// 2: each seat's player id after its entropy. 1 to 3 still restore.
	stateVersion   = 4
	segmentVersion = 1
)

// Bounds of a decoded state, so that a corrupt one cannot ask for much.
const (
	maxSeats    = 64
	maxSegments = 1 << 16
	maxEvents   = 1 << 24
	maxBody     = 1 << 16
)

// archive is the index of a table's saved event segments, in order: the
// snapshot a segment was saved with (its key in the store) and how many
// events, of the table and of each viewer (each seat, then the public),
// the log holds up to its end.
type archive struct {
	segs []segment
}

type segment struct {
	at     uint64   // the snapshot's Entries
	events uint64   // events of the table up to the segment's end
	counts []uint64 // events of each viewer up to the segment's end
}

// events is how many events of the table the archive holds.
func (a *archive) events() uint64 {
	if len(a.segs) == 0 {
		return 0
	}
	return a.segs[len(a.segs)-1].events
}

// last is the log position of the archive's last snapshot, 0 if none.
func (a *archive) last() uint64 {
	if len(a.segs) == 0 {
		return 0
	}
	return a.segs[len(a.segs)-1].at
}

// count is how many events of viewer v the archive holds.
func (a *archive) count(v int) uint64 {
	if len(a.segs) == 0 {
		return 0
	}
	return a.segs[len(a.segs)-1].counts[v]
}

// with returns the archive with one segment more, sharing nothing with a.
func (a archive) with(s segment) archive {
	return archive{segs: append(slices.Clone(a.segs), s)}
}

// pendingSnap is a snapshot taken but not yet stored, and the archive it
// makes once it is.
type pendingSnap struct {
	snap  TableSnapshot
	chain archive
}

// segCache keeps a few decoded segments of a recovered table, for streams
// reading its archive.
type segCache[B any] struct {
	mu   sync.Mutex
	segs []cachedSeg[B] // most recent last
}

type cachedSeg[B any] struct {
	i      int
	events []Event[B]
}

// maxCached is how many decoded segments a table keeps.
const maxCached = 4

// viewers is the number of numberings: each seat's and the public one.
func (t *table[A, V, B]) viewers() int { return len(t.seats) + 1 }

// counts returns every viewer's event count; the caller holds mu.
func (t *table[A, V, B]) countsLocked() []uint64 {
	c := make([]uint64, t.viewers())
	for s := range t.seats {
		c[s] = t.arch.count(s) + uint64(t.seen[s].len())
	}
	c[len(t.seats)] = t.arch.count(len(t.seats)) + uint64(t.public.len())
	return c
}

// snapshots reports whether the host takes snapshots of this table's game.
func (t *table[A, V, B]) snapshots() (Snapshotter, bool) {
	if t.h.cfg.Codec == nil {
		return nil, false
	}
	sn, ok := t.game.(Snapshotter)
	return sn, ok
}

// capture takes a snapshot if a step has just left the game at a round
// boundary with nothing held back, and keeps it for the store: flush
// hands it over once the current request is answered. It is called after
// every live step; replays take none. Snapshots wait for the store in
// order, one write at a time; once maxWaiting wait, the newest replaces
// the last of them (its segment holds the events of both): however many
// rounds go by while a slow store writes, a table has one write in
// flight and a few waiting, each a round's worth of events.
func (t *table[A, V, B]) capture() {
	if t.replay || t.hold.on || t.acted == t.capAt || t.state != Playing {
		return
	}
	sn, ok := t.snapshots()
	if !ok || !sn.Boundary() {
		return
	}
	if n := len(t.waiting); n == maxWaiting {
		t.waiting[n-1] = pendingSnap{}
		t.waiting = t.waiting[:n-1]
		t.chain = t.saved
		if n > 1 {
			t.chain = t.waiting[n-2].chain
		} else if w := t.writing; w != nil {
			t.chain = w.snap.chain
		}
	}
	t.mu.RLock()
	total := t.base + uint64(t.events.len())
	from := t.chain.events() - t.base
	seg, err := t.encodeSegment(&t.events, int(from))
	counts := t.countsLocked()
	t.mu.RUnlock()
	if err != nil {
		t.log.Error("snapshot of the events", zap.Error(err))
		return
	}
	chain := t.chain.with(segment{at: t.logged, events: total, counts: counts})
	state, err := t.encodeState(chain, sn)
	if err != nil {
		t.log.Error("snapshot of the table", zap.Error(err))
		return
	}
	t.capAt = t.acted
	t.hist.seal() // a round's end: its actions are all in
	t.chain = chain
	t.waiting = append(t.waiting, pendingSnap{snap: TableSnapshot{Entries: t.logged, State: state, Events: seg}, chain: chain})
}

// snapWrite is a snapshot handed to the store, and the store's answer.
type snapWrite struct {
	snap    pendingSnap
	done    chan struct{} // closed when the store answered (err, took set)
	err     error
	took    time.Duration
	applied bool // written ran; the table's runner's
}

// flush hands the oldest snapshot waiting to the store, unless a write
// is in flight (the runner calls flush again after written): the write goes on in
// a goroutine of its own, and the table goes on with its next calls
// meanwhile - a snapshot only makes recovery faster, the log written
// before every answer is what the table is - and written applies the
// outcome on the table. One write at a time keeps the snapshots in
// order, each one's chain built on the one before.
//
// A game that is over has no next action to hold up: its last snapshot
// is written before the answer goes out, after the write in flight, as
// a reader of the store may expect of a finished game.
func (t *table[A, V, B]) flush() {
	if len(t.waiting) == 0 || t.ro {
		return
	}
	if t.state != Playing {
		if w := t.writing; w != nil {
			<-w.done
			t.written(w)
		}
		for len(t.waiting) > 0 { // none after a refusal
			w := &snapWrite{snap: t.unwait()}
			t.save(w)
			t.written(w)
		}
		return
	}
	if t.writing != nil {
		return
	}
	w := &snapWrite{snap: t.unwait(), done: make(chan struct{})}
	t.writing = w
	go func() {
		t.save(w)
		// Closed before the outcome is posted, so that a runner that
		// waits for it (stop, a flush after the game) never waits for
		// this goroutine's post; a table that stopped drops the outcome.
		close(w.done)
		t.post(func() { t.written(w) })
	}()
}

// unwait takes the oldest snapshot waiting.
func (t *table[A, V, B]) unwait() pendingSnap {
	p := t.waiting[0]
	n := copy(t.waiting, t.waiting[1:])
	t.waiting[n] = pendingSnap{}
	t.waiting = t.waiting[:n]
	return p
}

// save writes w's snapshot to the store.
func (t *table[A, V, B]) save(w *snapWrite) {
	start := t.clk.Now()
	w.err = t.store.SaveSnapshot(t.ctx, t.rec.ID, w.snap.snap)
	w.took = t.clk.Now().Sub(start)
}

// written applies the outcome of a snapshot write, on the table, once. A
// store that refuses one costs nothing but time: the snapshots waiting
// are dropped (their chains hold the refused one's segment), and the
// next one's segment starts after the last one stored.
func (t *table[A, V, B]) written(w *snapWrite) {
	if w.applied {
		return
	}
	w.applied = true
	if t.writing == w {
		t.writing = nil
	}
	p := &w.snap
	if w.err != nil {
		t.log.Warn("store snapshot", zap.Uint64("entries", p.snap.Entries), zap.Error(w.err))
		t.chain = t.saved
		clear(t.waiting)
		t.waiting = t.waiting[:0]
		return
	}
	t.saved = p.chain
	t.h.obs.Snapshot(len(p.snap.State) + len(p.snap.Events))
	t.log.Debug("snapshot stored", zap.Uint64("entries", p.snap.Entries), zap.Int("bytes", len(p.snap.State)+len(p.snap.Events)),
		zap.Duration("took", w.took))
	t.archive()
}

// archive drops from memory the events of a game that a stored snapshot
// holds: the table keeps the round in progress, and a stream that needs
// an earlier event reads it back from the store, as from a table
// recovered from that snapshot. A finished game drops them too, up to its
// last snapshot, taken at its end: it stays in memory for FinishedTTL (a
// tenth of the tables of a busy server), and what it kept of its last
// rounds was most of its heap. Streams read the archive, the log and
// the indexes under t.mu; a stream in the middle of a batch goes on with
// the views it took, which stay as they were (chunked.go).
func (t *table[A, V, B]) archive() {
	if t.state == Waiting || len(t.saved.segs) <= len(t.arch.segs) {
		return
	}
	drop := t.saved.events() - t.base
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = t.events.from(int(drop))
	for s := range t.seen {
		n := t.saved.count(s) - t.arch.count(s)
		t.seen[s] = t.seen[s].from(int(n))
	}
	v := len(t.seats)
	n := t.saved.count(v) - t.arch.count(v)
	t.public = t.public.from(int(n))
	t.arch, t.base = t.saved, t.saved.events()
}

// encodeState encodes the host's state of the table, with the game's:
// version, CRC-32C of the rest, then the log position, the table's state,
// each seat, the archive and, to the end, the game's state.
func (t *table[A, V, B]) encodeState(chain archive, sn Snapshotter) ([]byte, error) {
	b := make([]byte, 5, max(t.stateLen+t.stateLen/8, 4096))
	b[0] = stateVersion
	b = pack.AppendUint(b, t.logged)
	b = append(b, byte(t.state))
	b = pack.AppendBool(b, t.players)
	b = pack.AppendUint(b, t.epoch)
	b = pack.AppendUint(b, t.acted)
	b = pack.AppendUint(b, uint64(len(t.seats)))
	for i := range t.seats {
		s := &t.seats[i]
		b = pack.AppendBool(b, s.taken)
		b = pack.AppendBool(b, s.left)
		b = pack.AppendBool(b, s.botOn)
		b = pack.AppendString(b, s.name)
		b = append(b, s.hash[:]...)
		b = pack.AppendBytes(b, s.entropy)
		b = pack.AppendString(b, s.playerID)
		// The staleness bar, which Out.Simultaneous events may leave
		// below the seat's count: saved, since recovery replays none of
		// the events before the snapshot.
		b = pack.AppendUint(b, s.lastSeen)
		// The dedupe window: the accepted requests (a refused one is not
		// in the log either, so a replay would not remember it), as the
		// window keeps them - the id's and the action's digests - and
		// the seqs as deltas.
		n := 0
		s.dedupe.each(func(_ wkey, ans answer) {
			if ans.err == nil {
				n++
			}
		})
		b = pack.AppendUint(b, uint64(n))
		prevSeq := uint64(0)
		s.dedupe.each(func(k wkey, ans answer) {
			if ans.err != nil {
				return
			}
			b = appendWKey(b, k)
			b = binary.BigEndian.AppendUint32(b, ans.act)
			b = binary.AppendVarint(b, int64(ans.seq-prevSeq))
			prevSeq = ans.seq
		})
	}
	b = pack.AppendUint(b, uint64(len(chain.segs)))
	for _, sg := range chain.segs {
		b = pack.AppendUint(b, sg.at)
		b = pack.AppendUint(b, sg.events)
		for _, n := range sg.counts {
			b = pack.AppendUint(b, n)
		}
	}
	b, err := sn.AppendSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], castagnoli))
	t.stateLen = len(b)
	return b, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checked strips an encoding's version byte and checksum.
func checked(b []byte, version byte, what string) ([]byte, error) {
	if len(b) < 5 {
		return nil, fmt.Errorf("%s of %d bytes", what, len(b))
	}
	if b[0] != version {
		return nil, fmt.Errorf("%s version %d", what, b[0])
	}
	if sum := crc32.Checksum(b[5:], castagnoli); sum != binary.BigEndian.Uint32(b[1:5]) {
		return nil, fmt.Errorf("%s checksum %08x, want %08x", what, sum, binary.BigEndian.Uint32(b[1:5]))
	}
	return b[5:], nil
}

// restore sets a new table, before it is added to the host, to a snapshot
// and replays the entries after it. Errors match ErrSnapshot or
// ErrCorruptLog.
func (t *table[A, V, B]) restore(snap *TableSnapshot, entries []Entry[A]) error {
	if err := t.restoreState(snap); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	return t.replayAll(entries)
}

func (t *table[A, V, B]) restoreState(snap *TableSnapshot) error {
	c := t.h.cfg.Codec
	if c == nil {
		return errors.New("no codec configured")
	}
	version := byte(stateVersion)
	if len(snap.State) > 0 && snap.State[0] >= 1 && snap.State[0] < stateVersion {
		version = snap.State[0] // before action digests (3), before id digests (2), before player ids (1)
	}
	raw, err := checked(snap.State, version, "state")
	if err != nil {
		return err
	}
	r := pack.NewReader(raw)
	logged := r.Uint("entries", 1<<62)
	state := State(r.Byte("state"))
	players := r.Bool("players")
	epoch := r.Uint("epoch", 1<<62)
	acted := r.Uint("actions", 1<<62)
	if n := r.Count("seats", maxSeats); r.Err() == nil && n != len(t.seats) {
		return fmt.Errorf("%d seats, the table has %d", n, len(t.seats))
	}
	seats := make([]seat[A, V], len(t.seats))
	for i := range seats {
		s := &seats[i]
		s.taken, s.left, s.botOn = r.Bool("taken"), r.Bool("left"), r.Bool("bot")
		s.name = r.String("name", maxName)
		copy(s.hash[:], r.Fixed("token hash", 32))
		if e := r.Bytes("entropy", maxEntropy); len(e) > 0 {
			s.entropy = slices.Clone(e)
		}
		if version >= 2 {
			s.playerID = r.String("player id", maxName)
		}
		s.lastSeen = r.Uint("last seen", maxEvents)
		n := r.Count("dedupe", t.h.cfg.DedupeWindow)
		prevID, prevSeq := "", uint64(0)
		for range n {
			var k wkey
			var act uint32
			switch {
			case version >= 4:
				if b := r.Fixed("id digest", 8); len(b) == 8 {
					k = wkeyFrom(b)
				}
				if b := r.Fixed("action digest", 4); len(b) == 4 {
					act = binary.BigEndian.Uint32(b)
				}
			case version == 3:
				if b := r.Fixed("id digest", 16); len(b) == 16 {
					k = keyFrom(b).window()
				}
			default:
				// The ids themselves, front-coded.
				common := r.Count("id prefix", len(prevID))
				prevID = prevID[:common] + r.String("id", maxIDLen)
				k = digest(prevID).window()
			}
			if version < 4 {
				// The action itself, digested as the window keeps it.
				if raw := r.Bytes("action", maxAction); r.Err() == nil {
					a, err := c.DecodeAction(raw)
					if err != nil {
						return fmt.Errorf("seat %d: request %x: %w", i, appendWKey(nil, k), err)
					}
					act = t.actionKey(a)
				}
			}
			seq := prevSeq + uint64(r.Int("seq", -maxEvents, maxEvents))
			if r.Err() != nil {
				break
			}
			if seq > maxEvents {
				return fmt.Errorf("seat %d: request %x answered with seq %d", i, appendWKey(nil, k), int64(seq))
			}
			if _, dup := s.dedupe.get(k); dup {
				return fmt.Errorf("seat %d: request %x twice", i, appendWKey(nil, k))
			}
			s.dedupe.add(n, k, answer{act: act, seq: seq})
			prevSeq = seq
		}
	}
	var chain archive
	if n := r.Count("segments", maxSegments); n > 0 {
		chain.segs = make([]segment, n)
		var prev segment
		for i := range chain.segs {
			sg := segment{at: r.Uint("segment", 1<<62), events: r.Uint("segment events", maxEvents), counts: make([]uint64, t.viewers())}
			for v := range sg.counts {
				sg.counts[v] = r.Uint("segment count", maxEvents)
			}
			if r.Err() != nil {
				break
			}
			if i > 0 && sg.at <= prev.at || sg.events < prev.events || sg.at > logged {
				return fmt.Errorf("segment %d at %d with %d events after one at %d with %d", i, sg.at, sg.events, prev.at, prev.events)
			}
			for v, n := range sg.counts {
				if i > 0 && n < prev.counts[v] || n > sg.events {
					return fmt.Errorf("segment %d: %d events of viewer %d", i, n, v)
				}
			}
			chain.segs[i], prev = sg, sg
		}
	}
	game := r.Fixed("game", r.Len())
	if err := r.Done(); err != nil {
		return err
	}
	switch {
	case logged != snap.Entries:
		return fmt.Errorf("state of entry %d saved as entry %d", logged, snap.Entries)
	case state != Playing:
		return fmt.Errorf("table %v", state)
	case len(chain.segs) == 0 || chain.segs[len(chain.segs)-1].at != logged:
		return errors.New("the snapshot's own segment is missing")
	}
	for i := range seats {
		if seats[i].lastSeen > chain.count(i) {
			return fmt.Errorf("seat %d saw event %d of %d", i, seats[i].lastSeen, chain.count(i))
		}
		var bad error
		seats[i].dedupe.each(func(k wkey, ans answer) {
			if ans.seq > chain.count(i) && bad == nil {
				bad = fmt.Errorf("seat %d: request %x answered with seq %d of %d", i, appendWKey(nil, k), ans.seq, chain.count(i))
			}
		})
		if bad != nil {
			return bad
		}
	}
	// The game: seeded as the table was when it started, then restored.
	for i := range t.seats {
		t.seats[i].taken, t.seats[i].entropy = seats[i].taken, seats[i].entropy
	}
	t.seed(t.game)
	sn, ok := t.snapshots()
	if !ok {
		return errors.New("the game takes no snapshots")
	}
	if err := sn.Restore(game); err != nil {
		return fmt.Errorf("game: %w", err)
	}
	for i := range t.seats {
		st, s := &t.seats[i], &seats[i]
		st.taken, st.left, st.botOn, st.name, st.hash, st.entropy = s.taken, s.left, s.botOn, s.name, s.hash, s.entropy
		st.playerID = s.playerID
		st.lastSeen, st.dedupe = s.lastSeen, s.dedupe
		if st.botOn && t.h.cfg.Bot != nil {
			st.bot = t.h.cfg.Bot()
		}
	}
	t.state, t.players, t.epoch, t.acted, t.logged = state, players, epoch, acted, logged
	// The game's part alone, not the whole state, is what rebuild needs.
	t.hist.reset(slices.Clone(game))
	t.capAt = acted
	t.arch, t.chain, t.saved = chain, chain, chain
	t.base = chain.events()
	return nil
}

// Bounds of a request id (the server allows 64 bytes) and of an encoded
// action in a state.
const (
	maxIDLen  = 1 << 10
	maxAction = 1 << 12
)

// encodeSegment encodes events: version, CRC-32C of the rest, the count,
// then each event's time (as the change from the previous one's),
// audience and body or notice.
func (t *table[A, V, B]) encodeSegment(log *chunked[logged[B]], from int) ([]byte, error) {
	c := t.h.cfg.Codec
	n := log.len() - from
	b := make([]byte, 5, 16+24*n)
	b[0] = segmentVersion
	b = pack.AppendUint(b, uint64(n))
	var prev int64
	var body []byte
	var err error
	for i := from; i < log.len(); i++ {
		e := log.at(i)
		b = binary.AppendVarint(b, e.at-prev)
		prev = e.at
		b = pack.AppendUint(b, uint64(e.to+1)) // 0: everyone, else the seat + 1
		if n := e.notice; n != nil {
			b = append(b, 1, byte(n.Kind))
			b = pack.AppendInt(b, n.Seat)
			b = pack.AppendString(b, n.Name)
			continue
		}
		if body, err = c.AppendBody(body[:0], e.body); err != nil {
			return nil, err
		}
		b = append(b, 0)
		b = pack.AppendBytes(b, body)
	}
	binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], castagnoli))
	return b, nil
}

// decodeSegment decodes what encodeSegment wrote.
func (t *table[A, V, B]) decodeSegment(raw []byte) ([]Event[B], error) {
	c := t.h.cfg.Codec
	raw, err := checked(raw, segmentVersion, "segment")
	if err != nil {
		return nil, err
	}
	r := pack.NewReader(raw)
	n := r.Count("events", maxEvents)
	evs := make([]Event[B], 0, min(n, len(raw)))
	var at int64
	for range n {
		at += int64(r.Int("time", -1<<62, 1<<62))
		e := Event[B]{At: time.Unix(0, at)}
		if to := r.Count("audience", maxSeats); to > 0 {
			e.To = Only(to - 1)
		}
		switch kind := r.Byte("kind"); kind {
		case 1:
			e.Notice = &Notice{Kind: NoticeKind(r.Byte("notice")), Seat: r.Int("seat", -1, maxSeats), Name: r.String("name", maxName)}
		case 0:
			raw := r.Bytes("body", maxBody)
			if r.Err() != nil {
				break
			}
			if e.Body, err = c.DecodeBody(raw); err != nil {
				return nil, fmt.Errorf("event %d: %w", len(evs), err)
			}
		default:
			r.Fail("event kind %d", kind)
		}
		if r.Err() != nil {
			break
		}
		evs = append(evs, e)
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return evs, nil
}

// archived returns viewer v's events (v is a seat, or len(seats) for the
// public) from its event cursor+1 to the end of the archive segment that
// holds that event, read from the store. The archive is fixed when the
// table is recovered, so no lock guards it.
func (t *table[A, V, B]) archived(ctx context.Context, arch archive, v int, cursor uint64) ([]Event[B], error) {
	segs := arch.segs
	i := sort.Search(len(segs), func(i int) bool { return segs[i].counts[v] > cursor })
	if i == len(segs) {
		return nil, fmt.Errorf("event %d of viewer %d is not archived", cursor+1, v)
	}
	evs, err := t.segment(ctx, arch, i)
	if err != nil {
		return nil, fmt.Errorf("%w: archived events: %w", ErrUnavailable, err)
	}
	var first uint64
	if i > 0 {
		first = segs[i-1].counts[v]
	}
	out := make([]Event[B], 0, segs[i].counts[v]-first)
	for _, e := range evs {
		if v == len(t.seats) && !e.To.Private || v < len(t.seats) && e.To.Sees(v) {
			out = append(out, e)
		}
	}
	if uint64(len(out)) != segs[i].counts[v]-first {
		return nil, fmt.Errorf("%w: archived events: segment %d has %d events of viewer %d, its index %d", ErrUnavailable, i, len(out), v, segs[i].counts[v]-first)
	}
	return out[cursor-first:], nil
}

// segment returns archive segment i decoded, from the cache or the store.
func (t *table[A, V, B]) segment(ctx context.Context, arch archive, i int) ([]Event[B], error) {
	t.cache.mu.Lock()
	for _, c := range t.cache.segs {
		if c.i == i {
			t.cache.mu.Unlock()
			return c.events, nil
		}
	}
	t.cache.mu.Unlock()
	sg := arch.segs[i]
	raw, err := t.store.LoadEvents(ctx, t.rec.ID, sg.at)
	if err != nil {
		return nil, err
	}
	evs, err := t.decodeSegment(raw)
	if err != nil {
		return nil, fmt.Errorf("segment of the snapshot at %d: %w", sg.at, err)
	}
	var start uint64
	if i > 0 {
		start = arch.segs[i-1].events
	}
	if uint64(len(evs)) != sg.events-start {
		return nil, fmt.Errorf("segment of the snapshot at %d has %d events, its index %d", sg.at, len(evs), sg.events-start)
	}
	t.cache.mu.Lock()
	if len(t.cache.segs) >= maxCached {
		t.cache.segs = t.cache.segs[1:]
	}
	t.cache.segs = append(t.cache.segs, cachedSeg[B]{i: i, events: evs})
	t.cache.mu.Unlock()
	return evs, nil
}
