package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/clock"
)

// Settings are a table's hosting parameters. Zero durations switch the
// corresponding timer off.
type Settings struct {
	Seats           int           // number of seats (4 for riichi), at most 64
	TurnTime        time.Duration // a seat's time for its turn
	ClaimTime       time.Duration // how long a claim window waits for answers
	RoundPause      time.Duration // pause before a system step (the next deal)
	DisconnectGrace time.Duration // how long a seat may have no stream before a bot plays it
	SpectatorDelay  time.Duration // how far spectators are behind
	FillWithBots    bool          // bots take the seats still empty at the start
	// ClaimDwell is the least time between an event that opens a claim
	// window (Out.Dwell) and the next step anyone sees, whether or not a
	// seat could claim. It applies when some seat is a player's at the
	// start: a table of bots only has nobody whose view it protects.
	ClaimDwell time.Duration
}

// Config configures a Host. Zero fields take defaults.
type Config[A comparable, V, B any] struct {
	Clock clock.Clock      // default clock.Real
	Log   *zap.Logger      // default zap.NewNop()
	Store Store[A]         // default a new MemoryStore
	Bot   func() Bot[A, V] // makes the bot of a seat; default plays Game.Default
	// Codec, when set, lets the host snapshot games that are Snapshotters
	// at their round boundaries, so that recovery replays only the log
	// after the latest snapshot.
	Codec Codec[A, B]
	// Observer is told what the host does, for metrics; default
	// NopObserver.
	Observer Observer
	// ActionKind names an action's kind for the Observer ("discard",
	// "pon", ...): a few constant names, not a formatting of the action.
	// Default "action".
	ActionKind func(A) string
	// SeatRate limits the actions of one seat.
	SeatRate Rate
	// DedupeWindow is how many request ids per seat are remembered; default 256.
	DedupeWindow int
	// MaxTables bounds the tables not yet finished; 0 means no bound.
	MaxTables int
	// Count, when set, counts the tables not finished for MaxTables
	// together with the other hosts given the same Count: a server that
	// runs one host per rule set bounds all its tables at once.
	Count *Count
	// MaxSeatStreams bounds the open streams of one seat; default 4.
	MaxSeatStreams int

	// The life of a table in memory (lifecycle.go). FinishedTTL is how
	// long a table stays after its game ended; IdleTTL how long a table
	// that has not started stays without a seat taken or given up. Past
	// them the table leaves memory: its timers stop, its
	// open streams end (those of a finished game after its last event).
	// Zero keeps tables in memory for ever.
	FinishedTTL, IdleTTL time.Duration
	// KeepGames is how long the store keeps a finished game (Store.Prune,
	// run every KeepGames, at most every hour); zero keeps them for ever.
	KeepGames time.Duration
	// Lifecycle, when set, hears of each step of a table's life
	// (reserve.go), as the table's runner (Create's caller's for
	// LifeCreated, Recover's for LifeDamaged), before the step is
	// answered: a slow hook slows the table. A restart may tell a step
	// again (a game whose end the store had not marked); it never skips
	// LifeFinished.
	Lifecycle func(Life[B])
	// ForgetEvicted deletes a table from the store when it leaves
	// memory: for a store that is itself memory (the default), where
	// nothing would otherwise ever leave.
	ForgetEvicted bool
	// GameFor, when set, makes the game of a stored table: the host then
	// answers about a finished table it no longer holds by reading it back
	// from the store, read-only, for each request. Recover uses it when
	// given none.
	GameFor GameFor[A, V, B]
	// Owner, when set, makes the host one node of a cluster that shares
	// its store (cluster.go): it takes a table's lease before it creates
	// the table, Recover resumes only the tables whose lease it wins, and
	// a table whose game is over, or that was deleted, gives its lease up.
	Owner Owner
	// Encode, when set, encodes an event for the streams that send it,
	// ignoring its Seq (each viewer numbers it its own way); nil bytes
	// mean it cannot. The host encodes each event once for all the
	// streams that send it within moments (encode.go) and gives the bytes
	// to Follow's send in Item.Wire and to WatchEncoded's send. It is
	// called from the streams' goroutines and must not change the event.
	Encode func(e *Event[B]) []byte
}

// State is where a table is in its life.
type State uint8

