package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Store keeps what a table needs to be rebuilt: its record, every entry
// the host accepted, in order, and the snapshots the host takes at the
// game's round boundaries. The host appends an entry, and waits for the
// store to make it durable, before it publishes its events or acknowledges
// the request that caused it; an append error refuses the request
// (ErrUnavailable) and leaves the table as it was. Entries appended in one
// call are stored together or not at all; Append must not keep the slice
// of entries, which the host reuses. Implementations must be safe for
// concurrent use by many tables.
//
// Snapshots only make recovery faster: the log stays whole, and a table
// whose snapshot is missing or unreadable is rebuilt from the log alone.
//
// A table whose game is over is marked finished (Finish): recovery leaves
// it in the store (Load skips it), and the host reads it back on demand
// (LoadTable) to answer about a finished table it no longer holds in
// memory. Delete and Prune are the store's retention: a table abandoned
// before it started is deleted, and finished games may be pruned after a
// while.
//
// The interface is the host's, small on purpose: an embedded store
// (package store) implements it today, a networked one can tomorrow.
type Store[A any] interface {
	Create(ctx context.Context, rec TableRecord) error
	Append(ctx context.Context, table string, entries ...Entry[A]) error
	// SaveSnapshot stores a snapshot of a table that covers its first
	// s.Entries entries, all or nothing. It replaces the table's previous
	// snapshot; the Events of every snapshot are kept (LoadEvents).
	SaveSnapshot(ctx context.Context, table string, s TableSnapshot) error
	// Finish marks a table's game over (at is when): Load leaves the
	// table out from then on, and Prune may delete it. Finishing a table
	// twice is no error.
	Finish(ctx context.Context, table string, at time.Time) error
	// Load calls f for every table not finished, oldest first, with its
	// record, its latest snapshot (nil if it has none; its Events are not
	// loaded) and the entries after the snapshot, in the order they were
	// appended. It reads nothing of the finished tables, however many
	// there are. It stops at f's first error and returns it. A table
	// that does not load (its data does not decode) is not passed to f:
	// Load goes on with the others and returns, at the end, a
	// *DamagedError for each such table (joined with errors.Join).
	Load(ctx context.Context, f func(rec TableRecord, snap *TableSnapshot, entries []Entry[A]) error) error
	// LoadTable returns one table, finished or not, as Load would pass
	// it to f; an error matching ErrNoTable if the store holds none.
	LoadTable(ctx context.Context, table string) (TableRecord, *TableSnapshot, []Entry[A], error)
	// LoadEntries returns a table's entries from the from-th on (0: the
	// whole log): what recovery replays when a snapshot does not restore.
	LoadEntries(ctx context.Context, table string, from uint64) ([]Entry[A], error)
	// LoadEvents returns the Events of the table's snapshot that covered
	// its first entries entries.
	LoadEvents(ctx context.Context, table string, entries uint64) ([]byte, error)
	// Delete forgets a table: its record, log, snapshots and events. A
	// table the store does not hold is no error.
	Delete(ctx context.Context, table string) error
	// Prune deletes every table finished before the given time and
	// returns how many it deleted.
	Prune(ctx context.Context, before time.Time) (int, error)
}

// TableSnapshot is a table at a round boundary of its game, as the host
// saves it: State is what recovery restores instead of replaying the
// first Entries entries, Events the table's events since its previous
// snapshot, which streams that resume from before the snapshot read back.
// Both are the host's encoding (versioned); the store keeps them as they
// are.
type TableSnapshot struct {
	Entries uint64
	State   []byte
	Events  []byte
}

// TableRecord is what a table was created with.
type TableRecord struct {
	ID        string
	Settings  Settings
	Meta      []byte // the caller's own description (rules, seed), opaque here
	Created   time.Time
	OwnerHash [32]byte // SHA-256 of the owner token
}

// EntryKind says what an entry records.
type EntryKind uint8

// The entry kinds.
const (
	EntryAction  EntryKind = iota + 1 // a game action (Actor is the seat or System)
	EntryNotice                       // a notice about a seat or the table
	EntryRelease                      // the claim dwell ended: the held events were published
)

var entryNames = [...]string{"", "action", "notice", "release"}

func (k EntryKind) String() string {
	if int(k) < len(entryNames) && k != 0 {
		return entryNames[k]
	}
	return "invalid"
}

