package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	ddzpb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/doudizhu/service"
	ddztable "github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
)

// The tables' lease TTL in the tests of whole nodes: short, so that a
// takeover is quick, long enough for the race detector's pace.
const nodeTTL = time.Second

// node is one authority of an in-process cluster: a cluster.Node, a
// server.Server on the shared store, served on a loopback port.
type node struct {
	id   string
	addr string
	cn   *cluster.Node
	srv  *server.Server
	ddz  *service.Service
	g    *grpc.Server
	done chan error
	once sync.Once
}

// startNode starts a node on the shared store st, as cmd/authority does
// with --cluster: leases first, then the server, its recovery of the
// tables it wins, takeovers, then serving.
func startNode(t *testing.T, js jetstream.JetStream, id string, st *host.MemoryStore[table.Action], noForward bool) *node {
	return startNodeTTL(t, js, id, st, nil, noForward, nodeTTL)
}

// startNodeDdz is startNode with Dou Dizhu served beside, on its own
// shared store (nil: none).
func startNodeDdz(t *testing.T, js jetstream.JetStream, id string, st *host.MemoryStore[table.Action], ddzSt *host.MemoryStore[ddztable.Action], noForward bool) *node {
	return startNodeTTL(t, js, id, st, ddzSt, noForward, nodeTTL)
}

// startNodeTTL is startNodeDdz with the leases' TTL.
func startNodeTTL(t *testing.T, js jetstream.JetStream, id string, st *host.MemoryStore[table.Action], ddzSt *host.MemoryStore[ddztable.Action], noForward bool, ttl time.Duration) *node {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	log := zap.NewNop()
	if testing.Verbose() {
		log = zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel)).With(zap.String("node", id))
	}
	cn, err := cluster.Open(ctx, js, cluster.Config{NodeID: id, Addr: lis.Addr().String(), TTL: ttl, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	rc := riichi.Standard()
	rc.Store = st
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(rc)}, Cluster: cn, NoForward: noForward, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	n := &node{id: id, addr: lis.Addr().String(), cn: cn, srv: srv, g: grpc.NewServer(srv.Options()...), done: make(chan error, 1)}
	if ddzSt != nil {
		n.ddz = service.New(service.Config{Hosting: srv.Hosting(), Store: ddzSt, Cluster: cn})
		if _, err := n.ddz.Recover(ctx); err != nil {
			t.Fatal(err)
		}
		n.ddz.Register(n.g)
	}
	cn.Start()
	srv.Register(n.g)
	go func() { n.done <- n.g.Serve(srv.Listener(lis)) }()
	t.Cleanup(n.kill)
	return n
}

// kill stops the node at once, as kill -9 would: connections drop, the
// tables stop where they are, and the leases are not given up (they
// expire).
func (n *node) kill() {
	n.once.Do(func() {
		n.g.Stop()
		<-n.done
		n.cn.Close()
		if n.ddz != nil {
			n.ddz.Close()
		}
		n.srv.Close()
	})
}

// stop stops the node gracefully, as authority does on SIGTERM: its
// tables stop, the other nodes are handed them, then the connections
// close.
func (n *node) stop(t *testing.T) {
	n.once.Do(func() {
		if n.ddz != nil {
			n.ddz.Close()
		}
		n.srv.Close()
		if err := n.cn.Handover(context.Background()); err != nil {
			t.Error(err)
		}
		n.g.Stop()
		<-n.done
		n.cn.Close()
	})
}

func dial(t *testing.T, addr string) *client.Client {
	t.Helper()
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type seatRun struct {
	acked []table.Action
	final []int
	ended bool
	stats client.Stats
	err   error
}

// playBot plays a seat with the efficient bot until its game ends,
// recording what the server acknowledged.
func playBot(ctx context.Context, s *client.Session, r *seatRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b bot.Efficient
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return
		}
		if err != nil {
			r.err = err
			return
		}
		if g, ok := u.Event.Body.(table.GameEnded); ok {
			r.final = g.Scores[:]
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		if _, err := s.Act(ctx, a); err == nil {
			r.acked = append(r.acked, a)
		}
	}
}

