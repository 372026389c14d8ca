package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Store keeps what a table needs to be rebuilt: its record and every entry
// the host accepted, in order. The host appends an entry, and waits for the
// store to make it durable, before it publishes its events or acknowledges
// the request that caused it; an append error refuses the request
// (ErrUnavailable) and leaves the table as it was. Entries appended in one
// call are stored together or not at all. Implementations must be safe for
// concurrent use by many tables.
//
// The interface is the host's, small on purpose: an embedded store
// (package store) implements it today, a networked one can tomorrow.
type Store[A any] interface {
	Create(ctx context.Context, rec TableRecord) error
	Append(ctx context.Context, table string, entries ...Entry[A]) error
	// Load calls f for every table, oldest first, with its record and
	// entries in the order they were appended. It stops at f's first error
	// and returns it.
	Load(ctx context.Context, f func(rec TableRecord, entries []Entry[A]) error) error
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
	TokenHash [32]byte // NoticeJoined: SHA-256 of the seat token
	Entropy   []byte   // NoticeJoined: the player's entropy for wall seeds
}

// MemoryStore is a Store that keeps everything in memory: the default until
// a durable store is configured, and a test double (two hosts sharing one
// MemoryStore are a crash and a restart).
type MemoryStore[A any] struct {
	mu      sync.Mutex
	order   []string
	tables  map[string]TableRecord
	entries map[string][]Entry[A]
	// Fail, when set, makes every Create and Append fail with its result
	// (for tests of a refusing store).
	Fail func() error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore[A any]() *MemoryStore[A] {
	return &MemoryStore[A]{tables: map[string]TableRecord{}, entries: map[string][]Entry[A]{}}
}

// ErrNoTable is the error of a store asked to append to a table it does
// not hold.
var ErrNoTable = errors.New("store: no such table")

// Create records a new table.
func (s *MemoryStore[A]) Create(_ context.Context, rec TableRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Fail != nil {
		if err := s.Fail(); err != nil {
			return err
		}
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
	if s.Fail != nil {
		if err := s.Fail(); err != nil {
			return err
		}
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

// Load calls f for every table, oldest first.
func (s *MemoryStore[A]) Load(_ context.Context, f func(TableRecord, []Entry[A]) error) error {
	s.mu.Lock()
	ids := slices.Clone(s.order)
	s.mu.Unlock()
	for _, id := range ids {
		s.mu.Lock()
		rec, es := s.tables[id], slices.Clone(s.entries[id])
		s.mu.Unlock()
		if err := f(rec, es); err != nil {
			return err
		}
	}
	return nil
}

// Entries returns a copy of a table's log.
func (s *MemoryStore[A]) Entries(table string) []Entry[A] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.entries[table])
}

// SetFail sets or clears (nil) the failure of Create and Append.
func (s *MemoryStore[A]) SetFail(f func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Fail = f
}
