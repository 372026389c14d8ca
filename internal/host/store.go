package host

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Store keeps what a table needs to be rebuilt: its record and every entry
// the host accepted, in order. The host appends an entry before it
// acknowledges the request that caused it; an append error refuses the
// request (ErrUnavailable) and leaves the table as it was. Implementations
// must be safe for concurrent use by many tables.
type Store[A any] interface {
	Create(ctx context.Context, rec TableRecord) error
	Append(ctx context.Context, table string, entries ...Entry[A]) error
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
	EntryAction EntryKind = iota + 1 // a game action (Actor is the seat or System)
	EntryNotice                      // a notice about a seat or the table
)

// Entry is one accepted step of a table. Replaying a table's entries in
// order through the same game rebuilds its state and its event log, sequence
// numbers included.
type Entry[A any] struct {
	At        time.Time
	Kind      EntryKind
	Actor     int // the seat that acted, or System
	Action    A
	Notice    Notice
	TokenHash [32]byte // NoticeJoined: SHA-256 of the seat token
	Entropy   []byte   // NoticeJoined: the player's entropy for wall seeds
}

// MemoryStore is a Store that keeps everything in memory: the default until
// a durable store is configured, and a test double.
type MemoryStore[A any] struct {
	mu      sync.Mutex
	tables  map[string]TableRecord
	entries map[string][]Entry[A]
	// Fail, when set, makes every Append fail with its result (for tests of
	// a refusing store).
	Fail func() error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore[A any]() *MemoryStore[A] {
	return &MemoryStore[A]{tables: map[string]TableRecord{}, entries: map[string][]Entry[A]{}}
}

// Create records a new table.
func (s *MemoryStore[A]) Create(_ context.Context, rec TableRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[rec.ID]; ok {
		return fmt.Errorf("memory store: table %s exists", rec.ID)
	}
	s.tables[rec.ID] = rec
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
		return fmt.Errorf("memory store: no table %s", table)
	}
	s.entries[table] = append(s.entries[table], entries...)
	return nil
}

// Entries returns a copy of a table's log.
func (s *MemoryStore[A]) Entries(table string) []Entry[A] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.entries[table])
}

// SetFail sets or clears (nil) the failure of Append.
func (s *MemoryStore[A]) SetFail(f func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Fail = f
}
