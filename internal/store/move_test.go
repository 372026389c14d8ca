package store

import (
	"fmt"
	"testing"
	"time"
)

// TestMoveDue: when the writer moves the journal, by its length, the
// tables in it, the age of its oldest entry, a drain under way and a
// failed move's wait.
func TestMoveDue(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	p := movePolicy{every: time.Minute, at: 100, perTable: 4, max: 1000}
	for _, c := range []struct {
		name             string
		entries, tables  int
		age              time.Duration
		draining, failed bool
		want             bool
	}{
		{name: "empty", entries: 0, tables: 0, age: time.Hour},
		{name: "few", entries: 99, tables: 10, age: time.Second},
		{name: "at, few tables", entries: 100, tables: 25, age: time.Second, want: true},
		{name: "at, many tables", entries: 100, tables: 26, age: time.Second},
		{name: "four a table", entries: 400, tables: 100, age: time.Second, want: true},
		{name: "under four a table", entries: 999, tables: 250, age: time.Second},
		{name: "max", entries: 1000, tables: 1000, age: time.Second, want: true},
		{name: "old", entries: 1, tables: 1, age: time.Minute, want: true},
		{name: "draining", entries: 1, tables: 1, age: time.Second, draining: true, want: true},
		{name: "after a failure", entries: 1000, tables: 1, age: time.Hour, failed: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := newJournal()
			j.n = c.entries
			for i := range c.tables {
				j.tables[fmt.Sprint("t", i)] = &pending{}
			}
			j.since = now.Add(-c.age)
			j.draining = c.draining
			if c.failed {
				j.retry = now.Add(time.Second)
			}
			if got := j.due(now, p); got != c.want {
				t.Errorf("due(%d entries of %d tables, %v old) = %v, want %v", c.entries, c.tables, c.age, got, c.want)
			}
		})
	}
}

// TestDefaultMoveAtScale: at 10,000 tables the journal waits for eight
// entries a table before it moves (four wrote each table's pages for
// half as many entries), and moves at 131,072 entries whatever the
// tables.
func TestDefaultMoveAtScale(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for _, c := range []struct {
		entries, tables int
		want            bool
	}{
		{entries: 8 << 10, tables: 1000, want: true},
		{entries: 40_000, tables: 10_000},
		{entries: 79_999, tables: 10_000},
		{entries: 80_000, tables: 10_000, want: true},
		{entries: 128<<10 - 1, tables: 50_000},
		{entries: 128 << 10, tables: 50_000, want: true},
	} {
		j := newJournal()
		j.n = c.entries
		for i := range c.tables {
			j.tables[fmt.Sprint("t", i)] = &pending{}
		}
		j.since = now.Add(-time.Second)
		if got := j.due(now, defaultMove); got != c.want {
			t.Errorf("due(%d entries of %d tables) = %v, want %v", c.entries, c.tables, got, c.want)
		}
	}
}
