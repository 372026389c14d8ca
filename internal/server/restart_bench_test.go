package server_test

import (
	"context"
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

// finishedGames plays n east-only games of four bots in memory and copies
// them into a bbolt file as a server leaves them: each table's record,
// log and latest snapshot with its events, marked finished. It returns
// the file's path and the tables' ids.
func finishedGames(b *testing.B, n int) (string, []string) {
	b.Helper()
	mem := host.NewMemoryStore[table.Action]()
	cfg := riichiConfig()
	cfg.Store = mem
	srv, err := newServer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	var ids []string
	for i := range n {
		r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: &pb.TableSettings{
			FillWithBots: true, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(byte(i)),
		}})
		if err != nil {
			b.Fatal(err)
		}
		id := r.GetTable().GetTableId()
		if err := riichiHost(srv).Start(ctx, id, r.GetOwnerToken()); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	path := filepath.Join(b.TempDir(), "authority.db")
	st, err := store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, id := range ids {
		rec, snap, _, err := mem.LoadTable(ctx, id)
		if err != nil || snap == nil {
			b.Fatalf("table %s: snapshot %v, %v", id, snap, err)
		}
		if err := st.Create(ctx, rec); err != nil {
			b.Fatal(err)
		}
		if err := st.Append(ctx, id, mem.Entries(id)...); err != nil {
			b.Fatal(err)
		}
		events, err := mem.LoadEvents(ctx, id, snap.Entries)
		if err != nil {
			b.Fatal(err)
		}
		snap.Events = events
		if err := st.SaveSnapshot(ctx, id, *snap); err != nil {
			b.Fatal(err)
		}
		at, ok := mem.Finished(id)
		if !ok {
			b.Fatalf("table %s did not finish", id)
		}
		if err := st.Finish(ctx, id, at); err != nil {
			b.Fatal(err)
		}
	}
	return path, ids
}

// everyTable is a store as stores were before they marked finished
// tables: Load passes every table on, finished or not.
type everyTable struct {
	*store.Bolt[table.Action]
	ids []string
}

func (s everyTable) Load(ctx context.Context, f func(host.TableRecord, *host.TableSnapshot, []host.Entry[table.Action]) error) error {
	for _, id := range s.ids {
		rec, snap, es, err := s.LoadTable(ctx, id)
		if err != nil {
			return err
		}
		if err := f(rec, snap, es); err != nil {
			return err
		}
	}
	return nil
}

func (everyTable) Finish(context.Context, string, time.Time) error { return nil }

// BenchmarkRestartFinished is the restart of a server whose bbolt file
// holds 200 finished east-only games: recovery that leaves them in the
// store (skip: the store's index of unfinished tables is empty) against
// recovery that loads every table (all: each restored from its final
// snapshot, as before finished tables were marked). An op is a new server
// recovering its store; readback is then one GetTable of a finished game,
// read back from the store.
func BenchmarkRestartFinished(b *testing.B) {
	const games = 200
	path, ids := finishedGames(b, games)
	st, err := store.Open[table.Action](path, riichi.ActionCodec{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, bc := range []struct {
		name  string
		store host.Store[table.Action]
		want  int
	}{{"skip", st, 0}, {"all", everyTable{Bolt: st, ids: ids}, games}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				cfg := riichiConfig()
				cfg.Store = bc.store
				srv, err := newServer(cfg)
				if err != nil {
					b.Fatal(err)
				}
				if n, err := srv.Recover(context.Background()); err != nil || n != bc.want {
					b.Fatalf("Recover = %d, %v; want %d", n, err, bc.want)
				}
				srv.Close()
			}
		})
	}
	b.Run("readback", func(b *testing.B) {
		cfg := riichiConfig()
		cfg.Store = st
		srv, err := newServer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if in, err := riichiHost(srv).Get(context.Background(), ids[i%games]); err != nil || in.State != host.Finished {
				b.Fatalf("Get = %v, %v", in.State, err)
			}
		}
	})
}
