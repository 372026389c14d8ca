package host_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// recordStore is a MemoryStore that keeps every snapshot saved.
type recordStore struct {
	*host.MemoryStore[toyAction]
	snaps []host.TableSnapshot
}

func (s *recordStore) SaveSnapshot(ctx context.Context, table string, snap host.TableSnapshot) error {
	s.snaps = append(s.snaps, snap)
	return s.MemoryStore.SaveSnapshot(ctx, table, snap)
}

// TestWriteSnapshotTestdata writes, when SNAPSHOT_TESTDATA names a file,
// a table's store as the host of this version writes it - its record,
// log and every snapshot - with its tokens, the answers it gave and every
// viewer's events: the testdata of TestRestoreOldVersions, made once per
// state version before the next one replaces it.
func TestWriteSnapshotTestdata(t *testing.T) {
	file := os.Getenv("SNAPSHOT_TESTDATA")
	if file == "" {
		t.Skip("SNAPSHOT_TESTDATA names no file to write")
	}
	st := &recordStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 4)
	acked := a.playUntil(func() bool { return a.round() >= 3 })
	for id, seq := range a.playUntil(func() bool { return a.game().total >= 4 }) {
		acked[id] = seq
	}
	var out struct {
		Record    host.TableRecord
		Log       []host.Entry[toyAction]
		Snapshots []host.TableSnapshot
		Tokens    [4]string
		Now       time.Time
		Acked     map[string]uint64
		Streams   [][]string
	}
	rec, _, _, err := st.LoadTable(context.Background(), a.id)
	if err != nil {
		t.Fatal(err)
	}
	out.Record, out.Log, out.Snapshots, out.Tokens = rec, st.Entries(a.id), st.snaps, a.tokens
	out.Now, out.Acked, out.Streams = a.clk.Now().Add(time.Minute), acked, streams(t, a.h, a.id, a.tokens, 1)
	raw, err := json.MarshalIndent(out, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
