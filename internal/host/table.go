package host

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/clock"
)

// maxEntropy bounds the entropy a player may send when joining.
const maxEntropy = 64

// maxName bounds a player's name.
const maxName = 64

// retryDelay is how long a table waits before it retries a step that the
// store refused and that no client is waiting for (a bot's move, a timeout).
const retryDelay = time.Second

// table is one hosted table. Everything but the fields under mu and xmu
// belongs to the table's runner: the one goroutine at a time that runs the
// calls queued on the table (exec.go). A table has no goroutine of its own.
//
// Every change goes the same way: check, build the entries that record it,
// commit them to the store, then apply them (applyAction, applyNotice,
// applyRelease). Recovery replays the stored entries through the same apply
// functions, so a recovered table is the table that was.
type table[A comparable, V, B any] struct {
	h     *Host[A, V, B]
	rec   TableRecord
	set   Settings
	log   tableLog
	clk   clock.Clock
	store Store[A]

	// The executor (exec.go), under xmu.
	xmu     sync.Mutex
	queue   []func()      // calls waiting for the runner, in order
	running bool          // a goroutine is the table's runner
	quit    bool          // Host.Close asked the runner to stop
	over    bool          // the table stopped: calls are refused
	stopped chan struct{} // closed when the table stops
	stopErr error         // why it stopped (ErrClosed, an EvictedError, ...); read after stopped
	ctx     context.Context
	cancel  context.CancelFunc
	ro      bool // read back from the store for one request: no executor, no writes

	// Owned by the table's runner.
	game     Game[A, V, B]
	newGame  NewGame[A, V, B]
	hist     history[A]    // the game's base state and the actions since, to rebuild the game (history.go)
	acted    uint64        // actions accepted since the start
	capAt    uint64        // acted at the latest snapshot taken or restored
	stateLen int           // the size of the latest state encoded, the next one's first guess
	keyBuf   []byte        // actionKey's encoding of an action
	keySeed  maphash.Seed  // actionKey's without a Codec
	logged   uint64        // entries stored
	storing  []Entry[A]    // the entries of a commit, for the store, reused
	chain    archive       // the event segments of the snapshots taken, stored or pending
	saved    archive       // those of chain the store took
	waiting  []pendingSnap // snapshots taken, not yet handed to the store (flush), oldest first
	writing  *snapWrite    // the snapshot write in flight, if any
	state    State
	players  bool // a player held a seat at the start: the claim dwell applies
	seats    []seat[A, V]
	epoch    uint64        // counts steps that published game events other than Simultaneous ones: a new decision point
	timer    tableTimer    // what the game waits for (arm) or retryLater's retry (timer.go)
	timerKey waitKey       // the wait arm armed the timer for; zero for none or a retry
	clock    decisionClock // when the timer of a turn or claim window runs out, and for whom
	hold     hold[B]
	holdEnd  tableTimer       // the claim dwell's timer (timer.go)
	replay   bool             // replaying stored entries: no timers
	spent    map[string]bool  // the ids of the join tickets used (reserve.go)
	closing  bool             // CloseWaiting evicts the table
	abandon  bool             // Abandon ended the game: finished, a draw
	subs     []*Feed[A, V, B] // the open feeds (Subscribe), woken on every change a stream may see

	// The table's life in memory (lifecycle.go).
	evictTimer clock.Timer
	evictGen   uint64
	finishedAt time.Time // when the game ended
	marked     bool      // the store knows the game ended (Store.Finish)
	exit       bool      // the table left memory: run returns

	// Shared with streams and readers, under mu. A table holds in memory
	// only the events logged after the latest stored snapshot of its
	// game in play (or the one it was recovered from); those before it
	// (arch) are read back from the store.
	arch   archive     // written by the table's runner under mu (snapshot.go, archive)
	base   uint64      // the events in arch: events.at(0) is the table's event base
	cache  segCache[B] // decoded segments of arch
	mu     sync.RWMutex
	events chunked[logged[B]] // the table's log from event base on, in order (event.go)
	seen   []chunked[int32]   // seen[s].at(n-1-arch.count(s)) is the index in the table's log of seat s's event n
	public chunked[int32]     // the same for the public events: the spectators' numbering
	// changed is closed by the next append and then dropped; made on
	// demand, under chMu with mu read-locked (changedChan), by a stream
	// that waits: a table whose streams are all Feeds makes none.
	changed chan struct{}
	chMu    sync.Mutex
	done    bool // the game is over: no more events
	snap    Info
	wires   wireCache // the latest events encoded, for the streams (encode.go)
}

type waitKey struct {
	kind  WaitKind
	epoch uint64
	armed bool
}

// hold is a claim dwell in progress: the events of the steps taken since
// the window opened wait in outs until it ends.
type hold[B any] struct {
	on    bool
	since time.Time // when the window opened
	outs  []Out[B]
	ends  chan struct{} // closed when the hold ends; snapshots wait for it
}

