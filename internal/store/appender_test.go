package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
)

type byteCodec struct{}

func (byteCodec) AppendAction(dst []byte, a byte) []byte { return append(dst, a) }
func (byteCodec) DecodeAction(b []byte) (byte, error)    { return b[0], nil }

// TestAppendWhileWriterBusy: an Append is durable and answered while the
// bbolt writer is held inside a transaction (a move or a large snapshot
// commit, here a write that blocks until released), and a reader sees it.
func TestAppendWhileWriterBusy(t *testing.T) {
	ctx := context.Background()
	s, err := Open[byte](filepath.Join(t.TempDir(), "s.db"), byteCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	entry := host.Entry[byte]{At: time.Unix(1_700_000_000, 0), Kind: host.EntryAction, Action: 1}
	if err := s.Append(ctx, "t", entry); err != nil {
		t.Fatal(err)
	}

	inside, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- s.do(ctx, func(*bolt.Tx) error {
			close(inside)
			<-release
			return nil
		})
	}()
	<-inside
	appended := make(chan error, 1)
	go func() { appended <- s.Append(ctx, "t", entry) }()
	answered := false
	select {
	case err := <-appended:
		answered = true
		if err != nil {
			t.Errorf("Append while the writer is busy: %v", err)
		}
	case <-time.After(10 * time.Second):
		// Not a timing: main's single writer never answers until released.
		t.Error("Append waited for the bbolt writer")
	}
	if es, err := s.LoadEntries(ctx, "t", 0); err != nil || len(es) != 2 {
		t.Errorf("LoadEntries while the writer is busy = %d entries, %v; want 2", len(es), err)
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if !answered {
		<-appended
	}
}