// The table states.
const (
	Waiting  State = iota + 1 // seats are being taken
	Playing                   // the game runs
	Finished                  // the game is over
)

var stateNames = [...]string{"", "waiting", "playing", "finished"}

func (s State) String() string {
	if int(s) < len(stateNames) && s != 0 {
		return stateNames[s]
	}
	return "invalid"
}

// Info describes a table.
type Info struct {
	ID       string
	Settings Settings
	Meta     []byte
	Created  time.Time
	State    State
	Seats    []SeatInfo
	LastSeq  uint64 // the newest public event's seq (the spectators' numbering)
}

// SeatInfo is the public state of a seat.
type SeatInfo struct {
	Taken     bool // by a player (who may have left since: then Bot)
	Bot       bool // a bot plays the seat now
	Connected bool // the player has an open stream
	Reserved  bool // only a pass for the seat takes it
	Name      string
	PlayerID  string // the room service's id of the player (reservations, passes)
}

// Host runs many tables. A table has no goroutine of its own: calls into
// it run one at a time on the callers' goroutines (exec.go).
type Host[A comparable, V, B any] struct {
	cfg  Config[A, V, B]
	obs  Observer
	tlog *zap.Logger // cfg.Log for the tables' lines (tableLog)

	mu     sync.RWMutex
	tables map[string]*table[A, V, B]
	index  []placed[A, V, B] // the tables in memory by ListKey
	gone   tombstones        // the tables that left memory lately
	// damaged are the stored tables recovery could not resume.
	damaged map[string]*DamagedError
	closed  bool
	quit    chan struct{} // closed by Close: streams stop waiting
	wg      sync.WaitGroup
	prune   clock.Timer // the next pruning of the store, under mu

	unfinished *Count // tables in memory whose game is not over (shared with other hosts)
}

// Count counts the tables not finished of one or several hosts
// (Config.Count). The zero value is ready to use.
type Count struct{ n atomic.Int64 }

// Load returns the count.
func (c *Count) Load() int64 { return c.n.Load() }

// New returns a Host.
func New[A comparable, V, B any](cfg Config[A, V, B]) *Host[A, V, B] {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore[A]()
	}
	if cfg.Observer == nil {
		cfg.Observer = NopObserver{}
	}
	if cfg.ActionKind == nil {
		cfg.ActionKind = func(A) string { return "action" }
	}
	if cfg.DedupeWindow <= 0 {
		cfg.DedupeWindow = 256
	}
	if cfg.MaxSeatStreams <= 0 {
		cfg.MaxSeatStreams = 4
	}
	if cfg.Count == nil {
		cfg.Count = &Count{}
	}
	h := &Host[A, V, B]{cfg: cfg, obs: cfg.Observer, tables: map[string]*table[A, V, B]{}, quit: make(chan struct{}), unfinished: cfg.Count}
	h.tlog = cfg.Log.WithOptions(zap.AddCallerSkip(tableLogSkip))
	if cfg.KeepGames > 0 {
		h.mu.Lock()
		h.prune = cfg.Clock.AfterFunc(0, h.pruneStore)
		h.mu.Unlock()
	}
	return h
}

// NewGame makes a table's game; the host calls it once at creation and again
// to rebuild the game from the log after a refused write.
type NewGame[A comparable, V, B any] func() (Game[A, V, B], error)

// Create opens a table and returns it with its owner token, which may start
// the table.
func (h *Host[A, V, B]) Create(ctx context.Context, s Settings, meta []byte, newGame NewGame[A, V, B]) (Info, string, error) {
	return h.CreateReserved(ctx, s, meta, newGame, nil)
}

// CreateReserved is Create with seats reserved from the start (Reserve),
// so that nobody takes one of them between the creation and the
// reservation. rs, when not nil, returns the reservations given the new
// table's id (which their tickets may name).
func (h *Host[A, V, B]) CreateReserved(ctx context.Context, s Settings, meta []byte, newGame NewGame[A, V, B], rs func(id string) []Reservation) (Info, string, error) {
	if s.Seats <= 0 || s.Seats > maxSeats {
		// More than a snapshot restores: the table would never recover
		// from one.
		return Info{}, "", fmt.Errorf("create table: %d seats, 1 to %d: %w", s.Seats, maxSeats, ErrBadRequest)
	}
	if err := h.roomForTable(); err != nil {
		return Info{}, "", err
	}
	info, owner, err := h.create(ctx, s, meta, newGame, rs)
	if err != nil {
		h.unfinished.n.Add(-1) // the place roomForTable took
		return Info{}, "", err
	}
	h.cfg.Log.Info("table created", zap.String("table", info.ID), zap.Int("seats", s.Seats))
	if f := h.cfg.Lifecycle; f != nil {
		f(Life[B]{Kind: LifeCreated, At: info.Created, Info: info})
	}
	return info, owner, nil
}

