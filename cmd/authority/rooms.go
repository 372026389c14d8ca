package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/feed"
	fjs "github.com/mahjong-authority/authority/internal/feed/jetstream"
	"github.com/mahjong-authority/authority/internal/server"
)

// roomService sets up what the room service needs (docs/rooms.md): the
// keys of --backend-keys, read again on every SIGHUP until ctx ends, and
// the results feed: with --data in DIR/results.db beside the tables'
// stores, in a cluster in JetStream, shared by every node (server.Close
// closes it). Without keys it warns when the server listens beyond the
// loopback: anyone who reaches it may create tables.
func roomService(ctx context.Context, cfg *server.Config, lis net.Listener, log *zap.Logger, o options, cl *clusterNode) error {
	cfg.ClientCerts = o.web.clientCA != ""
	if o.keys != "" {
		keys, err := backend.Load(o.keys)
		if err != nil {
			return err
		}
		cfg.Keys = keys
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			defer signal.Stop(hup)
			for {
				select {
				case <-ctx.Done():
					return
				case <-hup:
					if err := keys.Reload(); err != nil {
						log.Error("backend keys not reloaded; the old ones stay", zap.Error(err))
					} else {
						log.Info("backend keys reloaded", zap.String("file", o.keys))
					}
				}
			}
		}()
		log.Info("room service needs an API key", zap.String("keys", o.keys))
	} else if !loopback(lis.Addr()) && !cfg.ClientCerts {
		log.Warn("listening beyond the loopback without --backend-keys: anyone who reaches the server may create, reserve and close tables and read the results feed",
			zap.String("addr", lis.Addr().String()))
	}
	switch {
	case cl != nil:
		l, err := fjs.Open(ctx, cl.js, fjs.Config{Replicas: cl.opts.replicas})
		if err != nil {
			return err
		}
		f := feed.New(l)
		l.Notify(f.Changed)
		cfg.Feed = f
	case o.data != "":
		f, err := feed.Open(filepath.Join(o.data, "results.db"))
		if err != nil {
			return err
		}
		cfg.Feed = f
	}
	if o.webhook.url != "" {
		secret, err := os.ReadFile(o.webhook.secretFile)
		if err != nil {
			return fmt.Errorf("webhook secret: %w", err)
		}
		secret = bytes.TrimSpace(secret)
		if len(secret) < 16 {
			return errors.New("webhook secret: want 16 bytes or more")
		}
		if cfg.Feed == nil {
			cfg.Feed = feed.Memory()
		}
		f := cfg.Feed
		// It ends when ctx does or the server closes the feed.
		deliver := func(ctx context.Context) {
			err := f.Deliver(ctx, feed.Webhook{URL: o.webhook.url, Secret: secret, Log: log})
			if err != nil && ctx.Err() == nil && !errors.Is(err, feed.ErrClosed) {
				log.Error("webhook stopped", zap.Error(err))
			}
		}
		if cl != nil {
			return webhookDuty(ctx, cl, o.webhook.url, deliver, log)
		}
		go deliver(ctx)
		log.Info("results feed posted to a webhook")
	}
	return nil
}

// webhookDuty posts the cluster's feed to the webhook from one node at a
// time: the holder of a lease named after the URL, taken over like a
// table's when its node dies or hands its leases over.
func webhookDuty(ctx context.Context, cl *clusterNode, url string, deliver func(context.Context), log *zap.Logger) error {
	h := sha256.Sum256([]byte(url))
	id := "webhook-" + hex.EncodeToString(h[:8])
	d := &duty{ctx: ctx, run: deliver, log: log}
	won, err := cl.node.Own(webhookLease, d).Acquire(ctx, id)
	if err != nil {
		return fmt.Errorf("webhook lease: %w", err)
	}
	if won {
		_ = d.Adopt(ctx, id)
	} else {
		log.Info("results feed posted to a webhook by another node; this one takes over if it goes", zap.String("lease", id))
	}
	return nil
}

// webhookLease is the rule set name the webhook's lease carries.
const webhookLease = "webhook"

// duty is a cluster.Adopter of the webhook delivery.
type duty struct {
	ctx    context.Context
	run    func(context.Context)
	log    *zap.Logger
	mu     sync.Mutex
	cancel context.CancelFunc
}

func (d *duty) Adopt(_ context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.cancel = cancel
	go d.run(ctx)
	d.log.Info("results feed posted to a webhook from this node", zap.String("lease", id))
	return nil
}

func (d *duty) Release(id string, why error) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel == nil {
		return false
	}
	d.cancel()
	d.cancel = nil
	d.log.Warn("webhook lease lost: another node posts the feed", zap.String("lease", id), zap.Error(why))
	return true
}

// loopback reports whether a listener's address is a loopback one.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
