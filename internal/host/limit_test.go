package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
)

// slowCreate holds the first Create in the store until release is closed.
type slowCreate struct {
	*host.MemoryStore[toyAction]
	entered, release chan struct{}
	first            bool
}

func (s *slowCreate) Create(ctx context.Context, rec host.TableRecord) error {
	if !s.first {
		s.first = true
		close(s.entered)
		<-s.release
	}
	return s.MemoryStore.Create(ctx, rec)
}

// TestMaxTablesUnderConcurrentCreates checks that MaxTables holds when
// tables are created at the same time: a Create still in the store
// counts.
func TestMaxTablesUnderConcurrentCreates(t *testing.T) {
	st := &slowCreate{MemoryStore: host.NewMemoryStore[toyAction](), entered: make(chan struct{}), release: make(chan struct{})}
	h := host.New(host.Config[toyAction, toyView, string]{Store: st, MaxTables: 1})
	defer h.Close()
	first := make(chan error, 1)
	go func() {
		_, _, err := h.Create(context.Background(), defaultSettings, nil, newToy(1))
		first <- err
	}()
	<-st.entered
	_, _, err := h.Create(context.Background(), defaultSettings, nil, newToy(1))
	close(st.release)
	if err := <-first; err != nil {
		t.Fatalf("first Create: %v", err)
	}
	if !errors.Is(err, host.ErrTooManyTables) {
		t.Fatalf("second Create while the first is stored = %v, want ErrTooManyTables", err)
	}
	if ins, _ := h.List(host.ListQuery{}); len(ins) != 1 {
		t.Fatalf("%d tables with MaxTables 1", len(ins))
	}
	// A refused or failed Create gives its place back.
	st.SetFail(func() error { return errors.New("disk full") })
	h2 := host.New(host.Config[toyAction, toyView, string]{Store: st, MaxTables: 1})
	defer h2.Close()
	if _, _, err := h2.Create(context.Background(), defaultSettings, nil, newToy(1)); !errors.Is(err, host.ErrUnavailable) {
		t.Fatalf("Create on a failing store = %v, want ErrUnavailable", err)
	}
	st.SetFail(nil)
	if _, _, err := h2.Create(context.Background(), defaultSettings, nil, newToy(1)); err != nil {
		t.Fatalf("Create after a failed one: %v", err)
	}
}

// TestActRefusesLongRequestID checks that a request id longer than a
// snapshot or a store keeps is refused as malformed, not stored.
func TestActRefusesLongRequestID(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	logged := len(f.store.Entries(f.id))
	long := strings.Repeat("r", 2000)
	if _, err := f.act(0, long, f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); !errors.Is(err, host.ErrBadRequest) {
		t.Fatalf("Act with a request id of %d bytes = %v, want ErrBadRequest", len(long), err)
	}
	if n := len(f.store.Entries(f.id)); n != logged {
		t.Fatalf("the refused request logged %d entries", n-logged)
	}
}

// TestCreateRefusesMoreSeatsThanSnapshotsKeep checks the bound on seats:
// a table of more seats than a snapshot restores would never recover
// from one.
func TestCreateRefusesMoreSeatsThanSnapshotsKeep(t *testing.T) {
	h := host.New(host.Config[toyAction, toyView, string]{})
	defer h.Close()
	for _, tc := range []struct {
		seats int
		want  error
	}{{0, host.ErrBadRequest}, {1, nil}, {64, nil}, {65, host.ErrBadRequest}} {
		_, _, err := h.Create(context.Background(), host.Settings{Seats: tc.seats}, nil, newToy(1))
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("Create of %d seats = %v, want %v", tc.seats, err, tc.want)
		}
	}
}

// TestSharedCount checks that hosts given one Count bound their tables
// together, and that a host Holds only its own tables.
func TestSharedCount(t *testing.T) {
	var c host.Count
	ctx := context.Background()
	a := host.New(host.Config[toyAction, toyView, string]{MaxTables: 2, Count: &c})
	defer a.Close()
	b := host.New(host.Config[toyAction, toyView, string]{MaxTables: 2, Count: &c})
	defer b.Close()
	ia, _, err := a.Create(ctx, defaultSettings, nil, newToy(1))
	if err != nil {
		t.Fatal(err)
	}
	ib, _, err := b.Create(ctx, defaultSettings, nil, newToy(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Create(ctx, defaultSettings, nil, newToy(1)); !errors.Is(err, host.ErrTooManyTables) {
		t.Fatalf("third table over two hosts with MaxTables 2: %v, want ErrTooManyTables", err)
	}
	if c.Load() != 2 {
		t.Fatalf("count %d, want 2", c.Load())
	}
	if !a.Holds(ia.ID) || a.Holds(ib.ID) || !b.Holds(ib.ID) || b.Holds(ia.ID) || a.Holds("no-such-table") {
		t.Fatal("Holds does not tell each host's own tables")
	}
}