// Entry is one accepted step of a table. Replaying a table's entries in
// order through the same game rebuilds its state and its event log, every
// viewer's sequence numbers included.
type Entry[A any] struct {
	At        time.Time
	Kind      EntryKind
	Actor     int // the seat that acted, or System
	Action    A
	RequestID string // EntryAction of a player: the request's id, so a retry after a restart is answered
	Notice    Notice
	TokenHash [32]byte // NoticeJoined: SHA-256 of the seat token; NoticeReserved: of the ticket (zero: a signed one)
	Entropy   []byte   // NoticeJoined: the player's entropy for wall seeds
	// TicketID is, on NoticeJoined, the id of the join ticket used (never
	// the ticket itself), so that it stays used after a restart.
	TicketID string
	// Expires is, on NoticeReserved, when the reservation's ticket expires.
	Expires time.Time
}

// MemoryStore is a Store that keeps everything in memory: the default until
// a durable store is configured, and a test double (two hosts sharing one
// MemoryStore are a crash and a restart).
type MemoryStore[A any] struct {
	mu      sync.Mutex
	order   []string
	tables  map[string]TableRecord
	entries map[string][]Entry[A]
	snaps   map[string]TableSnapshot     // the latest, without its Events
	events  map[string]map[uint64][]byte // every snapshot's Events by Entries
	done    map[string]time.Time         // the finished tables, and when
	loads   int                          // tables read by Load and LoadTable
	// Fail, when set, makes every write (Create, Append, SaveSnapshot,
	// Finish, Delete, Prune) fail with its result (for tests of a
	// refusing store).
	Fail func() error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore[A any]() *MemoryStore[A] {
	return &MemoryStore[A]{
		tables: map[string]TableRecord{}, entries: map[string][]Entry[A]{},
		snaps: map[string]TableSnapshot{}, events: map[string]map[uint64][]byte{},
		done: map[string]time.Time{},
	}
}

// fail is the error of a write while Fail is set; the caller holds mu.
func (s *MemoryStore[A]) fail() error {
	if s.Fail != nil {
		return s.Fail()
	}
	return nil
}

// ErrNoTable is the error of a store asked about a table it does not
// hold.
var ErrNoTable = errors.New("store: no such table")

// ErrNoSnapshot is the error of a store asked for the events of a snapshot
// it does not hold, or told to save one past the table's log.
var ErrNoSnapshot = errors.New("store: no such snapshot")

// Create records a new table.
func (s *MemoryStore[A]) Create(_ context.Context, rec TableRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return err
	}
	if _, ok := s.tables[rec.ID]; ok {
		return fmt.Errorf("memory store: table %s exists", rec.ID)
	}
	s.tables[rec.ID] = rec
	s.order = append(s.order, rec.ID)
	return nil
}

// Append adds entries to a table's log.
func (s *MemoryStore[A]) Append(_ context.Context, table string, entries ...Entry[A]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return err
	}
	if _, ok := s.tables[table]; !ok {
		return fmt.Errorf("memory store: table %s: %w", table, ErrNoTable)
	}
	for _, e := range entries {
		e.Entropy = slices.Clone(e.Entropy)
		s.entries[table] = append(s.entries[table], e)
	}
	return nil
}

// SaveSnapshot stores a snapshot of a table.
func (s *MemoryStore[A]) SaveSnapshot(_ context.Context, table string, snap TableSnapshot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return err
	}
	if _, ok := s.tables[table]; !ok {
		return fmt.Errorf("memory store: table %s: %w", table, ErrNoTable)
	}
	if n := uint64(len(s.entries[table])); snap.Entries > n {
		return fmt.Errorf("memory store: table %s: snapshot of %d entries, log of %d: %w", table, snap.Entries, n, ErrNoSnapshot)
	}
	if s.events[table] == nil {
		s.events[table] = map[uint64][]byte{}
	}
	s.events[table][snap.Entries] = slices.Clone(snap.Events)
	s.snaps[table] = TableSnapshot{Entries: snap.Entries, State: slices.Clone(snap.State)}
	return nil
}

