package cluster_test

import (
	"context"
	"fmt"
	"os"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/cluster"
)

// A node takes a table's lease; another node sees who owns the table and
// cannot take it.
func Example() {
	dir, _ := os.MkdirTemp("", "leases")
	defer os.RemoveAll(dir)
	ns, _ := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	go ns.Start()
	defer ns.WaitForShutdown()
	defer ns.Shutdown()
	ns.ReadyForConnections(10 * time.Second)
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)

	ctx := context.Background()
	a, err := cluster.Open(ctx, js, cluster.Config{NodeID: "a", Addr: "10.0.0.1:7400"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	b, err := cluster.Open(ctx, js, cluster.Config{NodeID: "b", Addr: "10.0.0.2:7400"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()

	won, _ := a.Owner("riichi").Acquire(ctx, "table-1")
	fmt.Println("a takes table-1:", won)
	won, _ = b.Owner("riichi").Acquire(ctx, "table-1")
	fmt.Println("b takes table-1:", won)
	l, _ := b.Lookup(ctx, "table-1")
	fmt.Println("b sees its owner:", l.Node, l.Addr, l.RuleSet)
	// Output:
	// a takes table-1: true
	// b takes table-1: false
	// b sees its owner: a 10.0.0.1:7400 riichi
}
