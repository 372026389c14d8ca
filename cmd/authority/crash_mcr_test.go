package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/client"
	cmcr "github.com/mahjong-authority/authority/internal/client/mcr"
	"github.com/mahjong-authority/authority/internal/host"
	rsmcr "github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/store"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
)

// The Chinese Official part of the crash test: mcrTables tables of three
// hands each (in DATA/mcr.db) beside the other rule sets' tables. Their
// clients hold still in the second hand until the restart, so that the
// crash finds every MCR table mid-hand after a snapshot.
const (
	mcrTables = 2
	mcrHands  = 3
)

type mcrCrash struct {
	admin   *client.Client
	ids     [mcrTables]string
	runs    [mcrTables][tmcr.NumSeats]*mcrRun
	release chan struct{}
}

// mcrRun is what one MCR bot client did.
type mcrRun struct {
	acked   []tmcr.Action
	final   []int
	ended   bool
	stats   client.Stats
	err     error
	release <-chan struct{}
	holding atomic.Bool // held still, waiting for release
}

func startMCR(ctx context.Context, t *testing.T, addr string, admin *client.Client, wg *sync.WaitGroup, closers *[]*client.Client) *mcrCrash {
	t.Helper()
	m := &mcrCrash{admin: admin, release: make(chan struct{})}
	for i := range mcrTables {
		tb, _, err := admin.CreateTable(ctx, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Seed: seedOf(20 + i),
			ClaimDwell: durationpb.New(time.Millisecond), Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: mcrHands}}})
		if err != nil {
			t.Fatal(err)
		}
		m.ids[i] = tb.GetTableId()
		for s := range tmcr.NumSeats {
			c, err := client.Dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			*closers = append(*closers, c)
			st, err := c.JoinTable(ctx, m.ids[i], fmt.Sprint("mcr", s), nil)
			if err != nil {
				t.Fatal(err)
			}
			r := &mcrRun{release: m.release}
			m.runs[i][s] = r
			wg.Go(func() { playMCRBot(ctx, cmcr.Follow(c, st, client.Options{}), r) })
		}
	}
	return m
}

// ready reports whether every MCR table is held mid-hand after its first.
func (m *mcrCrash) ready(ctx context.Context, t *testing.T) bool {
	t.Helper()
	n := 0
	for i, id := range m.ids {
		tb, err := m.admin.GetTable(ctx, id)
		if err != nil {
			t.Fatalf("GetTable: %v", err)
		}
		if tb.GetState() == pb.TableState_TABLE_STATE_FINISHED {
			t.Fatalf("MCR table %s finished before the crash", id)
		}
		for _, r := range m.runs[i] {
			if r.holding.Load() {
				n++
				break
			}
		}
	}
	return n == mcrTables
}

// resume lets the held clients play on.
func (m *mcrCrash) resume() { close(m.release) }

// playMCRBot plays one MCR seat with the MCR bot through a client session
// until its game ends; in the second hand, after three actions, it holds
// still until release is closed.
func playMCRBot(ctx context.Context, s *cmcr.Session, r *mcrRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b bmcr.Player
	hands, inHand := 0, 0
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return
		}
		if err != nil {
			r.err = err
			return
		}
		switch e := u.Event.Body.(type) {
		case tmcr.HandEnded:
			hands, inHand = hands+1, 0
		case tmcr.GameEnded:
			r.final = e.Scores[:]
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		if hands == 1 && inHand == 3 {
			r.holding.Store(true)
			select {
			case <-r.release:
			case <-ctx.Done():
				r.err = ctx.Err()
				return
			}
		}
		if _, err := s.Act(ctx, a); err == nil {
			r.acked = append(r.acked, a)
			inHand++
		}
	}
}

// check, once the server has stopped: every MCR game ended for every
// client without a fault, and each table's log in DATA/mcr.db replays through the engine with every
// acknowledged action once, no other player action, and the clients'
// final scores.
func (m *mcrCrash) check(ctx context.Context, t *testing.T, data string) {
	t.Helper()
	for i := range m.ids {
		for s, r := range m.runs[i] {
			if r.err != nil || !r.ended || r.stats.Faults > 0 {
				t.Fatalf("MCR table %d seat %d: ended %v, %d faults, %v", i, s, r.ended, r.stats.Faults, r.err)
			}
		}
	}
	st, err := store.Open[tmcr.Action](filepath.Join(data, "mcr.db"), rsmcr.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, id := range m.ids {
		es, err := st.LoadEntries(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := tmcr.New(tmcr.Config{Rules: tmcr.Rules{Name: "mcr", Hands: mcrHands}})
		if err != nil {
			t.Fatal(err)
		}
		var logged [tmcr.NumSeats][]tmcr.Action
		var final []int
		for _, e := range es {
			if e.Kind != host.EntryAction {
				continue
			}
			if e.Actor >= 0 {
				if e.RequestID == "" {
					t.Fatalf("MCR table %d: seat %d was played by the server (%v)", i, e.Actor, e.Action)
				}
				logged[e.Actor] = append(logged[e.Actor], e.Action)
			}
			evs, err := eng.Step(e.Action)
			if err != nil {
				t.Fatalf("MCR table %d: replay of %v: %v", i, e.Action, err)
			}
			for _, ev := range evs {
				if g, ok := ev.Body.(tmcr.GameEnded); ok {
					final = g.Scores[:]
				}
			}
		}
		for s, r := range m.runs[i] {
			if !slices.Equal(logged[s], r.acked) {
				t.Fatalf("MCR table %d seat %d: the log holds %d actions, the client had %d acknowledged", i, s, len(logged[s]), len(r.acked))
			}
			if !slices.Equal(r.final, final) {
				t.Fatalf("MCR table %d seat %d: final scores %v, the replayed log gives %v", i, s, r.final, final)
			}
		}
		t.Logf("MCR table %d: %d entries, final %v", i, len(es), final)
	}
}
