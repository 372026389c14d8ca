package main

import (
	"context"
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
	} else if !loopback(lis.Addr()) {
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
	return nil
}

// loopback reports whether a listener's address is a loopback one.
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
