package feed_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/rusage"
)

// BenchmarkBoltAppend is the durable feed of a busy server: 30,000
// events kept (the created, started and finished of 10,000 games, table
// ids as the host makes them), then events appended by 1 and by 64
// goroutines at once (tables starting and ending their games together).
// It reports the CPU an event (user and system: the fsyncs are most of
// it) besides the allocations.
func BenchmarkBoltAppend(b *testing.B) {
	for _, callers := range []int{1, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			f, err := feed.Open(filepath.Join(b.TempDir(), "results.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			fill := make(chan struct{}, 64)
			for range 10_000 {
				id := uuid.NewString()
				for _, k := range []pb.TableEvent_Kind{pb.TableEvent_KIND_CREATED, pb.TableEvent_KIND_STARTED, pb.TableEvent_KIND_FINISHED} {
					fill <- struct{}{}
					go func() {
						defer func() { <-fill }()
						if _, err := f.Append(event(k, id)); err != nil {
							b.Error(err)
						}
					}()
				}
			}
			for range cap(fill) {
				fill <- struct{}{}
			}
			runtime.GC() // the filling's garbage is not the appends'
			var n atomic.Int64
			b.ReportAllocs()
			cpu := rusage.CPU()
			b.ResetTimer()
			var wg sync.WaitGroup
			for range callers {
				wg.Go(func() {
					for i := n.Add(1); i <= int64(b.N); i = n.Add(1) {
						if _, err := f.Append(event(kinds[i%3], uuid.NewString())); err != nil {
							b.Error(err)
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64((rusage.CPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/event")
		})
	}
}

var kinds = [3]pb.TableEvent_Kind{pb.TableEvent_KIND_CREATED, pb.TableEvent_KIND_STARTED, pb.TableEvent_KIND_FINISHED}

// event is a finished game's event as the server writes it: four players,
// scores and ranks.
func event(kind pb.TableEvent_Kind, table string) *pb.TableEvent {
	return &pb.TableEvent{Kind: kind, TableId: table, RuleSet: pb.RuleSet_RULE_SET_RIICHI,
		PlayerIds: []string{"player-1", "player-2", "player-3", "player-4"},
		Scores:    []int32{35000, 28000, 22000, 15000}, Ranks: []int32{1, 2, 3, 4}}
}
