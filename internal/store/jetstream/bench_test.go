package jetstream

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// BenchmarkAppend appends one entry at a time on a three-node cluster in
// this process (R3 streams: each Append waits for two servers of three),
// from 1 and from 100 tables at once, each table appending in turn as the
// host does. ns/op is per append over all tables; appends/s is the
// throughput, p50-µs and p99-µs the latency of one Append.
func BenchmarkAppend(b *testing.B) {
	c := newCluster(b, 3)
	runs := 0
	for _, tables := range []int{1, 100} {
		b.Run(fmt.Sprint("tables=", tables), func(b *testing.B) {
			s := open[move](b, c, 0, fmt.Sprint("bench", tables), moveCodec{})
			ctx := context.Background()
			runs++ // the benchmark runs again with a larger b.N: new tables
			ids := make([]string, tables)
			for i := range tables {
				ids[i] = fmt.Sprintf("r%d-t%d", runs, i)
				if err := s.Create(ctx, record(ids[i])); err != nil {
					b.Fatal(err)
				}
			}
			e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
			lat := make([][]time.Duration, tables)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for i := range tables {
				n := b.N / tables
				if i < b.N%tables {
					n++
				}
				wg.Go(func() {
					id := ids[i]
					for range n {
						t := time.Now()
						if err := s.Append(ctx, id, e); err != nil {
							b.Error(err)
							return
						}
						lat[i] = append(lat[i], time.Since(t))
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			all := slices.Concat(lat...)
			slices.Sort(all)
			if len(all) > 0 {
				b.ReportMetric(float64(len(all))/elapsed.Seconds(), "appends/s")
				b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
			}
		})
	}
}

// BenchmarkClaim is the store's part of a takeover: Claim reads a table
// (its record, its snapshot and the 60 entries after it, in 60 messages)
// and fences it, alternately from two nodes. ns/op is one Claim.
func BenchmarkClaim(b *testing.B) {
	c := newCluster(b, 3)
	nodes := []*Store[move]{
		open[move](b, c, 0, "claim", moveCodec{}, WithNodeID("A")),
		open[move](b, c, 1, "claim", moveCodec{}, WithNodeID("B")),
	}
	ctx := context.Background()
	s := nodes[0]
	if err := s.Create(ctx, record("t")); err != nil {
		b.Fatal(err)
	}
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	for range 100 {
		if err := s.Append(ctx, "t", e); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.SaveSnapshot(ctx, "t", host.TableSnapshot{Entries: 100, State: make([]byte, 20000), Events: make([]byte, 3000)}); err != nil {
		b.Fatal(err)
	}
	for range 60 {
		if err := s.Append(ctx, "t", e); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		_, snap, es, err := nodes[(i+1)%2].Claim(ctx, "t")
		if err != nil || snap == nil || len(es) != 60 {
			b.Fatalf("Claim: snapshot %v, %d entries, %v", snap != nil, len(es), err)
		}
	}
}