// create makes, stores and adds a new table, whose place among the
// unfinished tables is taken.
func (h *Host[A, V, B]) create(ctx context.Context, s Settings, meta []byte, newGame NewGame[A, V, B], rs func(id string) []Reservation) (Info, string, error) {
	g, err := newGame()
	if err != nil {
		return Info{}, "", fmt.Errorf("create table: %w", err)
	}
	owner, ownerHash, err := newToken()
	if err != nil {
		return Info{}, "", fmt.Errorf("create table: %w", err)
	}
	rec := TableRecord{ID: uuid.NewString(), Settings: s, Meta: slices.Clone(meta), Created: h.cfg.Clock.Now(), OwnerHash: ownerHash}
	if o := h.cfg.Owner; o != nil {
		// The lease first: no other node may take the table over while
		// it is being created.
		won, err := o.Acquire(ctx, rec.ID)
		if err == nil && !won {
			err = errors.New("a new table's id is leased already")
		}
		if err != nil {
			return Info{}, "", fmt.Errorf("create table: lease: %w: %v", ErrUnavailable, err)
		}
	}
	if err := h.cfg.Store.Create(ctx, rec); err != nil {
		if o := h.cfg.Owner; o != nil {
			o.Drop(rec.ID)
		}
		return Info{}, "", fmt.Errorf("create table: %w: %v", ErrUnavailable, err)
	}
	t := newTable(h, rec, g, newGame)
	// Before the table runs, so nobody sees it unreserved.
	var resv []Reservation
	if rs != nil {
		resv = rs(rec.ID)
	}
	for _, r := range resv {
		if err := t.reserve(r); err != nil {
			t.stopEvict()
			t.cancel()
			_ = h.cfg.Store.Delete(ctx, rec.ID) // nothing of it was seen
			t.dropLease()
			return Info{}, "", fmt.Errorf("create table: reserve seat %d: %w", r.Seat, err)
		}
	}
	t.refresh()
	info := t.info()
	if err := h.add(t, true); err != nil {
		return Info{}, "", err
	}
	return info, owner, nil
}

// roomForTable takes a place for a new table among the unfinished ones,
// or refuses it when MaxTables are taken. The place is taken at once, not
// when the table is added, so that tables created at the same time cannot
// all pass the check.
func (h *Host[A, V, B]) roomForTable() error {
	for {
		open := h.unfinished.n.Load()
		if h.cfg.MaxTables > 0 && open >= int64(h.cfg.MaxTables) {
			return fmt.Errorf("create table: %d open: %w", open, ErrTooManyTables)
		}
		if h.unfinished.n.CompareAndSwap(open, open+1) {
			return nil
		}
	}
}

// add registers a table and lets calls run on it; counted says the table
// already has its place among the unfinished ones (roomForTable).
func (h *Host[A, V, B]) add(t *table[A, V, B], counted bool) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	if _, ok := h.tables[t.rec.ID]; ok {
		h.mu.Unlock()
		return fmt.Errorf("table %s twice: %w", t.rec.ID, ErrBadRequest)
	}
	h.tables[t.rec.ID] = t
	h.place(t)
	if t.state != Finished && !counted {
		h.unfinished.n.Add(1)
	}
	h.wg.Add(1) // done when the table stops (exec.go)
	h.mu.Unlock()
	// The table's creator is its runner until now (newTable): the idle
	// clock of a table waiting for players runs from now, and the calls
	// that came meanwhile run after it.
	t.armEvict()
	t.letGo()
	return nil
}

// GameFor makes the NewGame of a stored table from its record: how a Host
// that recovers its tables gets their games back.
type GameFor[A comparable, V, B any] func(rec TableRecord) (NewGame[A, V, B], error)

