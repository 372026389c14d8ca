package storetest_test

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store/storetest"
)

// TestMemoryStore runs the scenarios on host.MemoryStore: the contract
// the durable stores keep is the one of the store the host's own tests
// use. Its data is the store itself, so a reopen is the same store.
func TestMemoryStore(t *testing.T) {
	stores := map[string]*host.MemoryStore[storetest.Move]{}
	storetest.Run(t, storetest.Subject{
		Open: func(_ testing.TB, dir string) storetest.Store {
			if stores[dir] == nil {
				stores[dir] = host.NewMemoryStore[storetest.Move]()
			}
			return stores[dir]
		},
		Close: func(storetest.Store) error { return nil },
	})
}