type seat[A comparable, V any] struct {
	taken    bool // a player joined
	left     bool // and gave the seat up after the start
	name     string
	hash     [32]byte // SHA-256 of the token
	entropy  []byte
	botOn    bool
	bot      Bot[A, V] // nil: the game's default action
	conns    int       // open streams
	graceGen uint64
	grace    clock.Timer
	lastSeen uint64        // the seat's seq of the newest game event it may see, Simultaneous ones aside: the staleness bar of its actions
	offer    uint64        // the seat's seq of its newest offer (Out.Offer), 0 for none
	revoked  chan struct{} // closed when the player leaves: its streams end
	playerID string        // the room service's id of the player
	resv     reservation   // while the table waits
	bucket   *Bucket
	dedupe   window // the answers to the latest request ids (dedupe.go)
}

func newTable[A comparable, V, B any](h *Host[A, V, B], rec TableRecord, g Game[A, V, B], newGame NewGame[A, V, B]) *table[A, V, B] {
	ctx, cancel := context.WithCancel(context.Background())
	t := &table[A, V, B]{
		h: h, rec: rec, set: rec.Settings,
		log: tableLog{h.tlog, rec.ID}, clk: h.cfg.Clock, store: h.cfg.Store,
		stopped: make(chan struct{}),
		running: true, // the creator's until Host.add releases it
		ctx:     ctx, cancel: cancel,
		game: g, newGame: newGame, state: Waiting,
		seats: make([]seat[A, V], rec.Settings.Seats),
		seen:  make([]chunked[int32], rec.Settings.Seats),
	}
	if h.cfg.Codec != nil {
		t.hist.codec = h.cfg.Codec
	} else {
		t.keySeed = maphash.MakeSeed()
	}
	for i := range t.seats {
		t.seats[i].bucket = NewBucket(h.cfg.SeatRate)
		t.seats[i].revoked = make(chan struct{})
	}
	t.refresh()
	return t
}

// guard runs f, and the bookkeeping after it, as the table's runner
// (exec.go) and turns a panic there (the game's Apply, View, Default, a
// bot, our own code) into a *DamagedError carrying a *PanicError: one
// table's panic must not take the server, the caller's goroutine or every
// other table down with it.
func (t *table[A, V, B]) guard(f func()) (err *DamagedError) {
	defer t.catch(&err)
	f()
	t.refresh()
	t.flush()
	return nil
}

// catch is guard's deferred recovery; it calls recover itself, as it must.
func (t *table[A, V, B]) catch(err **DamagedError) {
	if r := recover(); r != nil {
		*err = &DamagedError{ID: t.rec.ID, Err: &PanicError{Value: r, Stack: debug.Stack()}}
	}
}

// setAside takes a table whose runner panicked out of play, as
// recovery sets aside a table damaged in the store: it leaves the host's
// map and listings, its timers stop, its waiting requests and open
// streams end with err, and every later request that names it gets err
// (DATA_LOSS). Its stored data is left as it is, for the operator: the
// game may be in any state after a panic, so nothing more is written.
func (t *table[A, V, B]) setAside(err *DamagedError) {
	t.stopErr = err
	func() {
		// stopClocks touches only the table's own fields; a panic there
		// would be a second bug, which must not keep the table listed.
		defer func() { _ = recover() }()
		t.stopClocks()
	}()
	h := t.h
	h.mu.Lock()
	if h.tables[t.rec.ID] == t {
		delete(h.tables, t.rec.ID)
		h.unplace(t)
		if t.state != Finished {
			h.unfinished.n.Add(-1)
		}
	}
	if h.damaged == nil {
		h.damaged = map[string]*DamagedError{}
	}
	h.damaged[t.rec.ID] = err
	h.mu.Unlock()
	var p *PanicError
	errors.As(err, &p)
	t.log.Error("table set aside: a call into it panicked; its stored data is kept as it is",
		zap.String("panic", fmt.Sprint(p.Value)), zap.ByteString("stack", p.Stack))
	h.obs.TableSetAside(SetAsidePanic)
}

// stopClocks stops every timer of the table.
func (t *table[A, V, B]) stopClocks() {
	t.stopTimer()
	t.stopDwell()
	t.stopEvict()
	for i := range t.seats {
		t.stopGrace(i)
	}
}

func (t *table[A, V, B]) info() Info {
	t.mu.RLock()
	defer t.mu.RUnlock()
	in := t.snap
	in.Seats = slices.Clone(in.Seats)
	return in
}

// refresh publishes the table's description for readers.
func (t *table[A, V, B]) refresh() {
	in := Info{ID: t.rec.ID, Settings: t.set, Meta: t.rec.Meta, Created: t.rec.Created, State: t.state, Seats: t.seatInfos()}
	t.mu.Lock()
	in.LastSeq = t.arch.count(len(t.seats)) + uint64(t.public.len())
	t.snap = in
	t.mu.Unlock()
}

