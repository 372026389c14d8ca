package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	jsstore "github.com/mahjong-authority/authority/internal/store/jetstream"
	"github.com/mahjong-authority/authority/internal/table"
)

// natsCluster is a three-node JetStream cluster in the test process, on
// loopback: the store and the leases of a cluster of authorities.
type natsCluster struct {
	t       *testing.T
	opts    []*natsserver.Options
	servers []*natsserver.Server
}

func freePorts(t *testing.T, n int) []int {
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

func startNATSCluster(t *testing.T, n int) *natsCluster {
	t.Helper()
	ports := freePorts(t, 2*n)
	routes := make([]string, n)
	for i := range n {
		routes[i] = fmt.Sprintf("nats://127.0.0.1:%d", ports[n+i])
	}
	c := &natsCluster{t: t, servers: make([]*natsserver.Server, n)}
	for i := range n {
		c.opts = append(c.opts, &natsserver.Options{
			ServerName: fmt.Sprintf("js%d", i), Host: "127.0.0.1", Port: ports[i],
			JetStream: true, StoreDir: t.TempDir(),
			Cluster: natsserver.ClusterOpts{Name: "authority", Host: "127.0.0.1", Port: ports[n+i]},
			Routes:  natsserver.RoutesFromStr(strings.Join(routes, ",")),
			NoLog:   true, NoSigs: true,
		})
	}
	t.Cleanup(func() {
		for i := range c.servers {
			c.stop(i)
		}
	})
	for i, o := range c.opts {
		s, err := natsserver.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		go s.Start()
		if !s.ReadyForConnections(10 * time.Second) {
			t.Fatalf("NATS server %d does not start", i)
		}
		c.servers[i] = s
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		leader, current := false, true
		for _, s := range c.servers {
			leader = leader || s.JetStreamIsLeader()
			current = current && s.JetStreamIsCurrent()
		}
		if leader && current {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatal("no JetStream meta leader")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *natsCluster) stop(i int) {
	if s := c.servers[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.servers[i] = nil
	}
}

// urls are the client URLs, server first's first.
func (c *natsCluster) urls(first int) string {
	var us []string
	for k := range c.opts {
		us = append(us, fmt.Sprintf("nats://127.0.0.1:%d", c.opts[(first+k)%len(c.opts)].Port))
	}
	return strings.Join(us, ",")
}

// TestClusterProcesses is the cluster's crash test: three authority
// processes on a three-node JetStream cluster, riichi tables of four bot
// clients each created on every node, the clients of each on another node
// than the table's (everything forwarded). The owner of a third of the
// tables is killed with SIGKILL in the middle of their rounds; its tables
// are taken over by the other two; then one JetStream server is shut
// down. Every game must end, every seat's stream stay contiguous, every
// acknowledged action be in the log once and the logs replay to the
// scores the clients saw (the crash test's checks).
func TestClusterProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	nc := startNATSCluster(t, 3)
	dir := t.TempDir()
	bin := filepath.Join(dir, "authority")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const nodes = 3
	// The lease TTL: 2s, or AUTHORITY_CLUSTER_TTL to measure the
	// failover time at another (docs/cluster.md).
	ttl := 2 * time.Second
	if v := os.Getenv("AUTHORITY_CLUSTER_TTL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		ttl = d
	}
	ports := freePorts(t, nodes)
	addrs := make([]string, nodes)
	procs := make([]*process, nodes)
	hook := startHook(t)
	secret := filepath.Join(dir, "webhook-secret")
	if err := os.WriteFile(secret, hookSecret, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range nodes {
		addrs[i] = fmt.Sprintf("127.0.0.1:%d", ports[i])
		procs[i] = startAuthority(t, bin, addrs[i], "--cluster", fmt.Sprintf("node%d", i), "--nats", nc.urls(i),
			"--advertise", addrs[i], "--lease-ttl", ttl.String(), "--replicas", "3",
			"--round-pause", "1ms", "--claim-dwell", "1ms", "--turn-time", "60s", "--claim-time", "60s",
			"--disconnect-grace", "5m", "--seat-rate", "10000", "--seat-burst", "10000", "--conn-rate", "10000", "--conn-burst", "10000",
			"--webhook", hook.url, "--webhook-secret-file", secret)
	}
	defer func() {
		for _, p := range procs {
			if p.cmd.ProcessState == nil {
				_ = p.cmd.Process.Kill()
				<-p.exited
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// Table i on node i%3; its clients on node via(i), never node 0.
	via := func(i int) int { return 1 + (i+1)%2 }
	const tables = 6
	var ids [tables]string
	var runs [tables][table.NumSeats]*seatRun
	var wg sync.WaitGroup
	var clients []*client.Client
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	dial := func(addr string) *client.Client {
		c, err := client.Dial(addr)
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
		return c
	}
	for i := range tables {
		tb, _, err := dial(addrs[i%nodes]).CreateTable(ctx, &pb.TableSettings{
			Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seedOf(40 + i), ClaimDwell: durationpb.New(time.Millisecond),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = tb.GetTableId()
		for s := range table.NumSeats {
			c := dial(addrs[via(i)])
			seat, err := c.JoinTable(ctx, ids[i], fmt.Sprint("bot", s), nil)
			if err != nil {
				t.Fatalf("table %d: join through node %d: %v", i, via(i), err)
			}
			r := &seatRun{}
			runs[i][s] = r
			wg.Go(func() { playBot(ctx, c.Follow(seat, client.Options{}), r) })
		}
	}
	admin := dial(addrs[1])
	// Node 0's tables well into their game (a round has 129 to 143
	// public events in these games), none over.
	for ready := false; !ready; time.Sleep(5 * time.Millisecond) {
		ready = true
		for i, id := range ids {
			tb, err := admin.GetTable(ctx, id)
			if err != nil {
				t.Fatalf("GetTable: %v", err)
			}
			if tb.GetState() == pb.TableState_TABLE_STATE_FINISHED {
				t.Fatalf("table %d finished before the kill: the test would prove nothing", i)
			}
			if i%nodes == 0 && tb.GetLastSeq() < 60 {
				ready = false
			}
		}
	}
	var before [tables]uint64
	for i, id := range ids {
		tb, _ := admin.GetTable(ctx, id)
		before[i] = tb.GetLastSeq()
	}
	if err := procs[0].cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	<-procs[0].exited
	killed := time.Now()
	// The failover time: until a table of the dead node has moved on.
	for moved := false; !moved; time.Sleep(5 * time.Millisecond) {
		if ctx.Err() != nil {
			t.Fatalf("node 0's tables were not taken over\n%s\n%s", procs[1].log(), procs[2].log())
		}
		for i := 0; i < tables; i += nodes {
			if tb, err := admin.GetTable(ctx, ids[i]); err == nil && tb.GetLastSeq() > before[i] {
				moved = true
			}
		}
	}
	t.Logf("killed node 0 (SIGKILL): one of its tables moved on again %v later (lease TTL %v)", time.Since(killed).Round(time.Millisecond), ttl)
	// Then a JetStream server goes: the R3 logs and leases go on with two.
	nc.stop(2)
	t.Logf("stopped JetStream server 2")
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		var seats strings.Builder
		for i := range runs {
			for s, r := range runs[i] {
				fmt.Fprintf(&seats, "table %d seat %d: ended %v, err %v, %d acked, stats %+v\n", i, s, r.ended, r.err, len(r.acked), r.stats)
			}
		}
		t.Fatalf("the games did not end\n%s\nnode 1:\n%s\nnode 2:\n%s", seats.String(), procs[1].log(), procs[2].log())
	}
	taken := regexp.MustCompile(`"table taken over"`)
	adopted := 0
	for _, p := range procs[1:] {
		adopted += len(taken.FindAllString(p.log(), -1))
	}
	if adopted < tables/nodes {
		t.Errorf("%d tables taken over, want at least %d", adopted, tables/nodes)
	}
	for i, id := range ids {
		gctx, gcancel := context.WithTimeout(ctx, 30*time.Second)
		tb, err := admin.GetTable(gctx, id)
		gcancel()
		if err != nil || tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
			_, raw := admin.Tables.GetTable(ctx, &pb.GetTableRequest{TableId: id})
			t.Fatalf("table %d %s after the games: %v, %v (one call: %v)\nnode 1:\n%s\nnode 2:\n%s", i, id, tb, err, raw, procs[1].log(), procs[2].log())
		}
		for s, r := range runs[i] {
			if r.err != nil || !r.ended || r.stats.Faults > 0 {
				t.Fatalf("table %d seat %d: ended %v, %v, %d inconsistencies", i, s, r.ended, r.err, r.stats.Faults)
			}
		}
	}
	// The logs as the replicated store keeps them.
	conn, err := nats.Connect(nc.urls(0))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	js, err := jetstream.New(conn)
	if err != nil {
		t.Fatal(err)
	}
	st, err := jsstore.Open[table.Action](ctx, js, "riichi", riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	reconnects := 0
	for i, id := range ids {
		es, err := st.LoadEntries(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := checkRiichiLog(t, i, es, runs[i])
		if i%nodes == 0 {
			reconnects += n
		}
	}
	if reconnects == 0 {
		t.Fatal("no client of the dead node's tables reconnected")
	}
	checkClusterFeed(ctx, t, addrs[1:], ids[:], hook)
}

// checkClusterFeed: the results feed is the cluster's. Every live node
// gives the same events with the same cursors, each table's end is in it
// exactly once (a table taken over included, whose end the new owner
// told), and the webhook, posted from one node at a time, got every event.
func checkClusterFeed(ctx context.Context, t *testing.T, addrs []string, ids []string, hook *hookRecorder) {
	t.Helper()
	var first []*pb.TableEvent
	for n, addr := range addrs {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		rooms := pb.NewRoomServiceClient(conn)
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		stream, err := rooms.WatchResults(wctx, &pb.WatchResultsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var evs []*pb.TableEvent
		finished := map[string]int{}
		for len(finished) < len(ids) {
			r, err := stream.Recv()
			if err != nil {
				cancel()
				t.Fatalf("node %d's feed after %d events (finished %v): %v", n+1, len(evs), finished, err)
			}
			evs = append(evs, r.GetEvent())
			if r.GetEvent().GetKind() == pb.TableEvent_KIND_FINISHED {
				finished[r.GetEvent().GetTableId()]++
			}
		}
		cancel()
		for i, e := range evs {
			if e.GetCursor() != uint64(i+1) {
				t.Fatalf("node %d: event %d has cursor %d", n+1, i, e.GetCursor())
			}
		}
		for i, id := range ids {
			if finished[id] != 1 {
				t.Errorf("node %d: table %d finished %d times in the feed", n+1, i, finished[id])
			}
		}
		if first == nil {
			first = evs
		} else if len(first) < len(evs) {
			evs = evs[:len(first)]
		}
		for i := range min(len(first), len(evs)) {
			if !proto.Equal(first[i], evs[i]) {
				t.Fatalf("event %d differs between nodes: %v, %v", i+1, first[i], evs[i])
			}
		}
	}
	last := first[len(first)-1].GetCursor()
	for deadline := time.Now().Add(30 * time.Second); hook.upTo() < last; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the webhook got the feed up to cursor %d of %d", hook.upTo(), last)
		}
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if hook.bad > 0 {
		t.Errorf("%d webhook posts without a valid signature or cursor", hook.bad)
	}
}

var hookSecret = []byte("0123456789abcdef-cluster")

// hookRecorder is a webhook receiver: it checks each post's signature
// and records the cursors posted.
type hookRecorder struct {
	url     string
	mu      sync.Mutex
	cursors map[uint64]bool
	bad     int
}

func startHook(t *testing.T) *hookRecorder {
	h := &hookRecorder{cursors: map[uint64]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c, err := strconv.ParseUint(r.Header.Get("X-Authority-Cursor"), 10, 64)
		h.mu.Lock()
		defer h.mu.Unlock()
		if err != nil || r.Header.Get("X-Authority-Signature") != feed.Sign(hookSecret, body) {
			h.bad++
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		h.cursors[c] = true
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// upTo is the cursor up to which every event was posted.
func (h *hookRecorder) upTo() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := uint64(0)
	for h.cursors[c+1] {
		c++
	}
	return c
}
