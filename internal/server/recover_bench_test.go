package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
)

// hanchan is a whole east-south game of one player (seat 0, playing as
// the efficient bot) and three bots, as stored: the table's record, its
// log and every snapshot the host saved.
type hanchan struct {
	rec   host.TableRecord
	log   []host.Entry[table.Action]
	snaps []host.TableSnapshot
	token string
}

func playHanchan(b *testing.B) *hanchan {
	b.Helper()
	t := &testing.T{}
	st := newSnapSpy()
	s := newSoloTable(t, st)
	s.play(func() bool { return false })
	if t.Failed() {
		b.Fatal("the game failed")
	}
	s.srv.Close()
	h := &hanchan{log: st.Entries(s.id), snaps: st.snaps, token: s.token}
	rec, _, _, err := st.LoadTable(context.Background(), s.id)
	if err != nil {
		b.Fatal(err)
	}
	h.rec = rec
	return h
}

// late is a crash point in the middle of the game's last round: the
// entries before an action of seat 0 halfway between the last two
// snapshots, so that the recovered table waits for seat 0 and plays
// nothing.
func (h *hanchan) late() uint64 {
	from, to := h.snaps[len(h.snaps)-2].Entries, h.snaps[len(h.snaps)-1].Entries
	for n := (from + to) / 2; n < to; n++ {
		if e := h.log[n]; e.Kind == host.EntryAction && e.Actor == 0 {
			return n
		}
	}
	panic("seat 0 does not act in the last round")
}

