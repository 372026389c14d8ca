package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/server"
)

// roomService sets up what the room service needs (docs/rooms.md): the
// keys of --backend-keys, read again on every SIGHUP until ctx ends, and,
// with --data, the results feed in DIR/results.db beside the tables'
// stores (server.Close closes it). Without keys it warns when the server
// listens beyond the loopback: anyone who reaches it may create tables.
func roomService(ctx context.Context, cfg *server.Config, lis net.Listener, log *zap.Logger, o options) error {
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
	if o.data != "" {
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
		go func() {
			err := f.Deliver(ctx, feed.Webhook{URL: o.webhook.url, Secret: secret, Log: log})
			if err != nil && ctx.Err() == nil && !errors.Is(err, feed.ErrClosed) {
				log.Error("webhook stopped", zap.Error(err))
			}
		}()
		log.Info("results feed posted to a webhook")
	}
	return nil
}

// loopback reports whether a listener's address is a loopback one.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