// Recover loads every table of the store whose game is not over and
// resumes it where its last stored entry left it: the game, the event log with every viewer's
// sequence numbers, seats and tokens, bots, the request ids of the dedupe
// window and a claim dwell in progress come back as they were; the timers
// start again in full. A table with a snapshot is restored from it and
// the entries after it are replayed; one without, or whose snapshot does
// not restore, is rebuilt by replaying its whole log. Streams of the
// previous process resume with after_seq. The finished tables stay in the
// store, not read: the host reads one back when a request names it
// (Config.GameFor). Call it once, before serving. It returns how many
// tables it resumed. A nil gameFor means Config.GameFor. With an Owner it
// resumes only the tables whose lease it wins (cluster.go).
func (h *Host[A, V, B]) Recover(ctx context.Context, gameFor GameFor[A, V, B]) (int, error) {
	if gameFor == nil {
		gameFor = h.cfg.GameFor
	}
	if gameFor == nil {
		return 0, fmt.Errorf("recover: no GameFor: %w", ErrBadRequest)
	}
	if h.cfg.Owner != nil {
		return h.recoverOwned(ctx, gameFor)
	}
	start := time.Now() // the real time it took, whatever the host's clock
	var st recoveryStats
	var damaged []*DamagedError
	err := h.cfg.Store.Load(ctx, func(rec TableRecord, snap *TableSnapshot, entries []Entry[A]) error {
		newGame, err := gameFor(rec)
		if err == nil {
			var t *table[A, V, B]
			if t, err = h.recoverTable(ctx, rec, newGame, snap, entries); err == nil {
				return h.resume(t, &st)
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		damaged = append(damaged, &DamagedError{ID: rec.ID, Err: err})
		return nil
	})
	err = splitDamaged(err, &damaged)
	h.setAside(damaged)
	if err != nil {
		return st.tables, fmt.Errorf("recover: %w", err)
	}
	h.obs.Recovered(st.tables, time.Since(start))
	h.cfg.Log.Info("tables recovered", zap.Int("tables", st.tables), zap.Int("from_snapshots", st.fromSnap),
		zap.Int("entries_replayed", st.replayed), zap.Int("damaged", len(damaged)))
	return st.tables, nil
}

// recoveryStats count what Recover did, for its log line.
type recoveryStats struct{ tables, fromSnap, replayed int }

// resume adds a recovered table to the host and lets it go on.
func (h *Host[A, V, B]) resume(t *table[A, V, B], st *recoveryStats) error {
	// Counted before add: from then on the table's runner owns it.
	fromSnap, replayed := len(t.arch.segs) > 0, int(t.logged-t.arch.last())
	if err := h.add(t, false); err != nil {
		return err
	}
	// Not in this goroutine: Recover is in the middle of the store's
	// Load, and resume may write to the store.
	t.postAsync(t.resume)
	st.tables++
	st.replayed += replayed
	if fromSnap {
		st.fromSnap++
	}
	return nil
}

// splitDamaged moves the DamagedErrors of a store's Load error to damaged
// and returns the rest (nil if nothing else went wrong).
func splitDamaged(err error, damaged *[]*DamagedError) error {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	var rest []error
	for _, e := range errs {
		if d, ok := e.(*DamagedError); ok {
			*damaged = append(*damaged, d)
		} else {
			rest = append(rest, e)
		}
	}
	return errors.Join(rest...)
}

// setAside remembers the tables recovery could not resume, so that a
// request naming one says why, and logs each for the operator: its data
// stays in the store as it was, for a fix by hand.
func (h *Host[A, V, B]) setAside(damaged []*DamagedError) {
	if len(damaged) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.damaged == nil {
		h.damaged = map[string]*DamagedError{}
	}
	for _, d := range damaged {
		h.damaged[d.ID] = d
		h.obs.TableSetAside(SetAsideDamaged)
		fields := []zap.Field{zap.String("table", d.ID), zap.Error(d.Err)}
		var p *PanicError
		if errors.As(d.Err, &p) {
			fields = append(fields, zap.ByteString("stack", p.Stack))
		}
		h.cfg.Log.Error("table damaged in the store: not resumed", fields...)
		if f := h.cfg.Lifecycle; f != nil {
			f(Life[B]{Kind: LifeDamaged, At: h.cfg.Clock.Now(), Info: Info{ID: d.ID}})
		}
	}
}

// recoverTable rebuilds one stored table: from its snapshot and the
// entries after it, or else from its whole log.
func (h *Host[A, V, B]) recoverTable(ctx context.Context, rec TableRecord, newGame NewGame[A, V, B], snap *TableSnapshot, entries []Entry[A]) (_ *table[A, V, B], err error) {
	defer func() {
		// A game that panics on its own log is as damaged as one whose
		// log does not decode: set aside, not the end of the server.
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %w", ErrCorruptLog, &PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	if snap != nil {
		g, err := newGame()
		if err != nil {
			return nil, err
		}
		t := newTable(h, rec, g, newGame)
		err = t.restore(snap, entries)
		if err == nil {
			return t, nil
		}
		h.cfg.Log.Warn("snapshot does not restore: replaying the whole log", zap.String("table", rec.ID),
			zap.Uint64("entries", snap.Entries), zap.Error(err))
		if entries, err = h.cfg.Store.LoadEntries(ctx, rec.ID, 0); err != nil {
			return nil, fmt.Errorf("load log: %w", err)
		}
	}
	g, err := newGame()
	if err != nil {
		return nil, err
	}
	t := newTable(h, rec, g, newGame)
	if err := t.replayAll(entries); err != nil {
		return nil, err
	}
	return t, nil
}

// Get describes one table: one in memory, or a finished one read back
// from the store.
func (h *Host[A, V, B]) Get(ctx context.Context, id string) (Info, error) {
	t, err := h.table(ctx, id)
	if err != nil {
		return Info{}, err
	}
	return t.info(), nil
}

// Join takes the first free seat of a table that has not started and
// returns it with its secret token. The table starts when the last seat is
// taken.
func (h *Host[A, V, B]) Join(ctx context.Context, id, name string, entropy []byte) (int, string, error) {
	type joined struct {
		seat  int
		token string
	}
	r, err := do(ctx, h, id, func(t *table[A, V, B]) (joined, error) {
		seat, token, err := t.join(name, entropy)
		return joined{seat, token}, t.refusal(err)
	})
	return r.seat, r.token, err
}

// Leave gives a seat up: before the start the seat is free again; after it a
// bot plays the seat to the end and the token stops working.
func (h *Host[A, V, B]) Leave(ctx context.Context, id, token string) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) { return struct{}{}, t.refusal(t.leave(token)) })
	return err
}

