package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/clock"
)

// Settings are a table's hosting parameters. Zero durations switch the
// corresponding timer off.
type Settings struct {
	Seats           int           // number of seats (4 for riichi)
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
	// SeatRate limits the actions of one seat.
	SeatRate Rate
	// DedupeWindow is how many request ids per seat are remembered; default 256.
	DedupeWindow int
	// MaxTables bounds the tables not yet finished; 0 means no bound.
	MaxTables int
	// MaxSeatStreams bounds the open streams of one seat; default 4.
	MaxSeatStreams int
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
	Name      string
	Bot       bool // a bot plays the seat now
	Connected bool // the player has an open stream
}

// Host runs many tables, one goroutine each.
type Host[A comparable, V, B any] struct {
	cfg Config[A, V, B]

	mu     sync.RWMutex
	tables map[string]*table[A, V, B]
	order  []string
	closed bool
	wg     sync.WaitGroup
}

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
	if cfg.DedupeWindow <= 0 {
		cfg.DedupeWindow = 256
	}
	if cfg.MaxSeatStreams <= 0 {
		cfg.MaxSeatStreams = 4
	}
	return &Host[A, V, B]{cfg: cfg, tables: map[string]*table[A, V, B]{}}
}

// NewGame makes a table's game; the host calls it once at creation and again
// to rebuild the game from the log after a refused write.
type NewGame[A comparable, V, B any] func() (Game[A, V, B], error)

// Create opens a table and returns it with its owner token, which may start
// the table.
func (h *Host[A, V, B]) Create(ctx context.Context, s Settings, meta []byte, newGame NewGame[A, V, B]) (Info, string, error) {
	if s.Seats <= 0 {
		return Info{}, "", fmt.Errorf("create table: %d seats: %w", s.Seats, ErrBadRequest)
	}
	if err := h.roomForTable(); err != nil {
		return Info{}, "", err
	}
	g, err := newGame()
	if err != nil {
		return Info{}, "", fmt.Errorf("create table: %w", err)
	}
	owner, ownerHash, err := newToken()
	if err != nil {
		return Info{}, "", fmt.Errorf("create table: %w", err)
	}
	rec := TableRecord{ID: uuid.NewString(), Settings: s, Meta: slices.Clone(meta), Created: h.cfg.Clock.Now(), OwnerHash: ownerHash}
	if err := h.cfg.Store.Create(ctx, rec); err != nil {
		return Info{}, "", fmt.Errorf("create table: %w: %v", ErrUnavailable, err)
	}
	t := newTable(h, rec, g, newGame)
	if err := h.add(t); err != nil {
		return Info{}, "", err
	}
	h.cfg.Log.Info("table created", zap.String("table", rec.ID), zap.Int("seats", s.Seats))
	return t.info(), owner, nil
}

// roomForTable refuses a new table when MaxTables tables are not finished.
func (h *Host[A, V, B]) roomForTable() error {
	if h.cfg.MaxTables <= 0 {
		return nil
	}
	h.mu.RLock()
	ts := make([]*table[A, V, B], 0, len(h.tables))
	for _, t := range h.tables {
		ts = append(ts, t)
	}
	h.mu.RUnlock()
	open := 0
	for _, t := range ts {
		if t.info().State != Finished {
			open++
		}
	}
	if open >= h.cfg.MaxTables {
		return fmt.Errorf("create table: %d open: %w", open, ErrTooManyTables)
	}
	return nil
}

// add registers a table and starts its goroutine.
func (h *Host[A, V, B]) add(t *table[A, V, B]) error {
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
	h.order = append(h.order, t.rec.ID)
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		t.run()
	}()
	return nil
}

// GameFor makes the NewGame of a stored table from its record: how a Host
// that recovers its tables gets their games back.
type GameFor[A comparable, V, B any] func(rec TableRecord) (NewGame[A, V, B], error)