// stored writes the first n entries of the game to st, with the snapshots
// saved by then if snaps.
func (h *hanchan) stored(b *testing.B, st host.Store[table.Action], n uint64, snaps bool) {
	b.Helper()
	ctx := context.Background()
	if err := st.Create(ctx, h.rec); err != nil {
		b.Fatal(err)
	}
	if err := st.Append(ctx, h.rec.ID, h.log[:n]...); err != nil {
		b.Fatal(err)
	}
	for _, sn := range h.snaps {
		if snaps && sn.Entries <= n {
			if err := st.SaveSnapshot(ctx, h.rec.ID, sn); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRecover is the restart of one table of an east-south game:
// in the middle of its last round (late) or after its end (finished),
// rebuilt from the whole log (log) or from its latest snapshot and the
// entries after it (snapshot), the store in memory or the bbolt file
// (reading and decoding included). An op is a new server recovering the
// table, engine and host (events, every viewer's numbers, dedupe)
// included.
func BenchmarkRecover(b *testing.B) {
	h := playHanchan(b)
	points := []struct {
		name string
		n    uint64
	}{{"late", h.late()}, {"finished", uint64(len(h.log))}}
	for _, p := range points {
		for _, snaps := range []bool{false, true} {
			from := "log"
			if snaps {
				from = "snapshot"
			}
			b.Run(fmt.Sprintf("%s/%s/memory", p.name, from), func(b *testing.B) {
				st := host.NewMemoryStore[table.Action]()
				h.stored(b, st, p.n, snaps)
				benchRecover(b, st, p.n, snaps)
			})
			b.Run(fmt.Sprintf("%s/%s/bolt", p.name, from), func(b *testing.B) {
				st, err := store.Open[table.Action](filepath.Join(b.TempDir(), "a.db"), riichi.ActionCodec{})
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				h.stored(b, st, p.n, snaps)
				benchRecover(b, st, p.n, snaps)
			})
		}
	}
}

// unmarked is a store that is never told a game ended, so that every
// op of BenchmarkRecover/finished recovers the finished table (a store
// marks it, and recovery then leaves it alone; reading it back costs
// what this recovery does).
type unmarked struct{ host.Store[table.Action] }

func (unmarked) Finish(context.Context, string, time.Time) error { return nil }

func benchRecover(b *testing.B, st host.Store[table.Action], entries uint64, snaps bool) {
	st = unmarked{st}
	replayed := entries
	if snaps {
		_ = st.Load(context.Background(), func(_ host.TableRecord, sn *host.TableSnapshot, after []host.Entry[table.Action]) error {
			replayed = uint64(len(after))
			if sn == nil {
				b.Fatal("no snapshot")
			}
			return nil
		})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cfg := riichiConfig()
		cfg.Store = st
		srv, err := newServer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if n, err := srv.Recover(context.Background()); err != nil || n != 1 {
			b.Fatalf("Recover = %d, %v", n, err)
		}
		srv.Close()
	}
	b.ReportMetric(float64(entries), "entries/table")
	b.ReportMetric(float64(replayed), "replayed/table")
}

// discard is a store that keeps nothing: the cost of taking snapshots
// without that of keeping them.
type discard struct{}

func (discard) Create(context.Context, host.TableRecord) error                    { return nil }
func (discard) Append(context.Context, string, ...host.Entry[table.Action]) error { return nil }
func (discard) SaveSnapshot(context.Context, string, host.TableSnapshot) error    { return nil }
func (discard) LoadEntries(context.Context, string, uint64) ([]host.Entry[table.Action], error) {
	return nil, nil
}
func (discard) LoadEvents(context.Context, string, uint64) ([]byte, error) { return nil, nil }
func (discard) Load(context.Context, func(host.TableRecord, *host.TableSnapshot, []host.Entry[table.Action]) error) error {
	return nil
}
func (discard) Finish(context.Context, string, time.Time) error { return nil }
func (discard) LoadTable(_ context.Context, id string) (host.TableRecord, *host.TableSnapshot, []host.Entry[table.Action], error) {
	return host.TableRecord{}, nil, nil, fmt.Errorf("table %s: %w", id, host.ErrNoTable)
}
func (discard) Delete(context.Context, string) error          { return nil }
func (discard) Prune(context.Context, time.Time) (int, error) { return 0, nil }

// BenchmarkSnapshotWrite is what snapshots cost per round. An op of
// "take" plays a whole east-south game of four bots on a host whose store
// keeps nothing,
// with snapshots or without (an engine that hides its Snapshot method);
// the difference over rounds/game is the CPU a snapshot takes (the host's
// state, the game's, the round's events encoded). An op of "bolt" is
// one late-game snapshot stored in the bbolt file: a transaction and its
// fsyncs, paid once per round after the round's last request is answered.
func BenchmarkSnapshotWrite(b *testing.B) {
	for _, snaps := range []bool{true, false} {
		name := "take/none"
		if snaps {
			name = "take/snapshots"
		}
		b.Run(name, func(b *testing.B) {
			cfg := riichiConfig()
			if !snaps {
				newEngine := cfg.NewEngine
				cfg.NewEngine = func(c table.Config) (riichi.Engine, error) {
					e, err := newEngine(c)
					return struct{ riichi.Engine }{e}, err
				}
			}
			cfg.Store = discard{}
			srv, err := newServer(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			ctx := context.Background()
			rounds := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true, Seed: seed(byte(i))}})
				if err != nil {
					b.Fatal(err)
				}
				id := r.GetTable().GetTableId()
				if err := riichiHost(srv).Start(ctx, id, r.GetOwnerToken()); err != nil {
					b.Fatal(err)
				}
				// The bots play the whole game in a call into the table;
				// the public stream ends with it.
				err = riichiHost(srv).Watch(ctx, id, 0, func(e *host.Event[table.Body]) error {
					if _, ok := e.Body.(table.RoundEnded); ok {
						rounds++
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
		})
	}
	b.Run("bolt", func(b *testing.B) {
		h := playHanchan(b)
		sn := h.snaps[len(h.snaps)-2] // the start of the last round
		st, err := store.Open[table.Action](filepath.Join(b.TempDir(), "a.db"), riichi.ActionCodec{})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		h.stored(b, st, uint64(len(h.log)), false)
		ctx := context.Background()
		b.ResetTimer()
		for range b.N {
			if err := st.SaveSnapshot(ctx, h.rec.ID, sn); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(sn.State)), "state-bytes")
		b.ReportMetric(float64(len(sn.Events)), "events-bytes")
	})
}