// Start starts a table; token is the owner token or a seat's.
func (h *Host[A, V, B]) Start(ctx context.Context, id, token string) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) { return struct{}{}, t.refusal(t.startBy(token)) })
	return err
}

// Request is an action of the seat that token identifies.
type Request[A comparable] struct {
	Token     string
	LastSeq   uint64 // the newest event the seat has seen, in its own numbering
	RequestID string // a retry with the same id is applied once
	Action    A
}

// Act applies a seat's action and returns the seat's newest seq after it:
// the action's own events included, unless a claim dwell holds them.
func (h *Host[A, V, B]) Act(ctx context.Context, id string, r Request[A]) (uint64, error) {
	return do(ctx, h, id, func(t *table[A, V, B]) (uint64, error) {
		seq, err := t.act(r)
		err = t.refusal(err)
		h.obs.Acted(ByPlayer, h.cfg.ActionKind(r.Action), err)
		return seq, err
	})
}

// ActFor is Act of an action made for the token's seat by action from x
// (an API action, which names no seat, becomes the seat's): one call into
// the table instead of Seat and then Act. An error of Seat's or of action
// is returned as it is, and changes nothing. action and x apart, not one
// closure: a caller keeps action (made once), and ActFor allocates no
// closure of its own unless the table is busy.
func ActFor[X any, A comparable, V, B any](ctx context.Context, h *Host[A, V, B], id string, r Request[A], x X, action func(x X, seat int) (A, error)) (uint64, error) {
	// An idle table first, with a closure on the stack: do's closure, kept
	// while the call waits in a busy table's queue, is an allocation.
	if t, err := h.table(ctx, id); err == nil {
		seq, err, ran := runIdle(t, func(t *table[A, V, B]) (uint64, error) { return actFor(t, r, x, action) })
		if ran && (t.ro || !errors.Is(err, ErrEvicted)) {
			return seq, err
		}
	}
	return do(ctx, h, id, func(t *table[A, V, B]) (uint64, error) { return actFor(t, r, x, action) })
}

