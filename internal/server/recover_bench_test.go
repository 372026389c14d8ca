package server_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
)

// botGameLog plays a whole east-south game of four bots and returns the
// table's record and log.
func botGameLog(b *testing.B) (host.TableRecord, []host.Entry[table.Action]) {
	b.Helper()
	cfg := realConfig()
	mem := host.NewMemoryStore[table.Action]()
	cfg.Store = mem
	srv, err := server.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	h := srv.Host()
	info, owner, err := createBotTable(ctx, srv)
	if err != nil {
		b.Fatal(err)
	}
	if err := h.Start(ctx, info, owner); err != nil {
		b.Fatal(err)
	}
	for {
		in, _ := h.Get(info)
		if in.State == host.Finished {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var rec host.TableRecord
	var es []host.Entry[table.Action]
	_ = mem.Load(ctx, func(r host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[table.Action]) error {
		rec = r
		var err error
		es, err = mem.LoadEntries(ctx, r.ID, 0)
		return err
	})
	return rec, es
}

// createBotTable creates a hanchan table that bots fill, through the gRPC
// handler's code path.
func createBotTable(ctx context.Context, srv *server.Server) (string, string, error) {
	r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true, Seed: seed(21)}})
	if err != nil {
		return "", "", err
	}
	return r.GetTable().GetTableId(), r.GetOwnerToken(), nil
}

// BenchmarkRecover is the restart of one table that played a whole
// east-south game: its log replayed through the engine into the host
// (events, every seat's numbers, dedupe), from a store in memory.
func BenchmarkRecover(b *testing.B) {
	rec, es := botGameLog(b)
	mem := host.NewMemoryStore[table.Action]()
	ctx := context.Background()
	_ = mem.Create(ctx, rec)
	_ = mem.Append(ctx, rec.ID, es...)
	benchRecover(b, mem, len(es))
}

// BenchmarkRecoverBolt is BenchmarkRecover from the bbolt file: reading
// and decoding the log too.
func BenchmarkRecoverBolt(b *testing.B) {
	rec, es := botGameLog(b)
	st, err := store.Open[table.Action](filepath.Join(b.TempDir(), "a.db"), server.ActionCodec{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if err := st.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	if err := st.Append(ctx, rec.ID, es...); err != nil {
		b.Fatal(err)
	}
	benchRecover(b, st, len(es))
}

func benchRecover(b *testing.B, st host.Store[table.Action], entries int) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cfg := realConfig()
		cfg.Store = st
		srv, err := server.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if n, err := srv.Recover(context.Background()); err != nil || n != 1 {
			b.Fatalf("Recover = %d, %v", n, err)
		}
		srv.Close()
	}
	b.ReportMetric(float64(entries), "entries/table")
}
