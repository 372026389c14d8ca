package jetstream_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/natstest"
	"github.com/mahjong-authority/authority/internal/store/jetstream"
	"github.com/mahjong-authority/authority/internal/store/storetest"
)

// TestConformance runs the stores' shared scenarios (package storetest)
// on the JetStream store, on one JetStream server: a scenario's data is a
// rule set of its own (its streams), a reopen a new store on them, and a
// crash a new store beside the old one, left open, as a node that takes a
// dead node's tables over opens them.
func TestConformance(t *testing.T) {
	srv := natstest.Start(t)
	_, js := natstest.Connect(t, srv)
	storetest.Run(t, storetest.Subject{
		Open: func(t testing.TB, dir string) storetest.Store {
			sum := sha256.Sum256([]byte(dir))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s, err := jetstream.Open[storetest.Move](ctx, js, "c"+hex.EncodeToString(sum[:6]), storetest.MoveCodec{}, jetstream.WithReplicas(1))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Close:   func(storetest.Store) error { return nil }, // the connection is the test's
		Crash:   func(_ testing.TB, dir string) string { return dir },
		Encodes: true,
	})
}