// actFor is ActFor's call on the table.
func actFor[X any, A comparable, V, B any](t *table[A, V, B], r Request[A], x X, action func(x X, seat int) (A, error)) (uint64, error) {
	s, err := t.seatOf(r.Token)
	if err != nil {
		return 0, err
	}
	if r.Action, err = action(x, s); err != nil {
		return 0, err
	}
	seq, err := t.actAs(s, r)
	err = t.refusal(err)
	t.h.obs.Acted(ByPlayer, t.h.cfg.ActionKind(r.Action), err)
	return seq, err
}

// Seat returns the seat a token belongs to, or an error if it belongs to
// none of the table's seats.
func (h *Host[A, V, B]) Seat(ctx context.Context, id, token string) (int, error) {
	return do(ctx, h, id, func(t *table[A, V, B]) (int, error) { return t.seatOf(token) })
}

// SeatSeq returns the newest seq of the seat a token belongs to, in the
// seat's own numbering: what a client that lost its stream may resume
// after, or send as an action's last seq.
func (h *Host[A, V, B]) SeatSeq(ctx context.Context, id, token string) (uint64, error) {
	return do(ctx, h, id, func(t *table[A, V, B]) (uint64, error) {
		s, err := t.seatOf(token)
		if err != nil {
			return 0, err
		}
		return t.count(s), nil
	})
}

// Close stops every table and the pruning of the store. Streams end with
// ErrClosed.
func (h *Host[A, V, B]) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	close(h.quit)
	if h.prune != nil {
		h.prune.Stop()
		h.prune = nil
	}
	ts := make([]*table[A, V, B], 0, len(h.tables))
	for _, t := range h.tables {
		ts = append(ts, t)
	}
	h.mu.Unlock()
	for _, t := range ts {
		t.shut()
	}
	h.wg.Wait()
}

// table returns the table id names: the one in memory, or else a finished
// one read back from the store (read-only, this caller's own).
func (h *Host[A, V, B]) table(ctx context.Context, id string) (*table[A, V, B], error) {
	h.mu.RLock()
	closed, t, gone, damaged := h.closed, h.tables[id], h.gone.find(id), h.damaged[id]
	h.mu.RUnlock()
	switch {
	case closed:
		return nil, ErrClosed
	case t != nil:
		return t, nil
	case damaged != nil:
		return nil, damaged
	}
	t, err := h.readBack(ctx, id)
	if errors.Is(err, ErrNotFound) && gone != nil {
		return nil, gone
	}
	return t, err
}

// Holds reports whether the host knows table id without reading its
// store: it holds the table in memory, the table left memory lately, or
// recovery set it aside as damaged. A server that runs one host per rule
// set asks every host this first, so that a request goes to its table's
// host without a read of the other hosts' stores.
func (h *Host[A, V, B]) Holds(id string) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.tables[id] != nil || h.gone.find(id) != nil || h.damaged[id] != nil
}

// do runs f on table id as the table's runner (see callOn). If the table
// leaves memory before f ran, f runs on the table as the store keeps it.
func do[R any, A comparable, V, B any](ctx context.Context, h *Host[A, V, B], id string, f func(t *table[A, V, B]) (R, error)) (R, error) {
	t, err := h.table(ctx, id)
	if err != nil {
		var zero R
		return zero, err
	}
	r, err := callOn(ctx, t, f)
	if errors.Is(err, ErrEvicted) && !t.ro {
		if t2, err2 := h.table(ctx, id); err2 == nil {
			return callOn(ctx, t2, f)
		}
	}
	return r, err
}

// call runs f on the table and waits for its result (see callOn).
func call[R any, A comparable, V, B any](ctx context.Context, t *table[A, V, B], f func() (R, error)) (R, error) {
	return callOn(ctx, t, func(*table[A, V, B]) (R, error) { return f() })
}

// refusal adds the table's state to an error of a request (StateError).
func (t *table[A, V, B]) refusal(err error) error {
	if err == nil {
		return nil
	}
	return &StateError{State: t.state, Err: err}
}

// newToken returns a fresh secret token and its SHA-256 hash; the host
// keeps only hashes.
func newToken() (string, [32]byte, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", [32]byte{}, fmt.Errorf("token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	return tok, sha256.Sum256([]byte(tok)), nil
}
