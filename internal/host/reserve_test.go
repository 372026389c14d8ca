package host_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// lifeLog records what Config.Lifecycle hears.
type lifeLog struct {
	mu    sync.Mutex
	kinds []host.LifeKind
	last  host.Life[string]
}

func (l *lifeLog) hear(x host.Life[string]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.kinds, l.last = append(l.kinds, x.Kind), x
}

func (l *lifeLog) got() ([]host.LifeKind, host.Life[string]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]host.LifeKind(nil), l.kinds...), l.last
}

// newReserved makes a host whose table has seats 0 and 1 reserved, with
// the opaque tickets "T0" and "T1" good for a minute.
func newReserved(t *testing.T, store *host.MemoryStore[toyAction], clk *clock.Fake, life *lifeLog) *fixture {
	t.Helper()
	f := &fixture{t: t, clk: clk, store: store}
	f.h = host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: store, Codec: toyCodec{}, Lifecycle: life.hear})
	t.Cleanup(f.h.Close)
	exp := clk.Now().Add(time.Minute)
	info, owner, err := f.h.CreateReserved(context.Background(), defaultSettings, []byte("meta"), newToy(2), func(id string) []host.Reservation {
		return []host.Reservation{
			{Seat: 0, PlayerID: "u0", Name: "Ann", TicketHash: host.TicketHash("T0"), Expires: exp},
			{Seat: 1, PlayerID: "u1", Name: "Bob", TicketHash: host.TicketHash("T1"), Expires: exp},
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	if !info.Seats[0].Reserved || info.Seats[0].PlayerID != "u0" || info.Seats[0].Name != "Ann" || info.Seats[0].Taken {
		t.Fatalf("created table's seat 0: %+v", info.Seats[0])
	}
	return f
}

func opaque(seat int, ticket string) host.Pass {
	return host.Pass{Seat: seat, ID: "o:" + ticket, Hash: host.TicketHash(ticket)}
}

func signed(seat int, player, id string, exp time.Time) host.Pass {
	return host.Pass{Seat: seat, ID: "j:" + id, Signed: true, PlayerID: player, Name: "Sig", Expires: exp}
}

// TestPassRefusals: each bad pass is refused with its error and leaves
// the table as it was.
func TestPassRefusals(t *testing.T) {
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	life := &lifeLog{}
	f := newReserved(t, host.NewMemoryStore[toyAction](), clk, life)
	ctx := context.Background()
	if _, err := f.h.JoinPass(ctx, f.id, opaque(0, "T0"), nil); err != nil {
		t.Fatalf("JoinPass(T0) = %v", err)
	}
	later := clk.Now().Add(time.Hour)
	for _, tc := range []struct {
		name string
		pass host.Pass
		want error
	}{
		{"used", opaque(0, "T0"), host.ErrTicketUsed},
		{"forged", opaque(1, "T9"), host.ErrTicketInvalid},
		{"another seat's", opaque(1, "T0x"), host.ErrTicketInvalid},
		{"opaque for a free seat", opaque(2, "T2"), host.ErrTicketInvalid},
		{"signed for another player's seat", signed(1, "u9", "a", later), host.ErrSeatReserved},
		{"signed for a taken seat", signed(0, "u0", "b", later), host.ErrSeatTaken},
		{"signed, expired", signed(2, "u2", "c", clk.Now()), host.ErrTicketExpired},
		{"seat out of range", signed(4, "u2", "d", later), host.ErrBadRequest},
		{"no id", host.Pass{Seat: 2, Signed: true, PlayerID: "u2", Expires: later}, host.ErrBadRequest},
	} {
		before := f.info()
		if _, err := f.h.JoinPass(ctx, f.id, tc.pass, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: JoinPass = %v, want %v", tc.name, err, tc.want)
		}
		if after := f.info(); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: the table changed:\n%+v\n%+v", tc.name, before, after)
		}
	}
	// Plain joins take the free seats only.
	for want := 2; want < 4; want++ {
		if s, _, err := f.h.Join(ctx, f.id, "x", nil); err != nil || s != want {
			t.Fatalf("Join = %d, %v; want seat %d", s, err, want)
		}
	}
	if _, _, err := f.h.Join(ctx, f.id, "x", nil); !errors.Is(err, host.ErrSeatReserved) {
		t.Fatalf("Join with only a reserved seat left = %v", err)
	}
	clk.Advance(time.Minute)
	if _, err := f.h.JoinPass(ctx, f.id, opaque(1, "T1"), nil); !errors.Is(err, host.ErrTicketExpired) {
		t.Fatalf("JoinPass(T1) a minute later = %v", err)
	}
	// A new reservation, a new ticket.
	if err := f.h.Reserve(ctx, f.id, host.Reservation{Seat: 1, PlayerID: "u1", Name: "Bob", TicketHash: host.TicketHash("T1b"), Expires: clk.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Reserve(ctx, f.id, host.Reservation{Seat: 0, PlayerID: "u7"}); !errors.Is(err, host.ErrSeatTaken) {
		t.Fatalf("Reserve of a taken seat = %v", err)
	}
	if _, err := f.h.JoinPass(ctx, f.id, opaque(1, "T1b"), nil); err != nil {
		t.Fatal(err)
	}
	if st := f.info().State; st != host.Playing {
		t.Fatalf("state %v with every seat taken", st)
	}
	if _, err := f.h.JoinPass(ctx, f.id, signed(1, "u1", "e", later), nil); !errors.Is(err, host.ErrAlreadyStarted) {
		t.Fatalf("JoinPass after the start = %v", err)
	}
	if err := f.h.CloseWaiting(ctx, f.id); !errors.Is(err, host.ErrAlreadyStarted) {
		t.Fatalf("CloseWaiting in play = %v", err)
	}
	if kinds, _ := life.got(); !reflect.DeepEqual(kinds, []host.LifeKind{host.LifeCreated, host.LifeStarted}) {
		t.Fatalf("lifecycle %v", kinds)
	}
}

// TestReservationsRecover: reservations, player ids and used tickets are
// in the log: a restarted host has them, from a snapshot too.
func TestReservationsRecover(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	f := newReserved(t, store, clk, &lifeLog{})
	ctx := context.Background()
	tok, err := f.h.JoinPass(ctx, f.id, opaque(0, "T0"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.h.Leave(ctx, f.id, tok); err != nil {
		t.Fatal(err)
	}
	f.h.Close()
	restart := func() {
		t.Helper()
		f.h = host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: store, Codec: toyCodec{}})
		t.Cleanup(f.h.Close)
		if _, err := f.h.Recover(ctx, func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(2), nil }); err != nil {
			t.Fatal(err)
		}
	}
	restart()
	if s := f.info().Seats[0]; !s.Reserved || s.Taken || s.PlayerID != "u0" || s.Name != "Ann" {
		t.Fatalf("seat 0 after a leave and a restart: %+v", s)
	}
	if _, err := f.h.JoinPass(ctx, f.id, opaque(0, "T0"), nil); !errors.Is(err, host.ErrTicketUsed) {
		t.Fatalf("a ticket used before the restart = %v", err)
	}
	// Every seat with a pass; play past the first round (a snapshot), then
	// restart: the player ids come back from the snapshot.
	for s, p := range []host.Pass{signed(0, "u0", "s0", clk.Now().Add(time.Hour)), opaque(1, "T1"), signed(2, "u2", "s2", clk.Now().Add(time.Hour)), signed(3, "u3", "s3", clk.Now().Add(time.Hour))} {
		if f.tokens[s], err = f.h.JoinPass(ctx, f.id, p, nil); err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
	}
	for i := 0; f.info().LastSeq < 14; i++ {
		if i > 400 {
			t.Fatalf("the game does not go on: %+v", f.info())
		}
		s := i % 4
		if _, err := f.act(s, fmt.Sprint("p", i), f.seq(s), toyAction{Seat: s, Kind: "play", N: 3}); err != nil {
			f.act(s, fmt.Sprint("q", i), f.seq(s), toyAction{Seat: s, Kind: "pass"})
		}
	}
	if st := f.info().State; st != host.Playing {
		t.Fatalf("state %v before the restart, want playing", st)
	}
	// Snapshots are stored after the step that takes them: wait for one.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, snap, _, err := store.LoadTable(ctx, f.id); err == nil && snap != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no snapshot before the restart: the test would not restore one")
		}
	}
	f.h.Close()
	restart()
	want := []string{"u0", "u1", "u2", "u3"}
	for s, st := range f.info().Seats {
		if st.PlayerID != want[s] {
			t.Fatalf("seat %d: player %q after a restart, want %q", s, st.PlayerID, want[s])
		}
	}
}