// seatInfos describes the seats. Most calls (every Act) change none of
// them, so the slice of the last description is shared until one does:
// readers of t.snap never write to it, and only the runner writes
// t.snap.
func (t *table[A, V, B]) seatInfos() []SeatInfo {
	last := t.snap.Seats
	if len(last) == len(t.seats) {
		same := true
		for i := range t.seats {
			if last[i] != t.seatInfo(i) {
				same = false
				break
			}
		}
		if same {
			return last
		}
	}
	seats := make([]SeatInfo, len(t.seats))
	for i := range t.seats {
		seats[i] = t.seatInfo(i)
	}
	return seats
}

func (t *table[A, V, B]) seatInfo(i int) SeatInfo {
	s := &t.seats[i]
	return SeatInfo{Taken: s.taken, Name: s.name, Bot: s.botOn, Connected: s.conns > 0, PlayerID: s.playerID, Reserved: s.resv.on}
}

// count is how many events seat s may see so far: its newest seq.
func (t *table[A, V, B]) count(s int) uint64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.arch.count(s) + uint64(t.seen[s].len())
}

// seatOf finds the seat of a token. It compares the token's hash with every
// seat's in constant time, so timing tells nothing about which seat or how
// much of a token matched.
func (t *table[A, V, B]) seatOf(token string) (int, error) {
	if token == "" {
		return 0, ErrMissingToken
	}
	// Hashed from a buffer on the stack: no allocation for the token of
	// every call, which clients keep short (the server bounds it).
	var buf [128]byte
	var h [sha256.Size]byte
	if len(token) <= len(buf) {
		h = sha256.Sum256(append(buf[:0], token...))
	} else {
		h = sha256.Sum256([]byte(token))
	}
	found := -1
	for i := range t.seats {
		s := &t.seats[i]
		if subtle.ConstantTimeCompare(h[:], s.hash[:]) == 1 && s.taken && !s.left {
			found = i
		}
	}
	if found < 0 {
		return 0, ErrWrongToken
	}
	return found, nil
}

// commit stores entries; nothing may change before it succeeds.
func (t *table[A, V, B]) commit(entries ...Entry[A]) error {
	return t.commitAfter(nil, entries...)
}

