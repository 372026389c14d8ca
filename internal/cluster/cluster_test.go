package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mahjong-authority/authority/internal/cluster"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ttl = 600 * time.Millisecond

// adopter records what a node asks of its host.
type adopter struct {
	mu       sync.Mutex
	adopted  []string
	released map[string]error
}

func (a *adopter) Adopt(_ context.Context, id string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.adopted = append(a.adopted, id)
	return nil
}

func (a *adopter) Release(id string, why error) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.released == nil {
		a.released = map[string]error{}
	}
	a.released[id] = why
	return true
}

func (a *adopter) snapshot() ([]string, map[string]error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := map[string]error{}
	for k, v := range a.released {
		r[k] = v
	}
	return append([]string(nil), a.adopted...), r
}

func TestLeaseIsExclusive(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	ctx := context.Background()
	a, err := cluster.Open(ctx, js, cluster.Config{NodeID: "a", Addr: "127.0.0.1:1", TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := cluster.Open(ctx, js, cluster.Config{NodeID: "b", Addr: "127.0.0.1:2", TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	oa, ob := a.Owner("riichi"), b.Owner("riichi")
	if won, err := oa.Acquire(ctx, "t1"); !won || err != nil {
		t.Fatalf("a takes t1: %v %v", won, err)
	}
	if won, err := ob.Acquire(ctx, "t1"); won || err != nil {
		t.Fatalf("b takes t1 that a holds: %v %v", won, err)
	}
	if l, ok := b.Lookup(ctx, "t1"); !ok || l.Node != "a" || l.Addr != "127.0.0.1:1" || l.RuleSet != "riichi" {
		t.Fatalf("b sees t1's lease as %+v %v", l, ok)
	}
	// Renewed past the TTL: still a's.
	time.Sleep(2 * ttl)
	if won, _ := ob.Acquire(ctx, "t1"); won {
		t.Fatal("b took t1 while a renews it")
	}
	if !a.Holds("t1") {
		t.Fatal("a lost t1")
	}
	// Given up: free.
	oa.Drop("t1")
	if won, err := ob.Acquire(ctx, "t1"); !won || err != nil {
		t.Fatalf("b takes t1 after a dropped it: %v %v", won, err)
	}
	if won, _ := oa.Acquire(ctx, "bad id!"); won {
		t.Fatal("a leased an id that is no key")
	}
}

// TestTakeover: a node stops and the other two take its 16 tables over,
// each exactly once, spread over both. Killed (it stops without giving its
// leases up), its tables move about a TTL later; stopped gracefully (it
// hands its leases over and leaves the registry), at once: the test's TTL
// is then long, and the tables must move within half of it.
func TestTakeover(t *testing.T) {
	for _, c := range []struct {
		name   string
		ttl    time.Duration
		stop   func(t *testing.T, n *cluster.Node)
		within time.Duration
		left   bool // the node leaves the registry at once
	}{
		{"killed", ttl, func(_ *testing.T, n *cluster.Node) { n.Close() }, 10 * ttl, false},
		{"handed over", 8 * time.Second, func(t *testing.T, n *cluster.Node) {
			if err := n.Handover(context.Background()); err != nil {
				t.Fatal(err)
			}
			if won, _ := n.Owner("riichi").Acquire(context.Background(), "after"); won {
				t.Error("a node that handed over took a new lease")
			}
			n.Close()
		}, 4 * time.Second, true},
	} {
		t.Run(c.name, func(t *testing.T) { takeover(t, c.ttl, c.stop, c.within, c.left) })
	}
}

func takeover(t *testing.T, ttl time.Duration, stop func(*testing.T, *cluster.Node), within time.Duration, left bool) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	ctx := context.Background()
	open := func(id string) (*cluster.Node, *adopter) {
		n, err := cluster.Open(ctx, js, cluster.Config{NodeID: id, Addr: "127.0.0.1:" + id, TTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		a := &adopter{}
		n.Register("riichi", a)
		n.Start()
		return n, a
	}
	gone, ag := open("1")
	b, ab := open("2")
	defer b.Close()
	c, ac := open("3")
	defer c.Close()
	const tables = 16
	for i := range tables {
		if won, err := gone.Owner("riichi").Acquire(ctx, fmt.Sprintf("t%02d", i)); !won || err != nil {
			t.Fatal(won, err)
		}
	}
	// Every node sees the others and node 1's leases.
	for len(b.Nodes()) < 3 || len(c.Nodes()) < 3 {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(600 * time.Millisecond) // and node 1's leases renewed
	stopped := time.Now()
	stop(t, gone)
	deadline := stopped.Add(within)
	for {
		gb, _ := ab.snapshot()
		gc, _ := ac.snapshot()
		if len(gb)+len(gc) >= tables {
			t.Logf("%d tables taken over %v after the stop (TTL %v): %d by node 2, %d by node 3", tables, time.Since(stopped).Round(time.Millisecond), ttl, len(gb), len(gc))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v (TTL %v): node 2 took %v, node 3 %v", time.Since(stopped), ttl, gb, gc)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(min(ttl, time.Second)) // no second takeover
	if adopted, _ := ag.snapshot(); len(adopted) != 0 {
		t.Errorf("the node that stopped adopted %v", adopted)
	}
	gb, _ := ab.snapshot()
	gc, _ := ac.snapshot()
	seen := map[string]int{}
	for _, id := range append(gb, gc...) {
		seen[id]++
	}
	for i := range tables {
		if id := fmt.Sprintf("t%02d", i); seen[id] != 1 {
			t.Errorf("table %s adopted %d times", id, seen[id])
		}
	}
	if len(gb) == 0 || len(gc) == 0 {
		t.Errorf("one node took every table: node 2 %d, node 3 %d", len(gb), len(gc))
	}
	if b.Owned()+c.Owned() != tables {
		t.Errorf("leases held: %d + %d", b.Owned(), c.Owned())
	}
	if left {
		for _, info := range b.Nodes() {
			if info.ID == "1" {
				t.Error("node 1 is still in the registry after its handover")
			}
		}
	}
}

// TestStaleOwnerReleases: a node whose lease another node took (here by
// force, as after a pause longer than the TTL) releases its table: it
// hears it from the watch, or at its next renewal.
func TestStaleOwnerReleases(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	ctx := context.Background()
	n, err := cluster.Open(ctx, js, cluster.Config{NodeID: "stale", Addr: "127.0.0.1:1", TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	a := &adopter{}
	n.Register("riichi", a)
	if won, err := n.Owner("riichi").Acquire(ctx, "t1"); !won || err != nil {
		t.Fatal(won, err)
	}
	kv, err := js.KeyValue(ctx, cluster.OwnersBucket)
	if err != nil {
		t.Fatal(err)
	}
	if err := kv.Purge(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Create(ctx, "t1", []byte(`{"node":"other","addr":"127.0.0.1:2","rule_set":"riichi"}`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * ttl)
	for {
		_, rel := a.snapshot()
		if why, ok := rel["t1"]; ok {
			if !errors.Is(why, cluster.ErrLeaseLost) {
				t.Fatalf("released because %v", why)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stale owner did not release its table")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n.Holds("t1") {
		t.Fatal("the stale owner still holds the lease")
	}
	if l, ok := n.Lookup(ctx, "t1"); !ok || l.Node != "other" {
		t.Fatalf("lease %+v %v", l, ok)
	}
}
