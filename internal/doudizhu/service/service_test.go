package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	mpb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/record"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
)

// TestBotMatchOverTCP plays a three-deal match of one remote player (the
// bot of package bot, over the wire) and two server bots, follows it as
// a spectator, and verifies the exported record.
func TestBotMatchOverTCP(t *testing.T) {
	for _, bidding := range []pb.Bidding{pb.Bidding_BIDDING_POINTS, pb.Bidding_BIDDING_CALL_ROB} {
		t.Run(bidding.String(), func(t *testing.T) {
			e := startEnv(t, nil, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			id, owner := e.create(t, &pb.TableSettings{Bidding: bidding, Deals: 3, FillWithBots: true, Seed: seed(7)})
			seat, err := e.c.JoinTable(ctx, id, "alice")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.c.Tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
				t.Fatal(err)
			}
			var spect []client.Update
			var serr error
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := e.c.Watch(id, func(err error) { t.Errorf("spectator fault: %v", err) })
				for {
					u, err := w.Next(ctx)
					if errors.Is(err, io.EOF) {
						return
					}
					if err != nil {
						serr = err
						return
					}
					spect = append(spect, u)
				}
			}()
			s := e.c.Follow(seat, func(err error) { t.Errorf("seat fault: %v", err) })
			got, err := play(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			if serr != nil {
				t.Fatal(serr)
			}
			last := got[len(got)-1].Event.GetMatchEnded()
			if last == nil {
				t.Fatalf("the seat's last event is %v, want the match's end", got[len(got)-1].Event)
			}
			sum := int64(0)
			for _, v := range last.GetScores() {
				sum += v
			}
			if sum != 0 {
				t.Errorf("scores %v sum to %d", last.GetScores(), sum)
			}
			for _, u := range spect {
				if u.Event.GetDealt() != nil || u.Event.GetOffer() != nil {
					t.Fatalf("the spectator saw a private event: %v", u.Event)
				}
			}
			r, err := e.c.Tables.ExportGame(ctx, &pb.ExportGameRequest{TableId: id})
			if err != nil {
				t.Fatal(err)
			}
			var rec record.Record
			if err := json.Unmarshal([]byte(r.GetRecord()), &rec); err != nil {
				t.Fatal(err)
			}
			n, err := record.Verify(&rec)
			if err != nil || r.GetPartial() || n < 3 || rec.ServerSeed == "" {
				t.Fatalf("record of %d deals (partial %t, server seed %q): %v", n, r.GetPartial(), rec.ServerSeed, err)
			}
			t.Logf("%d deals, scores %v, %d seat updates, %d spectator events", n, last.GetScores(), len(got), len(spect))
		})
	}
}

// TestStreamsHideCards plays three remote seats to the end, each stream
// cut and resumed (from a snapshot, and after its last seq) at every deal
// start, and checks that no seat's stream holds another seat's cards or
// the kitty before they are shown: the only cards a seat sees before a
// deal ends are its own, the plays, and the kitty once the landlord is
// chosen.
func TestStreamsHideCards(t *testing.T) {
	e := startEnv(t, nil, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, _ := e.create(t, &pb.TableSettings{Deals: 4, Seed: seed(3)})
	var seats []client.Seat
	for _, name := range []string{"a", "b", "c"} {
		s, err := e.c.JoinTable(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	logs := make([][]client.Update, 3)
	for i, st := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := e.c.Follow(st, func(err error) { t.Errorf("seat %d fault: %v", i, err) })
			logs[i], errs[i] = playResuming(ctx, e, st, s)
			if errs[i] != nil && ctx.Err() == nil {
				t.Errorf("seat %d: %v", i, errs[i])
				cancel() // the others wait for this seat
			}
		}()
	}
	wg.Wait()
	for i := range seats {
		if errs[i] != nil {
			t.FailNow()
		}
	}
	for i := range seats {
		checkHidden(t, seats[i].Seat, logs[i])
	}
}

// playResuming is play, with the stream dropped at every deal start and a
// second stream opened from a snapshot (after_seq 0), whose messages are
// checked too.
func playResuming(ctx context.Context, e *env, st client.Seat, s *client.Session) ([]client.Update, error) {
	var got []client.Update
	inner := &resumer{e: e, st: st}
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return append(got, inner.extra...), nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, u)
		if u.Event.GetDealStarted() != nil {
			s.Drop() // resumed after the last seq by the next Next
			if err := inner.snapshot(ctx); err != nil {
				return got, err
			}
		}
		if s.Over() || !s.MyTurn() || (u.Snapshot == nil && u.Event.GetOffer() == nil) {
			continue
		}
		a, err := inner.b.Act(s.View())
		if err != nil {
			return got, err
		}
		if _, err := s.Act(ctx, a); err != nil {
			return got, err
		}
	}
}

type resumer struct {
	e     *env
	st    client.Seat
	b     botT
	extra []client.Update
}