// commitAfter stores the entries of before, then entries, in one append.
// They go to the store in a slice of the table's, reused: handed to the
// store's interface as they came, every caller's slice escaped, an
// allocation every action and every dwell's end (Store.Append keeps
// none).
func (t *table[A, V, B]) commitAfter(before []Entry[A], entries ...Entry[A]) error {
	if t.ro {
		// Cannot happen: every change of a finished game is refused
		// before it is committed.
		return fmt.Errorf("%w: the table is read back from the store", ErrGameOver)
	}
	t.storing = append(append(t.storing[:0], before...), entries...)
	err := t.store.Append(t.ctx, t.rec.ID, t.storing...)
	n := len(t.storing)
	clear(t.storing) // what they point to is not the table's to keep
	if err != nil {
		if errors.Is(err, ErrFenced) {
			// Another node took the table over: nothing more of it is
			// this node's to change.
			t.giveUp(err)
			return &ReleasedError{ID: t.rec.ID, Err: err}
		}
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	t.logged += uint64(n)
	return nil
}

func (t *table[A, V, B]) notice(kind NoticeKind, seat int) Entry[A] {
	n := Notice{Kind: kind, Seat: seat}
	if seat >= 0 && seat < len(t.seats) {
		n.Name = t.seats[seat].name
	}
	return Entry[A]{At: t.clk.Now(), Kind: EntryNotice, Actor: seat, Notice: n}
}

// dwell is the claim dwell in force.
func (t *table[A, V, B]) dwell() time.Duration {
	if !t.players {
		return 0
	}
	return t.set.ClaimDwell
}

// emit publishes a step's game events, or holds them: while a claim dwell
// is in progress, and from an event that opens one.
func (t *table[A, V, B]) emit(at time.Time, outs []Out[B]) {
	if t.hold.on {
		t.hold.outs = append(t.hold.outs, outs...)
		return
	}
	for i, o := range outs {
		if o.Dwell && t.dwell() > 0 {
			t.publish(at, outs[:i+1])
			t.hold = hold[B]{on: true, since: at, outs: slices.Clone(outs[i+1:]), ends: make(chan struct{})}
			if !t.replay {
				t.armDwell()
			}
			return
		}
	}
	t.publish(at, outs)
}

// publish appends events to the log, numbers them for their viewers and
// wakes the streams.
func (t *table[A, V, B]) publish(at time.Time, outs []Out[B], notices ...Entry[A]) {
	if len(outs) == 0 && len(notices) == 0 {
		return
	}
	t.mu.Lock()
	decided := false // an event changed what a seat may decide
	for _, o := range outs {
		t.appendEvent(Event[B]{At: at, To: o.To, Body: o.Body})
		for i := range t.seats {
			if !o.To.Sees(i) {
				continue
			}
			st := &t.seats[i]
			if o.Simultaneous {
				// The bar stays: a decision made before this event is as
				// good as one made after. A snapshot now shows the event,
				// so it cannot be numbered before a standing offer.
				st.offer = 0
				continue
			}
			st.lastSeen = t.arch.count(i) + uint64(t.seen[i].len())
			if o.Offer && o.To.Private {
				st.offer = st.lastSeen
			}
		}
		decided = decided || !o.Simultaneous
	}
	for _, e := range notices {
		n := e.Notice
		to := Everyone
		if n.Kind == NoticeTimedOut {
			// Private: a public timeout in a claim window would tell the
			// other seats who had something to claim.
			to = Only(n.Seat)
		}
		t.appendEvent(Event[B]{At: e.At, To: to, Notice: &n})
	}
	t.signal()
	t.mu.Unlock()
	t.wake()
	if decided {
		t.epoch++
	}
}

// appendEvent logs one event and gives it the next number of each viewer.
// The caller holds mu.
func (t *table[A, V, B]) appendEvent(e Event[B]) {
	i := int32(t.base) + int32(t.events.len())
	t.events.push(logEvent(e))
	if t.h.cfg.Encode != nil {
		t.wires.claim(i)
	}
	if !e.To.Private {
		t.public.push(i)
	}
	for s := range t.seen {
		if e.To.Sees(s) {
			t.seen[s].push(i)
		}
	}
}

// step applies an action, stores it and publishes its events. On error
// nothing changed. Notices given (a timeout notice) are stored and
// published before the action, so that a seat learns it timed out before
// the events its automatic move caused (its next offer among them);
// recovery replays the entries in the same order.
func (t *table[A, V, B]) step(actor int, a A, requestID string, notices ...Entry[A]) error {
	outs, err := t.game.Apply(a)
	if err != nil {
		return err
	}
	e := Entry[A]{At: t.clk.Now(), Kind: EntryAction, Actor: actor, Action: a, RequestID: requestID}
	if err = t.commitAfter(notices, e); err != nil {
		t.rebuild()
		return err
	}
	for _, n := range notices {
		t.applyNotice(n)
	}
	t.applyAction(e, outs)
	t.capture()
	return nil
}

// auto is step for the moves the host plays itself, told to the observer.
func (t *table[A, V, B]) auto(by Actor, actor int, a A, extra ...Entry[A]) error {
	err := t.step(actor, a, "", extra...)
	t.h.obs.Acted(by, t.h.cfg.ActionKind(a), err)
	return err
}

// applyAction records an action the game has applied and emits its events.
func (t *table[A, V, B]) applyAction(e Entry[A], outs []Out[B]) {
	if !t.replay {
		for _, o := range outs {
			if o.Dwell {
				t.h.obs.ClaimWindow()
			}
		}
	}
	t.hist.add(e.Action)
	t.acted++
	t.emit(e.At, outs)
	if e.RequestID != "" && e.Actor >= 0 && e.Actor < len(t.seats) {
		t.remember(e.Actor, e.RequestID, e.Action, t.count(e.Actor), nil)
	}
}

// applyNotice changes what a notice records and publishes it. Side effects
// outside the table's state (streams, timers, bots) are the live caller's.
func (t *table[A, V, B]) applyNotice(e Entry[A]) {
	n := e.Notice
	var st *seat[A, V]
	if n.Seat >= 0 && n.Seat < len(t.seats) {
		st = &t.seats[n.Seat]
	}
	switch n.Kind {
	case NoticeJoined:
		st.taken, st.name, st.hash, st.entropy = true, n.Name, e.TokenHash, slices.Clone(e.Entropy)
		st.playerID = n.PlayerID
		st.revoked = make(chan struct{})
		t.spend(e.TicketID)
	case NoticeReserved:
		t.applyReserved(e)
		return // seat data, not an event of the table
	case NoticeAbandoned:
		t.applyAbandoned()
	case NoticeLeft:
		if t.state == Waiting {
			// Streams of the old player still count until they end; a
			// reservation stays.
			*st = seat[A, V]{bucket: st.bucket, conns: st.conns, revoked: make(chan struct{}), resv: st.resv}
			if st.resv.on {
				st.name, st.playerID = st.resv.name, st.resv.playerID
			}
		} else {
			st.left, st.hash = true, [32]byte{}
		}
	case NoticeStarted:
		t.state = Playing
		t.players = slices.ContainsFunc(t.seats, func(s seat[A, V]) bool { return s.taken })
		t.seed(t.game) // before the first step, also when replaying
	case NoticeBotTookOver:
		st.botOn = true
		if t.h.cfg.Bot != nil {
			st.bot = t.h.cfg.Bot()
		}
	case NoticePlayerReturned:
		st.botOn, st.bot = false, nil
	}
	t.publish(e.At, nil, e)
}

// release ends a claim dwell: the held events are published.
func (t *table[A, V, B]) release() error {
	e := Entry[A]{At: t.clk.Now(), Kind: EntryRelease, Actor: System}
	if err := t.commit(e); err != nil {
		return err
	}
	t.applyRelease(e)
	t.capture()
	return nil
}

func (t *table[A, V, B]) applyRelease(e Entry[A]) {
	outs := t.hold.outs
	if !t.replay {
		t.h.obs.Dwell(e.At.Sub(t.hold.since))
	}
	t.stopDwell()
	close(t.hold.ends)
	t.hold = hold[B]{}
	t.emit(e.At, outs) // may open the next dwell
}

// rebuild makes the game again from its history (history.go): the
// start, or the snapshot the table was recovered from, and the actions
// accepted since. After a refused write it undoes the action that the
// game had already applied.
func (t *table[A, V, B]) rebuild() {
	g, err := t.newGame()
	if err == nil {
		if t.state != Waiting {
			t.seed(g)
		}
		if t.hist.base != nil {
			if sn, ok := g.(Snapshotter); !ok {
				err = errors.New("the game takes no snapshots")
			} else {
				err = sn.Restore(t.hist.base)
			}
		}
	}
	if err == nil {
		err = t.hist.each(func(i int, a A) error {
			if _, err := g.Apply(a); err != nil {
				return fmt.Errorf("replay action %d: %w", i, err)
			}
			return nil
		})
	}
	if err != nil {
		// Cannot happen with a deterministic game; if it does, the table
		// keeps the game as it is rather than lose it.
		t.log.Error("rebuild game", zap.Error(err))
		return
	}
	t.game = g
}

// replayAll rebuilds a stored table from its entries, before it is added
// to the host.
func (t *table[A, V, B]) replayAll(entries []Entry[A]) error {
	t.replay = true
	defer func() { t.replay = false }()
	for i, e := range entries {
		if err := t.replayEntry(e); err != nil {
			return fmt.Errorf("entry %d (%v): %w: %w", i, e.Kind, ErrCorruptLog, err)
		}
	}
	t.refresh()
	return nil
}

func (t *table[A, V, B]) replayEntry(e Entry[A]) error {
	t.logged++
	switch e.Kind {
	case EntryAction:
		outs, err := t.game.Apply(e.Action)
		if err != nil {
			return err
		}
		t.applyAction(e, outs)
	case EntryNotice:
		if s := e.Notice.Seat; s < -1 || s >= len(t.seats) || s == -1 && e.Notice.Kind != NoticeStarted && e.Notice.Kind != NoticeAbandoned {
			return fmt.Errorf("notice %v of seat %d", e.Notice.Kind, s)
		}
		t.applyNotice(e)
	case EntryRelease:
		if !t.hold.on {
			return errors.New("release without a claim dwell")
		}
		t.applyRelease(e)
	default:
		return fmt.Errorf("entry kind %d", e.Kind)
	}
	return nil
}

// resume starts a recovered table's clocks: the grace of every player's
// seat (no stream is open yet), the claim dwell in progress, and the timer
// of what the game waits for.
func (t *table[A, V, B]) resume() {
	if t.state != Playing {
		return
	}
	for i, s := range t.seats {
		if s.taken && !s.left && !s.botOn {
			t.armGrace(i)
		}
	}
	if t.hold.on {
		t.armDwell()
	}
	t.settle()
}

func (t *table[A, V, B]) join(name string, entropy []byte) (int, string, error) {
	if len(entropy) > maxEntropy {
		return 0, "", fmt.Errorf("%d bytes of entropy, at most %d: %w", len(entropy), maxEntropy, ErrBadRequest)
	}
	if len(name) > maxName {
		return 0, "", fmt.Errorf("name of %d bytes, at most %d: %w", len(name), maxName, ErrBadRequest)
	}
	if t.state != Waiting {
		return 0, "", ErrAlreadyStarted
	}
	s := slices.IndexFunc(t.seats, func(s seat[A, V]) bool { return !s.taken && !s.resv.on })
	if s < 0 {
		if slices.ContainsFunc(t.seats, func(s seat[A, V]) bool { return !s.taken }) {
			return 0, "", ErrSeatReserved
		}
		return 0, "", ErrTableFull
	}
	token, hash, err := newToken()
	if err != nil {
		return 0, "", err
	}
	e := t.notice(NoticeJoined, s)
	e.Notice.Name = name
	e.TokenHash = hash
	e.Entropy = slices.Clone(entropy)
	if err := t.commit(e); err != nil {
		return 0, "", err
	}
	t.applyNotice(e)
	t.log.Info("seat joined", zap.Int("seat", s), zap.String("name", name))
	if t.full() {
		if err := t.start(); err != nil {
			// The seat is taken; armEvict retries the start.
			t.log.Warn("auto start", zap.Error(err), zap.Duration("retry", startRetry))
		}
	}
	t.armEvict() // the idle clock starts again (or stops, if it started)
	return s, token, nil
}

// full reports whether every seat is taken.
func (t *table[A, V, B]) full() bool {
	return !slices.ContainsFunc(t.seats, func(s seat[A, V]) bool { return !s.taken })
}

func (t *table[A, V, B]) leave(token string) error {
	s, err := t.seatOf(token)
	if err != nil {
		return err
	}
	st := &t.seats[s]
	switch t.state {
	case Waiting:
		e := t.notice(NoticeLeft, s)
		if err := t.commit(e); err != nil {
			return err
		}
		close(st.revoked)
		t.wake()
		t.applyNotice(e)
		t.armEvict()
	case Playing:
		left := t.notice(NoticeLeft, s)
		bot := t.notice(NoticeBotTookOver, s)
		if err := t.commit(left, bot); err != nil {
			return err
		}
		close(st.revoked)
		t.wake()
		t.stopGrace(s)
		t.applyNotice(left)
		t.applyNotice(bot)
		t.settle()
	case Finished:
		return ErrGameOver
	}
	t.log.Info("seat left", zap.Int("seat", s))
	return nil
}

func (t *table[A, V, B]) startBy(token string) error {
	if token == "" {
		return ErrMissingToken
	}
	h := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(h[:], t.rec.OwnerHash[:]) != 1 {
		if _, err := t.seatOf(token); err != nil {
			return err
		}
	}
	if t.state != Waiting {
		return ErrAlreadyStarted
	}
	return t.start()
}

// start begins the game: bots take the empty seats and the first system
// step (the deal) follows at once.
func (t *table[A, V, B]) start() error {
	entries := []Entry[A]{t.notice(NoticeStarted, -1)}
	for i, s := range t.seats {
		if !s.taken {
			if !t.set.FillWithBots {
				return ErrSeatsEmpty
			}
			entries = append(entries, t.notice(NoticeBotTookOver, i))
		}
	}
	if err := t.commit(entries...); err != nil {
		return err
	}
	for _, e := range entries {
		t.applyNotice(e)
	}
	for i := range t.seats {
		if t.seats[i].taken && t.seats[i].conns == 0 {
			t.armGrace(i)
		}
	}
	t.stopEvict()
	t.log.Info("table started")
	t.life(LifeStarted)
	t.settle()
	return nil
}

// act runs a seat's request: authentication, rate limit, dedupe, then the
// action itself.
func (t *table[A, V, B]) act(r Request[A]) (uint64, error) {
	s, err := t.seatOf(r.Token)
	if err != nil {
		return 0, err
	}
	return t.actAs(s, r)
}

// actAs is act for the seat the token's hash was found at already (a
// hash per action is enough).
func (t *table[A, V, B]) actAs(s int, r Request[A]) (uint64, error) {
	st := &t.seats[s]
	if wait := st.bucket.Take(t.clk.Now()); wait > 0 {
		return 0, fmt.Errorf("seat %d: %w", s, &RateLimitedError{Wait: wait})
	}
	if r.RequestID == "" {
		return 0, fmt.Errorf("empty request id: %w", ErrBadRequest)
	}
	if len(r.RequestID) > maxIDLen {
		// Longer than a snapshot (or a store) keeps.
		return 0, fmt.Errorf("request id of %d bytes, at most %d: %w", len(r.RequestID), maxIDLen, ErrBadRequest)
	}
	if prev, ok := st.dedupe.get(digest(r.RequestID).window()); ok {
		if prev.act != t.actionKey(r.Action) {
			return 0, fmt.Errorf("request id %q: %w", r.RequestID, ErrRequestIDReused)
		}
		return prev.seq, prev.err
	}
	seq, err := t.tryAct(s, r)
	if err != nil && !errors.Is(err, ErrUnavailable) {
		t.remember(s, r.RequestID, r.Action, seq, err)
	}
	return seq, err
}

func (t *table[A, V, B]) remember(s int, id string, a A, seq uint64, err error) {
	t.seats[s].dedupe.add(t.h.cfg.DedupeWindow, digest(id).window(), answer{act: t.actionKey(a), seq: seq, err: err})
}

// awaited reports whether a claim dwell in progress waits for seat s: the
// window is still open in the game and s has not answered.
func (t *table[A, V, B]) awaited(s int) bool {
	if !t.hold.on || len(t.hold.outs) > 0 {
		return false
	}
	p := t.game.Pending()
	return p.Kind == WaitClaim && slices.Contains(p.Seats, s)
}

func (t *table[A, V, B]) tryAct(s int, r Request[A]) (uint64, error) {
	switch t.state {
	case Waiting:
		return 0, ErrNotStarted
	case Finished:
		return 0, ErrGameOver
	}
	if head := t.count(s); r.LastSeq > head {
		return 0, fmt.Errorf("last seq: %w", &SeqAheadError{Seq: r.LastSeq, Newest: head})
	}
	if newest := t.seats[s].lastSeen; r.LastSeq < newest {
		return 0, &StaleSeqError{Last: r.LastSeq, Newest: newest}
	}
	if t.hold.on && !t.awaited(s) {
		// The same answer whether or not the window waits for others, and
		// whatever the game has done since it opened.
		return 0, fmt.Errorf("seat %d: %w", s, ErrWindowOpen)
	}
	if t.seats[s].botOn {
		// The player is back (it acts without a stream, or before its
		// stream reconnected).
		if err := t.playerReturned(s); err != nil {
			return 0, err
		}
	}
	if err := t.step(s, r.Action, r.RequestID); err != nil {
		return 0, fmt.Errorf("seat %d: %w", s, err)
	}
	seq := t.count(s)
	t.settle()
	return seq, nil
}

// settle plays what needs no player - system steps and bot moves - then
// arms the timer for what the game waits for. During a claim dwell only the
// window's answers are taken.
func (t *table[A, V, B]) settle() {
	for range 100000 {
		if t.hold.on {
			p := t.game.Pending()
			if !t.awaitedAny(p) {
				t.stopTimer() // the dwell's own timer ends the hold
				return
			}
			if i := slices.IndexFunc(p.Seats, func(s int) bool { return t.seats[s].botOn }); i >= 0 {
				if err := t.botMove(p.Seats[i]); err != nil {
					t.retryLater(err)
					return
				}
				continue
			}
			t.arm(p)
			return
		}
		if t.game.Over() || t.abandon {
			t.finish()
			return
		}
		p := t.game.Pending()
		if p.Kind == WaitSystem && (t.set.RoundPause == 0 || t.acted == 0) {
			if err := t.auto(BySystem, System, t.game.Default(System)); err != nil {
				t.retryLater(err)
				return
			}
			continue
		}
		if s := slices.IndexFunc(p.Seats, func(s int) bool { return t.seats[s].botOn }); s >= 0 {
			if err := t.botMove(p.Seats[s]); err != nil {
				t.retryLater(err)
				return
			}
			continue
		}
		t.arm(p)
		return
	}
	t.log.Error("settle: game does not wait for anyone after 100000 automatic steps")
}

// awaitedAny reports whether the claim dwell in progress still waits for
// answers (p is the game's Pending).
func (t *table[A, V, B]) awaitedAny(p Pending) bool {
	return len(t.hold.outs) == 0 && p.Kind == WaitClaim && len(p.Seats) > 0
}

func (t *table[A, V, B]) botMove(s int) error {
	var err error
	if b := t.seats[s].bot; b != nil {
		var a A
		if a, err = b.Act(s, t.game.View(s)); err == nil {
			if err = t.auto(ByBot, s, a); err == nil {
				return nil
			}
		}
		if errors.Is(err, ErrUnavailable) {
			return err
		}
		t.log.Warn("bot move refused, playing the default", zap.Int("seat", s), zap.Error(err))
	}
	if err = t.auto(ByBot, s, t.game.Default(s)); err != nil {
		return fmt.Errorf("default move of seat %d: %w", s, err)
	}
	return nil
}

// retryLater schedules another settle after a step that no client waits for
// failed.
func (t *table[A, V, B]) retryLater(err error) {
	t.log.Error("automatic step", zap.Error(err))
	t.stopTimer()
	t.armTimer(retryDelay)
}

// arm starts the timer for what the game waits for, unless the same wait
// already has one: answers that publish nothing (a pass in a claim window)
// do not restart the clock.
func (t *table[A, V, B]) arm(p Pending) {
	key := waitKey{kind: p.Kind, epoch: t.epoch, armed: true}
	if key == t.timerKey {
		return
	}
	t.stopTimer()
	var d time.Duration
	switch p.Kind {
	case WaitTurn:
		d = t.set.TurnTime
	case WaitClaim:
		d = t.set.ClaimTime
	case WaitSystem:
		d = t.set.RoundPause
	}
	if d <= 0 {
		return
	}
	t.timerKey = key
	t.armTimer(d)
	if p.Kind == WaitTurn || p.Kind == WaitClaim {
		t.clock = decisionClock{ends: t.clk.Now().Add(d)}
		for _, s := range p.Seats {
			t.clock.seats |= 1 << uint(s)
		}
	}
}

// armTimer arms the table's timer for d from now: arm's wait if timerKey
// is set, retryLater's retry if not.
func (t *table[A, V, B]) armTimer(d time.Duration) {
	if !t.timer.ready() {
		t.timer.init(t.post, t.timerDue)
	}
	t.timer.arm(t.clk, d)
}

// timerDue is the table's timer running out: the seats the game waits
// for play their defaults, or the retry settles.
func (t *table[A, V, B]) timerDue() {
	if !t.timer.take(t.clk.Now()) {
		return
	}
	if t.timerKey.armed {
		t.expire()
		return
	}
	t.settle()
}

func (t *table[A, V, B]) stopTimer() {
	t.timer.stop()
	t.timerKey = waitKey{}
	t.clock = decisionClock{}
}

// decisionClock is the running timer of a turn or a claim window: when it
// runs out and the seats it runs for.
type decisionClock struct {
	ends  time.Time
	seats uint64 // bit s: seat s
}

// left is how long seat s has left to decide on the table's clock; 0
// when no timer runs for it.
func (t *table[A, V, B]) left(s int) time.Duration {
	if t.clock.ends.IsZero() || s < 0 || s >= 64 || t.clock.seats&(1<<uint(s)) == 0 {
		return 0
	}
	return max(0, t.clock.ends.Sub(t.clk.Now()))
}

// armDwell starts the clock of the claim dwell in progress.
func (t *table[A, V, B]) armDwell() { t.armDwellAfter(t.dwell()) }

func (t *table[A, V, B]) armDwellAfter(d time.Duration) {
	if !t.holdEnd.ready() {
		t.holdEnd.init(t.post, t.dwellOver)
	}
	t.holdEnd.arm(t.clk, d)
}

func (t *table[A, V, B]) stopDwell() { t.holdEnd.stop() }

// dwellOver is the claim dwell's timer running out: the held events are
// published.
func (t *table[A, V, B]) dwellOver() {
	if !t.holdEnd.take(t.clk.Now()) || !t.hold.on {
		return
	}
	if err := t.release(); err != nil {
		t.log.Error("end claim dwell", zap.Error(err))
		t.armDwellAfter(retryDelay)
		return
	}
	t.settle()
}

// expire plays the default action of every seat the game still waits for.
func (t *table[A, V, B]) expire() {
	if t.state != Playing {
		return
	}
	t.timerKey = waitKey{}
	p, epoch := t.game.Pending(), t.epoch
	if p.Kind == WaitSystem {
		if err := t.auto(BySystem, System, t.game.Default(System)); err != nil {
			t.retryLater(err)
			return
		}
	}
	for _, s := range p.Seats {
		if t.epoch != epoch || !slices.Contains(t.game.Pending().Seats, s) {
			continue
		}
		if err := t.auto(ByTimeout, s, t.game.Default(s), t.notice(NoticeTimedOut, s)); err != nil {
			t.retryLater(err)
			return
		}
		t.log.Info("seat timed out", zap.Int("seat", s), zap.Stringer("wait", p.Kind))
	}
	t.settle()
}

// finish ends a table whose game is over: no more events, the store
// told, and the clock of its time in memory started.
func (t *table[A, V, B]) finish() {
	if t.state == Finished {
		return
	}
	t.state = Finished
	t.finishedAt = t.clk.Now()
	t.hist.drop()
	t.stopTimer()
	for i := range t.seats {
		t.stopGrace(i)
	}
	t.mu.Lock()
	t.done = true
	t.signal()
	n := t.base + uint64(t.events.len())
	t.mu.Unlock()
	t.wake()
	t.h.unfinished.n.Add(-1)
	t.h.obs.GameOver()
	t.log.Info("game over", zap.Uint64("events", n))
	// Before the store marks the game over: a crash between the two
	// replays the end, and the hook hears it again rather than never.
	if t.abandon {
		t.life(LifeAbandoned)
	} else {
		t.life(LifeFinished)
	}
	t.mark()
	t.armEvict()
}

// streamOpened and streamClosed track a seat's connection, which decides
// when a bot takes the seat over and hands it back.
func (t *table[A, V, B]) streamOpened(s int) error {
	st := &t.seats[s]
	st.conns++
	t.stopGrace(s)
	if st.botOn {
		return t.playerReturned(s)
	}
	return nil
}

func (t *table[A, V, B]) streamClosed(s int) {
	st := &t.seats[s]
	st.conns--
	if st.conns == 0 && t.state == Playing && !st.botOn && !st.left {
		t.armGrace(s)
	}
}

func (t *table[A, V, B]) playerReturned(s int) error {
	st := &t.seats[s]
	if !st.botOn || st.left || !st.taken || t.state != Playing {
		return nil
	}
	e := t.notice(NoticePlayerReturned, s)
	if err := t.commit(e); err != nil {
		return err
	}
	t.applyNotice(e)
	t.log.Info("player returned", zap.Int("seat", s))
	t.settle()
	return nil
}

func (t *table[A, V, B]) armGrace(s int) {
	t.stopGrace(s)
	if t.set.DisconnectGrace <= 0 {
		return
	}
	gen := t.seats[s].graceGen
	t.seats[s].grace = t.clk.AfterFunc(t.set.DisconnectGrace, func() {
		t.post(func() { t.graceExpired(s, gen) })
	})
}

func (t *table[A, V, B]) stopGrace(s int) {
	st := &t.seats[s]
	if st.grace != nil {
		st.grace.Stop()
		st.grace = nil
	}
	st.graceGen++
}

func (t *table[A, V, B]) graceExpired(s int, gen uint64) {
	st := &t.seats[s]
	if gen != st.graceGen || st.conns > 0 || st.botOn || t.state != Playing {
		return
	}
	st.grace = nil
	e := t.notice(NoticeBotTookOver, s)
	if err := t.commit(e); err != nil {
		t.log.Error("store bot takeover", zap.Error(err))
		t.armGrace(s)
		return
	}
	t.applyNotice(e)
	t.log.Info("bot took over a disconnected seat", zap.Int("seat", s))
	t.settle()
}

// signal closes the channel of the streams waiting for an append, if one
// waits; t.mu is locked.
func (t *table[A, V, B]) signal() {
	if t.changed != nil {
		close(t.changed)
		t.changed = nil
	}
}

// changedChan returns the channel the next append closes, made if no
// stream waits yet; t.mu is read-locked, so no append runs meanwhile.
func (t *table[A, V, B]) changedChan() <-chan struct{} {
	t.chMu.Lock()
	defer t.chMu.Unlock()
	if t.changed == nil {
		t.changed = make(chan struct{})
	}
	return t.changed
}