// TestClusterFailover: three nodes on one shared store. Each creates a
// table; the seats of every table play through another node than its
// owner (joins, actions and streams forwarded). The owner of the first
// table is killed mid-game: another node adopts it about a lease's TTL
// later, its clients resume with after_seq through the node they are on,
// and every game ends with every seat's stream contiguous, the log
// holding exactly the actions the clients had acknowledged, and the same
// final scores for every seat.
//
// Stopped gracefully instead (SIGTERM), the owner hands its tables over:
// the new owner goes on well before the lease could have expired.
//
// With a Mux, which a node never forwards, each client's Multiplex stream
// is refused with TABLE_ELSEWHERE and the sessions go on over a stream to
// the owner; once the owner dies, they find the new one through their
// own node again.
func TestClusterFailover(t *testing.T) {
	t.Run("kill", func(t *testing.T) {
		failover(t, nodeTTL, func(n *node) { n.kill() }, false)
	})
	t.Run("kill, on a Mux", func(t *testing.T) {
		failover(t, nodeTTL, func(n *node) { n.kill() }, true)
	})
	t.Run("graceful", func(t *testing.T) {
		const long = 6 * time.Second // an expiry would take this long
		took := failover(t, long, func(n *node) { n.stop(t) }, false)
		if took >= long/2 {
			t.Errorf("after a graceful stop the table went on %v later (lease TTL %v): not handed over", took, long)
		}
	})
}