// snapshot opens a stream from the start (a snapshot) and keeps what it
// gets in the next few messages.
func (r *resumer) snapshot(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	s := r.e.c.Follow(r.st, nil)
	for range 3 {
		u, err := s.Next(sctx)
		if err != nil {
			// gRPC may see the deadline before the context reports it.
			if sctx.Err() != nil || status.Code(errors.Unwrap(err)) == codes.DeadlineExceeded || status.Code(err) == codes.DeadlineExceeded {
				return nil
			}
			return err
		}
		r.extra = append(r.extra, u)
	}
	return nil
}

func checkHidden(t *testing.T, me table.Seat, log []client.Update) {
	t.Helper()
	for _, u := range log {
		if sn := u.Snapshot; sn != nil {
			v := sn.GetView()
			if v.GetSeat() != uint32(me) {
				t.Fatalf("seat %d got seat %d's snapshot", me, v.GetSeat())
			}
			if !v.GetHasLandlord() && v.GetKitty() != "" {
				t.Fatalf("seat %d's snapshot shows the kitty %q before the landlord is chosen", me, v.GetKitty())
			}
			if o := v.GetOffer(); o != nil && o.GetSeat() != uint32(me) {
				t.Fatalf("seat %d's snapshot holds seat %d's offer", me, o.GetSeat())
			}
			continue
		}
		ev := u.Event
		switch {
		case ev.GetDealt() != nil && ev.GetDealt().GetSeat() != uint32(me):
			t.Fatalf("seat %d got seat %d's cards: %v", me, ev.GetDealt().GetSeat(), ev)
		case ev.GetOffer() != nil && ev.GetOffer().GetSeat() != uint32(me):
			t.Fatalf("seat %d got seat %d's offer", me, ev.GetOffer().GetSeat())
		}
	}
}

// TestRefusals checks the codes and reasons of refused requests, and that
// none changes the table.
func TestRefusals(t *testing.T) {
	e := startEnv(t, nil, 0)
	ctx := context.Background()
	id, _ := e.create(t, &pb.TableSettings{Seed: seed(1)})
	var seats []client.Seat
	for _, name := range []string{"a", "b", "c"} {
		s, err := e.c.JoinTable(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	// Seat 0's seed draws the first bidder; find it from a snapshot.
	first := snapshotOf(t, e, seats[0]).GetFirst()
	toAct, other := seats[first], seats[(first+1)%3]
	lastOf := func(s client.Seat) uint64 { return snapshotSeq(t, e, s) }
	bid := func(n uint32) *pb.Action { return &pb.Action{Type: pb.ActionType_ACTION_TYPE_BID, Bid: n} }
	for _, c := range []struct {
		name   string
		call   func() error
		code   codes.Code
		reason mpb.ErrorReason
	}{
		{"no action", func() error { return act(e, toAct, lastOf(toAct), nil) }, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"bid of 4", func() error { return act(e, toAct, lastOf(toAct), bid(4)) }, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"cards that are not cards", func() error {
			return act(e, toAct, lastOf(toAct), &pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "33Z"})
		}, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"wrong token", func() error { return act(e, client.Seat{TableID: id, Token: "nope"}, 1, bid(1)) }, codes.PermissionDenied, mpb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{"not its turn", func() error { return act(e, other, lastOf(other), bid(1)) }, codes.FailedPrecondition, mpb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
		{"play while bidding", func() error {
			return act(e, toAct, lastOf(toAct), &pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "3"})
		}, codes.FailedPrecondition, mpb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
		{"call on a points table", func() error {
			return act(e, toAct, lastOf(toAct), &pb.Action{Type: pb.ActionType_ACTION_TYPE_CALL})
		}, codes.FailedPrecondition, mpb.ErrorReason_ERROR_REASON_ILLEGAL_ACTION},
		{"stale seq", func() error { return act(e, toAct, 1, bid(1)) }, codes.Aborted, mpb.ErrorReason_ERROR_REASON_STALE_SEQ},
		{"no such table", func() error {
			_, err := e.c.Tables.GetTable(ctx, &pb.GetTableRequest{TableId: "nope"})
			return err
		}, codes.NotFound, mpb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND},
		{"join a started table", func() error { _, err := e.c.JoinTable(ctx, id, "d"); return err }, codes.FailedPrecondition, mpb.ErrorReason_ERROR_REASON_ALREADY_STARTED},
		{"bomb cap out of range", func() error {
			_, err := e.c.Tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{BombCap: 21}})
			return err
		}, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"deals out of range", func() error {
			_, err := e.c.Tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Deals: 65}})
			return err
		}, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{"short seed", func() error {
			_, err := e.c.Tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Seed: []byte{1}}})
			return err
		}, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{"bidding out of range", func() error {
			_, err := e.c.Tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Bidding: 9}})
			return err
		}, codes.InvalidArgument, mpb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := snapshotSeq(t, e, toAct)
			err := c.call()
			if status.Code(err) != c.code || server.Reason(err) != c.reason {
				t.Fatalf("got %v (%v), want %v %v", status.Code(err), err, c.code, c.reason)
			}
			if after := snapshotSeq(t, e, toAct); after != before {
				t.Fatalf("a refused request moved the table from seq %d to %d", before, after)
			}
		})
	}
	// And the seat to act can still bid.
	if err := act(e, toAct, lastOf(toAct), bid(1)); err != nil {
		t.Fatal(err)
	}
}

