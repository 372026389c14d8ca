package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store/jetstream"
)

// byteCodec stores actions that are one byte.
type byteCodec struct{}

func (byteCodec) AppendAction(dst []byte, a byte) []byte { return append(dst, a) }

func (byteCodec) DecodeAction(b []byte) (byte, error) {
	if len(b) != 1 {
		return 0, fmt.Errorf("action of %d bytes", len(b))
	}
	return b[0], nil
}

// A node creates a table and appends to it; another node claims it, which
// fences the first: its next append fails with host.ErrFenced.
func ExampleStore_Claim() {
	// One JetStream server in this process (a cluster has three).
	dir, _ := os.MkdirTemp("", "jetstream")
	defer os.RemoveAll(dir)
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		panic(err)
	}
	go srv.Start()
	defer func() { srv.Shutdown(); srv.WaitForShutdown() }()
	if !srv.ReadyForConnections(10 * time.Second) {
		panic("no server")
	}
	ctx := context.Background()
	var conns []*nats.Conn
	defer func() {
		for _, nc := range conns {
			nc.Close()
		}
	}()
	node := func(id string) *jetstream.Store[byte] {
		nc, err := nats.Connect(srv.ClientURL())
		if err != nil {
			panic(err)
		}
		conns = append(conns, nc)
		js, _ := njs.New(nc)
		s, err := jetstream.Open[byte](ctx, js, "example", byteCodec{}, jetstream.WithReplicas(1), jetstream.WithNodeID(id))
		if err != nil {
			panic(err)
		}
		return s
	}
	a, b := node("a"), node("b")

	_ = a.Create(ctx, host.TableRecord{ID: "t1"})
	_ = a.Append(ctx, "t1", host.Entry[byte]{Kind: host.EntryAction, Action: 7}, host.Entry[byte]{Kind: host.EntryAction, Action: 8})
	_, _, entries, _ := b.Claim(ctx, "t1")
	fmt.Println("b claimed a log of", len(entries), "entries")
	err = a.Append(ctx, "t1", host.Entry[byte]{Kind: host.EntryAction, Action: 9})
	fmt.Println("a appends:", errors.Is(err, host.ErrFenced))
	fmt.Println("b appends:", b.Append(ctx, "t1", host.Entry[byte]{Kind: host.EntryAction, Action: 9}))
	// Output:
	// b claimed a log of 2 entries
	// a appends: true
	// b appends: <nil>
}