// TestAbandon: a game in play ends where it stands; the log has it, so a
// restart keeps it over.
func TestAbandon(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	life := &lifeLog{}
	f := newReserved(t, store, clk, life)
	ctx := context.Background()
	if err := f.h.Abandon(ctx, f.id); !errors.Is(err, host.ErrNotStarted) {
		t.Fatalf("Abandon before the start = %v", err)
	}
	f.tokens[0], _ = f.h.JoinPass(ctx, f.id, opaque(0, "T0"), nil)
	f.tokens[1], _ = f.h.JoinPass(ctx, f.id, opaque(1, "T1"), nil)
	f.join2(2, 3)
	if _, err := f.act(0, "r", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Abandon(ctx, f.id); err != nil {
		t.Fatal(err)
	}
	if st := f.info().State; st != host.Finished {
		t.Fatalf("state %v after Abandon", st)
	}
	if err := f.h.Abandon(ctx, f.id); !errors.Is(err, host.ErrGameOver) {
		t.Fatalf("Abandon twice = %v", err)
	}
	kinds, last := life.got()
	if !reflect.DeepEqual(kinds, []host.LifeKind{host.LifeCreated, host.LifeStarted, host.LifeAbandoned}) || !last.HasFinal || last.Final != "play 0 2" {
		t.Fatalf("lifecycle %v, last %+v", kinds, last)
	}
	f.h.Close()
	f.h = host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: store, Codec: toyCodec{}, Lifecycle: life.hear,
		GameFor: func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(2), nil }})
	defer f.h.Close()
	if _, err := f.h.Recover(ctx, func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(2), nil }); err != nil {
		t.Fatal(err)
	}
	if st := f.info().State; st != host.Finished {
		t.Fatalf("state %v after a restart", st)
	}
}

// join2 takes the given free seats with plain joins.
func (f *fixture) join2(seats ...int) {
	f.t.Helper()
	for _, want := range seats {
		s, tok, err := f.h.Join(context.Background(), f.id, "p", nil)
		if err != nil || s != want {
			f.t.Fatalf("Join = %d, %v; want seat %d", s, err, want)
		}
		f.tokens[s] = tok
	}
}

// TestCloseWaiting: a table that has not started leaves at once.
func TestCloseWaiting(t *testing.T) {
	life := &lifeLog{}
	f := newReserved(t, host.NewMemoryStore[toyAction](), clock.NewFake(time.Unix(1_700_000_000, 0)), life)
	if err := f.h.CloseWaiting(context.Background(), f.id); err != nil {
		t.Fatal(err)
	}
	_, err := f.h.Get(context.Background(), f.id)
	var ev *host.EvictedError
	if !errors.As(err, &ev) || ev.Reason != host.EvictClosed {
		t.Fatalf("Get after CloseWaiting = %v, want an EvictedError for a close", err)
	}
	if kinds, _ := life.got(); !reflect.DeepEqual(kinds, []host.LifeKind{host.LifeCreated, host.LifeClosed}) {
		t.Fatalf("lifecycle %v", kinds)
	}
}