// TestMaxTablesShared: --max-tables bounds mahjong and Dou Dizhu tables
// together.
func TestMaxTablesShared(t *testing.T) {
	e := startEnv(t, nil, 1)
	ctx := context.Background()
	if _, err := e.mahj.CreateTable(ctx, &mpb.CreateTableRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := e.c.Tables.CreateTable(ctx, &pb.CreateTableRequest{})
	if status.Code(err) != codes.ResourceExhausted || server.Reason(err) != mpb.ErrorReason_ERROR_REASON_TOO_MANY_TABLES {
		t.Fatalf("a Dou Dizhu table beyond --max-tables: %v", err)
	}
}

// TestRecovery plays part of a match, stops the server without a word and
// starts another on the same store: the table resumes, the seat's stream
// resumes after its last seq, and the match ends with a record that
// verifies.
func TestRecovery(t *testing.T) {
	st := host.NewMemoryStore[table.Action]()
	e := startEnv(t, st, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, owner := e.create(t, &pb.TableSettings{Deals: 3, FillWithBots: true, Seed: seed(9)})
	seat, err := e.c.JoinTable(ctx, id, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatal(err)
	}
	s := e.c.Follow(seat, func(err error) { t.Errorf("fault: %v", err) })
	var b botT
	deals := 0
	for deals < 2 {
		u, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if u.Event.GetDealStarted() != nil {
			deals++
		}
		if s.MyTurn() && (u.Snapshot != nil || u.Event.GetOffer() != nil) {
			a, _ := b.Act(s.View())
			if _, err := s.Act(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := s.LastSeq()
	e.stop()

	e2 := startEnv(t, st, 0)
	// Resume exactly where the first stream stopped: no snapshot.
	s2 := e2.c.Resume(seat, last, *s.View(), func(err error) { t.Errorf("fault after the restart: %v", err) })
	got, err := play(ctx, s2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Snapshot != nil || got[0].Event.GetSeq() != last+1 {
		t.Fatalf("the resumed stream starts with %v, want event %d", got[0], last+1)
	}
	r, err := e2.c.Tables.ExportGame(ctx, &pb.ExportGameRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	var rec record.Record
	if err := json.Unmarshal([]byte(r.GetRecord()), &rec); err != nil {
		t.Fatal(err)
	}
	if n, err := record.Verify(&rec); err != nil || !rec.Over {
		t.Fatalf("record of %d deals after recovery (over %t): %v", n, rec.Over, err)
	}
}

// TestLeftAndSilentSeats: a seat whose player left is played by the bot,
// and a seat that stays silent is played by its timer (the engine's
// Default), so the match ends with one player acting.
func TestLeftAndSilentSeats(t *testing.T) {
	e := startEnv(t, nil, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, _ := e.create(t, &pb.TableSettings{Deals: 2, Seed: seed(5), TurnTime: durationpb.New(50 * time.Millisecond)})
	var seats []client.Seat
	for _, name := range []string{"player", "leaver", "silent"} {
		s, err := e.c.JoinTable(ctx, id, name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	if _, err := e.c.Tables.LeaveTable(ctx, &pb.LeaveTableRequest{TableId: id, SeatToken: seats[1].Token}); err != nil {
		t.Fatal(err)
	}
	// Seat 2 follows its stream and never acts: its timer plays it.
	silent := e.c.Follow(seats[2], nil)
	timedOut := make(chan int, 1)
	go func() {
		n := 0
		defer func() { timedOut <- n }()
		for {
			u, err := silent.Next(ctx)
			if err != nil {
				return
			}
			if no := u.Event.GetSeatNotice(); no.GetKind() == mpb.SeatNotice_KIND_TIMED_OUT && no.GetSeat() == 2 {
				n++
			}
		}
	}()
	got, err := play(ctx, e.c.Follow(seats[0], func(err error) { t.Errorf("fault: %v", err) }))
	if err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1].Event.GetMatchEnded() == nil {
		t.Fatalf("last event %v", got[len(got)-1].Event)
	}
	if n := <-timedOut; n == 0 {
		t.Fatal("the silent seat was never timed out")
	}
	tb, err := e.c.Tables.GetTable(ctx, &pb.GetTableRequest{TableId: id})
	if err != nil || !tb.GetTable().GetSeats()[1].GetBot() {
		t.Fatalf("seat 1 after it left: %v, %v", tb.GetTable().GetSeats(), err)
	}
}