// failover plays the test with leases of the given TTL, stopping table 0's
// owner with stop, and returns the failover time.
func failover(t *testing.T, ttl time.Duration, stop func(*node), mux bool) time.Duration {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	st := host.NewMemoryStore[table.Action]()
	nodes := []*node{
		startNodeTTL(t, js, "n0", st, nil, false, ttl),
		startNodeTTL(t, js, "n1", st, nil, false, ttl),
		startNodeTTL(t, js, "n2", st, nil, false, ttl),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Table i is created on node i; its players are on node via[i],
	// never node 0, which dies.
	via := []int{1, 2, 1}
	var ids []string
	for i, n := range nodes {
		tb, _, err := dial(t, n.addr).CreateTable(ctx, &pb.TableSettings{
			Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seedOf(i), ClaimDwell: durationpb.New(time.Millisecond),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tb.GetTableId())
		if !n.cn.Holds(tb.GetTableId()) {
			t.Fatalf("node %s created table %d without its lease", n.id, i)
		}
	}
	// Every node lists every node's tables, a page at a time.
	for _, n := range nodes {
		tables := dial(t, n.addr).Tables
		listed := listAll(t, func(tok string) ([]*pb.Table, string, error) {
			r, err := tables.ListTables(ctx, &pb.ListTablesRequest{PageSize: 2, PageToken: tok, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST})
			return r.GetTables(), r.GetNextPageToken(), err
		})
		if !slices.Equal(listed, ids) {
			t.Fatalf("node %s lists %v, want %v", n.id, listed, ids)
		}
	}
	runs := make([][4]seatRun, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		c := dial(t, nodes[via[i]].addr)
		var opts client.Options
		if mux {
			opts.Mux = c.Mux(ctx)
			t.Cleanup(opts.Mux.Close)
		}
		for s := range 4 {
			seat, err := c.JoinTable(ctx, id, "bot", client.Entropy())
			if err != nil {
				t.Fatalf("table %d: join through node %d: %v", i, via[i], err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				playBot(ctx, c.Follow(seat, opts), &runs[i][s])
			}()
		}
	}
	// Kill table 0's owner mid-game.
	for len(st.Entries(ids[0])) < 60 {
		if ctx.Err() != nil {
			t.Fatal("table 0 does not progress")
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop(nodes[0])
	killed := time.Now()
	logged := len(st.Entries(ids[0]))
	wg.Wait()
	// The failover time: from the kill to the first entry the new owner
	// stored.
	es := st.Entries(ids[0])
	if len(es) <= logged {
		t.Fatal("table 0 went on nowhere after its owner died")
	}
	took := es[logged].At.Sub(killed)
	t.Logf("failover: the new owner stored its first entry %v after the stop (lease TTL %v)", took.Round(time.Millisecond), ttl)
	for i, id := range ids {
		checkGame(t, i, st.Entries(id), runs[i])
	}
	reconnects := 0
	for _, r := range runs[0] {
		reconnects += r.stats.Reconnects
	}
	if reconnects == 0 {
		t.Error("no client of table 0 reconnected")
	}
	owners := 0
	for _, n := range nodes[1:] {
		if n.srv.Tables(pb.RuleSet_RULE_SET_RIICHI).Holds(ids[0]) {
			owners++
		}
	}
	if owners != 1 {
		t.Errorf("table 0 is held by %d live nodes", owners)
	}
	return took
}

// checkGame compares a table's stored log with what its four clients saw.
func checkGame(t *testing.T, i int, es []host.Entry[table.Action], runs [4]seatRun) {
	t.Helper()
	var logged [4][]table.Action
	for _, e := range es {
		if e.Kind == host.EntryAction && e.Actor >= 0 && e.RequestID != "" {
			logged[e.Actor] = append(logged[e.Actor], e.Action)
		}
	}
	for s, r := range runs {
		switch {
		case r.err != nil:
			t.Errorf("table %d seat %d: %v", i, s, r.err)
		case !r.ended || r.final == nil:
			t.Errorf("table %d seat %d: the game did not end for it", i, s)
		case r.stats.Faults > 0:
			t.Errorf("table %d seat %d: %d faults (sequence gaps or events that do not fit)", i, s, r.stats.Faults)
		case !slices.Equal(logged[s], r.acked):
			t.Errorf("table %d seat %d: the log holds %d actions, the client had %d acknowledged", i, s, len(logged[s]), len(r.acked))
		case !slices.Equal(r.final, runs[0].final):
			t.Errorf("table %d seat %d: final scores %v, seat 0 saw %v", i, s, r.final, runs[0].final)
		}
	}
}

func seedOf(i int) []byte {
	s := make([]byte, 32)
	s[0], s[1] = byte(i), 0xc1
	return s
}

// TestElsewhere: a node that does not forward answers a call for another
// node's table with TABLE_ELSEWHERE and the owner's address; the Go
// client follows it, for calls and streams.
func TestElsewhere(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	st := host.NewMemoryStore[table.Action]()
	owner := startNode(t, js, "owner", st, false)
	other := startNode(t, js, "other", st, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tb, _, err := dial(t, owner.addr).CreateTable(ctx, &pb.TableSettings{Seed: seedOf(9)})
	if err != nil {
		t.Fatal(err)
	}
	id := tb.GetTableId()
	// A plain gRPC connection sees the redirect itself.
	cc, err := grpc.NewClient(other.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	_, err = pb.NewTableServiceClient(cc).GetTable(ctx, &pb.GetTableRequest{TableId: id})
	if status.Code(err) != codes.FailedPrecondition || server.Reason(err) != pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE {
		t.Fatalf("GetTable on the other node: %v", err)
	}
	if addr, ok := client.OwnerAddr(err); !ok || addr != owner.addr {
		t.Fatalf("owner_addr %q, want %q", addr, owner.addr)
	}
	// The Go client follows it.
	c := dial(t, other.addr)
	got, err := c.GetTable(ctx, id)
	if err != nil || got.GetTableId() != id {
		t.Fatalf("GetTable through the client: %v %v", got, err)
	}
	seat, err := c.JoinTable(ctx, id, "p", client.Entropy())
	if err != nil {
		t.Fatal(err)
	}
	st2, err := c.Tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: seat.Token})
	if err != nil {
		t.Fatal(err)
	}
	m, err := st2.Recv()
	if err != nil || m.GetSnapshot() == nil {
		t.Fatalf("stream through the client: %v %v", m, err)
	}
	// A table nobody owns is served where the call lands: unknown here.
	_, err = c.GetTable(ctx, "00000000-0000-0000-0000-000000000000")
	if server.Reason(err) != pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND {
		t.Fatalf("unknown table: %v", err)
	}
}

// TestDoudizhuForwarded: Dou Dizhu's service is forwarded like the
// mahjong API: a table created on one node is joined, read and streamed
// through another, and is leased under Dou Dizhu's name.
func TestDoudizhuForwarded(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	st, ddzSt := host.NewMemoryStore[table.Action](), host.NewMemoryStore[ddztable.Action]()
	owner := startNodeDdz(t, js, "owner", st, ddzSt, false)
	other := startNodeDdz(t, js, "other", st, ddzSt, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := func(addr string) ddzpb.DoudizhuServiceClient {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		return ddzpb.NewDoudizhuServiceClient(cc)
	}
	created, err := conn(owner.addr).CreateTable(ctx, &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{Deals: 1}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTable().GetTableId()
	if l, ok := other.cn.Lookup(ctx, id); !ok || l.Node != "owner" || l.RuleSet != service.Name {
		t.Fatalf("lease %+v %v", l, ok)
	}
	via := conn(other.addr)
	var tokens []string
	for i := range 3 {
		r, err := via.JoinTable(ctx, &ddzpb.JoinTableRequest{TableId: id, Name: fmt.Sprint("p", i)})
		if err != nil {
			t.Fatalf("join through the other node: %v", err)
		}
		tokens = append(tokens, r.GetSeatToken())
	}
	got, err := via.GetTable(ctx, &ddzpb.GetTableRequest{TableId: id})
	if err != nil || got.GetTable().GetTableId() != id {
		t.Fatalf("GetTable through the other node: %v %v", got, err)
	}
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	stream, err := via.StreamEvents(sctx, &ddzpb.StreamEventsRequest{TableId: id, SeatToken: tokens[0]})
	if err != nil {
		t.Fatal(err)
	}
	m, err := stream.Recv()
	if err != nil || m.GetSnapshot() == nil {
		t.Fatalf("stream through the other node: %v %v", m, err)
	}
	if other.ddz.Host().Holds(id) || !owner.ddz.Host().Holds(id) {
		t.Fatal("the table is not held by its owner alone")
	}
	// Each node lists both nodes' tables, a page at a time.
	mine, err := conn(other.addr).CreateTable(ctx, &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{Deals: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{id, mine.GetTable().GetTableId()}
	for _, n := range []*node{owner, other} {
		c := conn(n.addr)
		listed := listAll(t, func(tok string) ([]*ddzpb.Table, string, error) {
			r, err := c.ListTables(ctx, &ddzpb.ListTablesRequest{PageSize: 1, PageToken: tok, Order: pb.TableOrder_TABLE_ORDER_OLDEST_FIRST})
			return r.GetTables(), r.GetNextPageToken(), err
		})
		if !slices.Equal(listed, want) {
			t.Errorf("node %s lists the Dou Dizhu tables %v, want %v", n.id, listed, want)
		}
	}
}

// listAll reads a listing page by page (page: the tables after a token and
// the next token) and returns the tables' ids in order.
func listAll[T interface{ GetTableId() string }](t *testing.T, page func(token string) ([]T, string, error)) []string {
	t.Helper()
	var ids []string
	for tok := ""; ; {
		tables, next, err := page(tok)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			ids = append(ids, tb.GetTableId())
		}
		if tok = next; tok == "" {
			return ids
		}
	}
}

// TestMultiplexElsewhere: a Multiplex stream is served by the node it
// reaches, not forwarded, even with forwarding on; a follow or an action
// for a table another node owns is refused alone with TABLE_ELSEWHERE and
// the owner's address, and the stream serves the owner's tables there.
func TestMultiplexElsewhere(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	st := host.NewMemoryStore[table.Action]()
	owner := startNode(t, js, "owner", st, false)
	other := startNode(t, js, "other", st, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := dial(t, owner.addr)
	tb, _, err := c.CreateTable(ctx, &pb.TableSettings{Seed: seedOf(11)})
	if err != nil {
		t.Fatal(err)
	}
	id := tb.GetTableId()
	seat, err := c.JoinTable(ctx, id, "p", client.Entropy())
	if err != nil {
		t.Fatal(err)
	}
	follow := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: 1,
		Request: &pb.StreamEventsRequest{TableId: id, SeatToken: seat.Token}}}}
	act := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: 1,
		Request: &pb.ActRequest{TableId: id, SeatToken: seat.Token, RequestId: "r", Action: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}}}}}
	open := func(addr string) pb.TableService_MultiplexClient {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		m, err := pb.NewTableServiceClient(cc).Multiplex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []*pb.MultiplexRequest{follow, act} {
			if err := m.Send(r); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	m := open(other.addr)
	for got := 0; got < 2; {
		r, err := m.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range r.GetItems() {
			var st *status.Status
			switch {
			case it.GetEnd() != nil:
				st = status.FromProto(it.GetEnd().GetStatus())
			case it.GetAnswer() != nil:
				st = status.FromProto(it.GetAnswer().GetError())
			default:
				t.Fatalf("item %v on the node that does not own the table", it)
			}
			got++
			if st.Code() != codes.FailedPrecondition || server.Reason(st.Err()) != pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE {
				t.Fatalf("item %v: %v, want TABLE_ELSEWHERE", it, st.Err())
			}
			if addr, ok := client.OwnerAddr(st.Err()); !ok || addr != owner.addr {
				t.Fatalf("owner_addr %q, want %q", addr, owner.addr)
			}
		}
	}
	// On the owner the same requests are served.
	m = open(owner.addr)
	r, err := m.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if it := r.GetItems()[0]; it.GetEvent().GetEvent().GetSnapshot() == nil && it.GetAnswer() == nil {
		t.Fatalf("first item on the owner %v, want the snapshot or the answer", it)
	}
}