// Load calls f for every table not finished, oldest first.
func (s *MemoryStore[A]) Load(ctx context.Context, f func(TableRecord, *TableSnapshot, []Entry[A]) error) error {
	s.mu.Lock()
	ids := make([]string, 0, len(s.order))
	for _, id := range s.order {
		if _, over := s.done[id]; !over {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	for _, id := range ids {
		rec, snap, es, err := s.LoadTable(ctx, id)
		if errors.Is(err, ErrNoTable) {
			continue // deleted meanwhile
		}
		if err := f(rec, snap, es); err != nil {
			return err
		}
	}
	return nil
}

// LoadTable returns one table, finished or not.
func (s *MemoryStore[A]) LoadTable(_ context.Context, table string) (TableRecord, *TableSnapshot, []Entry[A], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.tables[table]
	if !ok {
		return TableRecord{}, nil, nil, fmt.Errorf("memory store: table %s: %w", table, ErrNoTable)
	}
	s.loads++
	es := s.entries[table]
	var snap *TableSnapshot
	if sn, ok := s.snaps[table]; ok {
		snap = &TableSnapshot{Entries: sn.Entries, State: slices.Clone(sn.State)}
		es = es[sn.Entries:]
	}
	return rec, snap, slices.Clone(es), nil
}

// Finish marks a table's game over.
func (s *MemoryStore[A]) Finish(_ context.Context, table string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return err
	}
	if _, ok := s.tables[table]; !ok {
		return fmt.Errorf("memory store: table %s: %w", table, ErrNoTable)
	}
	if _, ok := s.done[table]; !ok {
		s.done[table] = at
	}
	return nil
}

// Delete forgets a table.
func (s *MemoryStore[A]) Delete(_ context.Context, table string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return err
	}
	s.delete(table)
	return nil
}

// delete forgets a table; the caller holds mu.
func (s *MemoryStore[A]) delete(table string) {
	if _, ok := s.tables[table]; !ok {
		return
	}
	delete(s.tables, table)
	delete(s.entries, table)
	delete(s.snaps, table)
	delete(s.events, table)
	delete(s.done, table)
	s.order = slices.DeleteFunc(s.order, func(id string) bool { return id == table })
}

// Prune deletes the tables finished before the given time.
func (s *MemoryStore[A]) Prune(_ context.Context, before time.Time) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.fail(); err != nil {
		return 0, err
	}
	n := 0
	for id, at := range s.done {
		if at.Before(before) {
			s.delete(id)
			n++
		}
	}
	return n, nil
}

// Tables returns the ids of the tables held, finished or not, oldest
// first.
func (s *MemoryStore[A]) Tables() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.order)
}

// Finished reports whether a table is marked finished, and when.
func (s *MemoryStore[A]) Finished(table string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.done[table]
	return at, ok
}

// Loads returns how many tables Load and LoadTable have read: what a test
// checks to see that recovery left the finished tables alone.
func (s *MemoryStore[A]) Loads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loads
}

// LoadEntries returns a table's entries from the from-th on.
func (s *MemoryStore[A]) LoadEntries(_ context.Context, table string, from uint64) ([]Entry[A], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[table]; !ok {
		return nil, fmt.Errorf("memory store: table %s: %w", table, ErrNoTable)
	}
	es := s.entries[table]
	return slices.Clone(es[min(from, uint64(len(es))):]), nil
}

// LoadEvents returns the Events of a table's snapshot.
func (s *MemoryStore[A]) LoadEvents(_ context.Context, table string, entries uint64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.events[table][entries]
	if !ok {
		return nil, fmt.Errorf("memory store: table %s: events of the snapshot at %d: %w", table, entries, ErrNoSnapshot)
	}
	return slices.Clone(b), nil
}

// Entries returns a copy of a table's log.
func (s *MemoryStore[A]) Entries(table string) []Entry[A] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.entries[table])
}

// Snapshot returns a table's latest snapshot (without its Events), ok
// false if it has none.
func (s *MemoryStore[A]) Snapshot(table string) (TableSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn, ok := s.snaps[table]
	return sn, ok
}

// DropSnapshots forgets every snapshot of a table, as if it had none (for
// tests of recovery from the log alone).
func (s *MemoryStore[A]) DropSnapshots(table string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.snaps, table)
	delete(s.events, table)
}

// SetSnapshotState replaces the State of a table's latest snapshot (for
// tests of a snapshot that does not restore).
func (s *MemoryStore[A]) SetSnapshotState(table string, state []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sn, ok := s.snaps[table]; ok {
		sn.State = slices.Clone(state)
		s.snaps[table] = sn
	}
}

// SetFail sets or clears (nil) the failure of every write.
func (s *MemoryStore[A]) SetFail(f func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Fail = f
}
