package cluster_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"

	"github.com/mahjong-authority/authority/internal/cluster"
)

// TestForwardedNeedsTheToken: a call forwarded by a node of the cluster
// carries the cluster's token and is recognised as forwarded (the
// receiving node skips the limits the first node applied); a call that
// only names a node in its headers, or carries another cluster's token,
// is not; without a cluster nothing is. (That forwarded calls carry the
// token, TestClusterFailover shows: every node lists each table once,
// which a ListTables forwarded without it would not.)
func TestForwardedNeedsTheToken(t *testing.T) {
	ns := startNATS(t)
	_, js := jetStream(t, ns)
	ctx := context.Background()
	open := func(id string) *cluster.Node {
		n, err := cluster.Open(ctx, js, cluster.Config{NodeID: id, Addr: "127.0.0.1:" + id, TTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Close)
		return n
	}
	a, b := open("a"), open("b")
	other := startNATS(t) // another cluster
	_, ojs := jetStream(t, other)
	stranger, err := cluster.Open(ctx, ojs, cluster.Config{NodeID: "a", Addr: "127.0.0.1:a", TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()

	spoofed := func(md metadata.MD) context.Context { return metadata.NewIncomingContext(ctx, md) }
	for _, c := range []struct {
		name string
		ctx  context.Context
		want bool
	}{
		{"no header", spoofed(metadata.MD{}), false},
		{"a node's id only", spoofed(metadata.Pairs(cluster.ForwardedKey, "a")), false},
		{"a guessed token", spoofed(metadata.Pairs(cluster.ForwardedKey, "a", cluster.ForwardedTokenKey, "0123")), false},
		{"the cluster's token", spoofed(metadata.Pairs(cluster.ForwardedKey, "a", cluster.ForwardedTokenKey, cluster.TokenOf(a))), true},
		{"another cluster's token", spoofed(metadata.Pairs(cluster.ForwardedKey, "a", cluster.ForwardedTokenKey, cluster.TokenOf(stranger))), false},
	} {
		if got := b.Forwarded(c.ctx); got != c.want {
			t.Errorf("%s: forwarded %v, want %v", c.name, got, c.want)
		}
		if (*cluster.Node)(nil).Forwarded(c.ctx) {
			t.Errorf("%s: forwarded without a cluster", c.name)
		}
	}
}
