package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
)

// BenchmarkAppend is one table writing one entry at a time: each Append
// waits for its own fsync, the latency an action pays.
func BenchmarkAppend(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		b.Fatal(err)
	}
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	b.ResetTimer()
	for range b.N {
		if err := s.Append(ctx, "t", e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendTables is 64 tables writing at once (RunParallel with
// parallelism 32 per core): the group commit shares fsyncs between them.
// ns/op is per entry, over all tables.
func BenchmarkAppendTables(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	const tables = 64
	for i := range tables {
		if err := s.Create(ctx, host.TableRecord{ID: fmt.Sprint("t", i)}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int32
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint("t", next.Add(1)%tables)
		for pb.Next() {
			if err := s.Append(ctx, id, e); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