// Recover loads every table of the store and resumes it where its last
// stored entry left it: the game, the event log with every viewer's
// sequence numbers, seats and tokens, bots, the request ids of the dedupe
// window and a claim dwell in progress come back as they were; the timers
// start again in full. A table with a snapshot is restored from it and
// the entries after it are replayed; one without, or whose snapshot does
// not restore, is rebuilt by replaying its whole log. Streams of the
// previous process resume with after_seq. Call it once, before serving.
// It returns how many tables it resumed.
func (h *Host[A, V, B]) Recover(ctx context.Context, gameFor GameFor[A, V, B]) (int, error) {
	n, fromSnap, replayed := 0, 0, 0
	err := h.cfg.Store.Load(ctx, func(rec TableRecord, snap *TableSnapshot, entries []Entry[A]) error {
		newGame, err := gameFor(rec)
		if err != nil {
			return fmt.Errorf("table %s: %w", rec.ID, err)
		}
		t, err := h.recoverTable(ctx, rec, newGame, snap, entries)
		if err != nil {
			return fmt.Errorf("table %s: %w", rec.ID, err)
		}
		if len(t.arch.segs) > 0 {
			fromSnap++
		}
		replayed += int(t.logged - t.arch.last())
		if err := h.add(t); err != nil {
			return err
		}
		t.post(t.resume)
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("recover: %w", err)
	}
	h.cfg.Log.Info("tables recovered", zap.Int("tables", n), zap.Int("from_snapshots", fromSnap), zap.Int("entries_replayed", replayed))
	return n, nil
}

// recoverTable rebuilds one stored table: from its snapshot and the
// entries after it, or else from its whole log.
func (h *Host[A, V, B]) recoverTable(ctx context.Context, rec TableRecord, newGame NewGame[A, V, B], snap *TableSnapshot, entries []Entry[A]) (*table[A, V, B], error) {
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

// List describes every table, oldest first.
func (h *Host[A, V, B]) List() []Info {
	h.mu.RLock()
	ts := make([]*table[A, V, B], 0, len(h.order))
	for _, id := range h.order {
		ts = append(ts, h.tables[id])
	}
	h.mu.RUnlock()
	out := make([]Info, len(ts))
	for i, t := range ts {
		out[i] = t.info()
	}
	return out
}

// Get describes one table.
func (h *Host[A, V, B]) Get(id string) (Info, error) {
	t, err := h.table(id)
	if err != nil {
		return Info{}, err
	}
	return t.info(), nil
}

// Join takes the first free seat of a table that has not started and
// returns it with its secret token. The table starts when the last seat is
// taken.
func (h *Host[A, V, B]) Join(ctx context.Context, id, name string, entropy []byte) (int, string, error) {
	t, err := h.table(id)
	if err != nil {
		return 0, "", err
	}
	type joined struct {
		seat  int
		token string
	}
	r, err := call(ctx, t, func() (joined, error) {
		seat, token, err := t.join(name, entropy)
		return joined{seat, token}, err
	})
	return r.seat, r.token, err
}

// Leave gives a seat up: before the start the seat is free again; after it a
// bot plays the seat to the end and the token stops working.
func (h *Host[A, V, B]) Leave(ctx context.Context, id, token string) error {
	t, err := h.table(id)
	if err != nil {
		return err
	}
	_, err = call(ctx, t, func() (struct{}, error) { return struct{}{}, t.leave(token) })
	return err
}

// Start starts a table; token is the owner token or a seat's.
func (h *Host[A, V, B]) Start(ctx context.Context, id, token string) error {
	t, err := h.table(id)
	if err != nil {
		return err
	}
	_, err = call(ctx, t, func() (struct{}, error) { return struct{}{}, t.startBy(token) })
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
	t, err := h.table(id)
	if err != nil {
		return 0, err
	}
	return call(ctx, t, func() (uint64, error) { return t.act(r) })
}

// Seat returns the seat a token belongs to, or an error if it belongs to
// none of the table's seats.
func (h *Host[A, V, B]) Seat(ctx context.Context, id, token string) (int, error) {
	t, err := h.table(id)
	if err != nil {
		return 0, err
	}
	return call(ctx, t, func() (int, error) { return t.seatOf(token) })
}

// SeatSeq returns the newest seq of the seat a token belongs to, in the
// seat's own numbering: what a client that lost its stream may resume
// after, or send as an action's last seq.
func (h *Host[A, V, B]) SeatSeq(ctx context.Context, id, token string) (uint64, error) {
	t, err := h.table(id)
	if err != nil {
		return 0, err
	}
	return call(ctx, t, func() (uint64, error) {
		s, err := t.seatOf(token)
		if err != nil {
			return 0, err
		}
		return t.count(s), nil
	})
}

// Close stops every table. Streams end with ErrClosed.
func (h *Host[A, V, B]) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	ts := make([]*table[A, V, B], 0, len(h.tables))
	for _, t := range h.tables {
		ts = append(ts, t)
	}
	h.mu.Unlock()
	for _, t := range ts {
		close(t.quit)
	}
	h.wg.Wait()
}

func (h *Host[A, V, B]) table(id string) (*table[A, V, B], error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.closed {
		return nil, ErrClosed
	}
	t, ok := h.tables[id]
	if !ok {
		return nil, fmt.Errorf("table %q: %w", id, ErrNotFound)
	}
	return t, nil
}

// call runs f in the table's goroutine and waits for its result. If ctx ends
// first, f may still run: a retry with the same request id then gets its
// answer.
func call[R any, A comparable, V, B any](ctx context.Context, t *table[A, V, B], f func() (R, error)) (R, error) {
	type result struct {
		r   R
		err error
	}
	var zero R
	ch := make(chan result, 1)
	select {
	case t.inbox <- func() {
		r, err := f()
		t.refresh() // before the answer, so the caller reads its own write
		ch <- result{r, err}
	}:
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-t.stopped:
		return zero, ErrClosed
	}
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-t.stopped:
		return zero, ErrClosed
	}
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
