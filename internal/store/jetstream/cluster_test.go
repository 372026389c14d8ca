package jetstream

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// cluster is a JetStream cluster of servers in this process, on loopback.
type cluster struct {
	t       testing.TB
	opts    []*server.Options
	servers []*server.Server // nil while a server is down
}

// freePorts returns n ports free now on 127.0.0.1.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, n)
	ls := make([]net.Listener, n)
	for i := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls[i], ports[i] = l, l.Addr().(*net.TCPAddr).Port
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// newCluster starts n JetStream servers that route to each other, waits
// until they have a meta leader, and shuts them down when the test ends.
func newCluster(t testing.TB, n int) *cluster {
	t.Helper()
	ports := freePorts(t, 2*n)
	routes := make([]string, n)
	for i := range n {
		routes[i] = fmt.Sprintf("nats://127.0.0.1:%d", ports[n+i])
	}
	c := &cluster{t: t, servers: make([]*server.Server, n)}
	for i := range n {
		c.opts = append(c.opts, &server.Options{
			ServerName: fmt.Sprintf("n%d", i),
			Host:       "127.0.0.1",
			Port:       ports[i],
			JetStream:  true,
			StoreDir:   t.TempDir(),
			Cluster:    server.ClusterOpts{Name: "authority", Host: "127.0.0.1", Port: ports[n+i]},
			Routes:     server.RoutesFromStr(strings.Join(routes, ",")),
			NoLog:      true,
			NoSigs:     true,
		})
	}
	t.Cleanup(func() {
		for i := range c.servers {
			c.stop(i)
		}
	})
	for i := range n {
		c.start(i)
	}
	c.waitLeader()
	return c
}

// start starts server i (again, with its store as it was).
func (c *cluster) start(i int) {
	c.t.Helper()
	s, err := server.NewServer(c.opts[i])
	if err != nil {
		c.t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		c.t.Fatalf("server %d does not start", i)
	}
	c.servers[i] = s
}

// stop shuts server i down, if it runs.
func (c *cluster) stop(i int) {
	if s := c.servers[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.servers[i] = nil
	}
}

// waitLeader waits until the running servers have a JetStream meta leader
// and are current with it.
func (c *cluster) waitLeader() {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		leader, current := false, true
		for _, s := range c.servers {
			if s == nil {
				continue
			}
			leader = leader || s.JetStreamIsLeader()
			current = current && s.JetStreamIsCurrent()
		}
		if leader && current {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatal("no JetStream meta leader")
}

// streamLeader returns the index of the server that leads a stream, -1
// if none does.
func (c *cluster) streamLeader(stream string) int {
	for i, s := range c.servers {
		if s != nil && s.JetStreamIsStreamLeader("$G", stream) {
			return i
		}
	}
	return -1
}

// urls returns the client URLs of the servers, first's first.
func (c *cluster) urls(first int) string {
	var us []string
	for k := range c.opts {
		i := (first + k) % len(c.opts)
		us = append(us, fmt.Sprintf("nats://127.0.0.1:%d", c.opts[i].Port))
	}
	return strings.Join(us, ",")
}

// connect connects to the cluster through server first (the others as
// fallbacks), closed when the test ends.
func (c *cluster) connect(first int) jetstream.JetStream {
	c.t.Helper()
	nc, err := nats.Connect(c.urls(first), nats.DontRandomize(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		c.t.Fatal(err)
	}
	return js
}

// open opens a store of the rule set through server first, retrying while
// the cluster settles (a new cluster may not place an R3 stream at once).
func open[A any](t testing.TB, c *cluster, first int, ruleSet string, codec interface {
	AppendAction([]byte, A) []byte
	DecodeAction([]byte) (A, error)
}, opts ...Option) *Store[A] {
	t.Helper()
	js := c.connect(first)
	var err error
	for range 50 {
		var s *Store[A]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s, err = Open[A](ctx, js, ruleSet, codec, opts...)
		cancel()
		if err == nil {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("open store: %v", err)
	return nil
}
