package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/metrics"
	"github.com/mahjong-authority/authority/internal/store"
	jsstore "github.com/mahjong-authority/authority/internal/store/jetstream"
)

// clusterNode is this process as a node of a cluster (--cluster): its
// connection to JetStream and its leases.
type clusterNode struct {
	opts    clusterOptions
	nc      *nats.Conn
	js      jetstream.JetStream
	node    *cluster.Node
	metrics *metrics.Metrics
}

// joinCluster connects to the JetStream servers and joins the cluster.
// peer is how it dials the other nodes (peerTLS).
func joinCluster(ctx context.Context, o clusterOptions, peer *tls.Config, log *zap.Logger, m *metrics.Metrics) (*clusterNode, error) {
	nc, err := nats.Connect(strings.Join(strings.Split(o.nats, ","), ","),
		nats.Name("authority "+o.node), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { log.Warn("NATS disconnected", zap.Error(err)) }),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("NATS reconnected", zap.String("url", c.ConnectedUrl())) }))
	if err != nil {
		return nil, fmt.Errorf("--nats %s: %w", o.nats, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	n, err := cluster.Open(ctx, js, cluster.Config{NodeID: o.node, Addr: o.advertise, TTL: o.ttl, Replicas: o.replicas, Log: log, PeerTLS: peer})
	if err != nil {
		nc.Close()
		return nil, err
	}
	log.Info("joined the cluster", zap.String("node", o.node), zap.String("advertise", o.advertise),
		zap.String("nats", nc.ConnectedUrl()), zap.Duration("lease_ttl", o.ttl), zap.Int("replicas", o.replicas), zap.Bool("peer_tls", peer != nil))
	return &clusterNode{opts: o, nc: nc, js: js, node: n, metrics: m}, nil
}

// handover gives the tables of this node, whose hosts are closed, to the
// other nodes at once (a graceful stop; after a crash the leases expire).
func (c *clusterNode) handover(log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.ttl)
	defer cancel()
	if err := c.node.Handover(ctx); err != nil {
		log.Warn("handover incomplete", zap.Error(err))
	}
}

// close leaves the cluster (leases not handed over expire: the other
// nodes take those tables over a TTL later) and closes the connection.
func (c *clusterNode) close() {
	c.node.Close()
	c.nc.Close()
}

// clusterStore opens a rule set's JetStream store.
func clusterStore[A any](ctx context.Context, c *clusterNode, ruleSet string, codec store.Codec[A]) (*jsstore.Store[A], error) {
	opts := []jsstore.Option{jsstore.WithReplicas(c.opts.replicas), jsstore.WithNodeID(c.opts.node)}
	if c.metrics != nil {
		opts = append(opts, jsstore.WithObserver(c.metrics.Store()))
	}
	// A JetStream cluster that is starting places no stream until it
	// has a leader: tried again for a while.
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := jsstore.Open[A](ctx, c.js, ruleSet, codec, opts...)
		if err == nil {
			return st, nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return nil, fmt.Errorf("%s store: %w", ruleSet, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
