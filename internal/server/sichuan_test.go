package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/client"
	csc "github.com/mahjong-authority/authority/internal/client/sichuan"
	"github.com/mahjong-authority/authority/internal/clock"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/servertest"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

// sichuanConfig is a server hosting riichi and Sichuan with the real
// parts, as the authority binary does.
func sichuanConfig() config { return config{Config: servertest.Standard()} }

// sichuanSettings are the settings of a Sichuan table of hands hands.
func sichuanSettings(hands uint32, bloodyRiver bool) *pb.TableSettings {
	return &pb.TableSettings{
		RuleSet: pb.RuleSet_RULE_SET_SICHUAN,
		Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: hands, BloodyRiver: &bloodyRiver}},
	}
}

// TestSichuanBotTable runs Sichuan tables of four bots to the end through
// the server, followed by a spectator who sees nothing private, and
// checks the exported record: it verifies in full (walls, commitments,
// the seed chain, the replay through the engine).
func TestSichuanBotTable(t *testing.T) {
	e := startEnv(t, sichuanConfig())
	for _, river := range []bool{false, true} {
		set := sichuanSettings(3, river)
		set.FillWithBots, set.Seed = true, seed(9)
		id, owner := e.create(t, set)
		if got := e.table(t, id).GetSettings(); got.GetRuleSet() != pb.RuleSet_RULE_SET_SICHUAN || got.GetSichuan().GetHands() != 3 || got.GetSichuan().GetFanCap() != 3 {
			t.Fatalf("table settings %v", got)
		}
		evs := e.spectateGame(t, id, owner)
		wins := 0
		for _, ev := range evs {
			checkSichuanPublic(t, ev)
			if ev.GetSichuanWon() != nil {
				wins++
			}
			if _, err := wsc.BodyFromPB(ev); err != nil && ev.GetSeatNotice() == nil {
				t.Fatalf("event %v: %v", ev, err)
			}
		}
		if wins == 0 {
			t.Errorf("three hands of bots without a win")
		}
		g := exportSichuan(t, e, id)
		if g.Partial || len(g.Rounds) != 3 || g.ServerSeed == "" || len(g.Entropy) != 4 {
			t.Fatalf("record: partial %t, %d hands, server seed %q", g.Partial, len(g.Rounds), g.ServerSeed)
		}
		rep, err := rsc.Verify(g)
		if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed || rep.Verified != 3 {
			t.Fatalf("Verify = %+v, %v, %v", rep, err, rep.Err())
		}
		for _, f := range []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI} {
			_, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: f})
			wantStatus(t, "export "+f.String(), err, 3, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
		}
	}
}

// checkSichuanPublic fails on a public event that carries a seat's secret.
func checkSichuanPublic(t *testing.T, ev *pb.Event) {
	t.Helper()
	if ev.GetDealt() != nil || ev.GetClaimOffer() != nil || ev.GetTurnOffer() != nil || ev.GetDrew().GetTile() != "" ||
		ev.GetSichuanExchangeChosen().GetTiles() != "" || ev.GetSichuanExchangeReceived() != nil ||
		ev.GetSichuanVoidChosen().GetSuit() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED {
		t.Fatalf("public stream carries a secret: %v", ev)
	}
}

func exportSichuan(t *testing.T, e *env, id string) *rsc.Game {
	t.Helper()
	r, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: pb.RecordFormat_RECORD_FORMAT_NATIVE})
	if err != nil {
		t.Fatal(err)
	}
	g, err := rsc.Decode([]byte(r.GetRecord()))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// scPlayer plays a Sichuan seat over gRPC as a remote client does: it
// keeps its view with the client's tracker from its own stream and acts
// with the bot on that view whenever the view offers something. An action
// refused as stale (STALE_SEQ) is counted and decided again after the
// next event; the seats' choices in the exchange and the void choice,
// made at once, never make each other stale.
type scPlayer struct {
	e     *env
	id    string
	seat  uint32
	token string
	rules sc.Rules

	// decide, when set, is called at every decision point before the
	// seat acts.
	decide func(p *scPlayer)

	tr     *csc.Tracker
	snaps  []*pb.Snapshot
	events []*pb.Event
	last   uint64
	stale  int
}

// run follows the seat after p.last and acts until the match is over, or
// until it received stopAfter messages (stopAfter > 0).
func (p *scPlayer) run(ctx context.Context, stopAfter int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if p.tr == nil {
		p.tr = csc.NewTracker(sc.Seat(p.seat), p.rules)
	}
	st, err := p.e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: p.last})
	if err != nil {
		return err
	}
	var bot botsc.Efficient
	for n := 0; stopAfter == 0 || n < stopAfter; n++ {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("seat %d recv: %w", p.seat, err)
		}
		if s := r.GetSnapshot(); s != nil {
			v, err := wsc.ViewFromPB(s.GetView(), s.GetSeq())
			if err != nil {
				return err
			}
			p.snaps = append(p.snaps, s)
			p.tr.Reset(v)
			p.last = s.GetSeq()
		} else {
			ev := r.GetEvent()
			p.events, p.last = append(p.events, ev), ev.GetSeq()
			if ev.GetSeatNotice() == nil {
				b, err := wsc.BodyFromPB(ev)
				if err != nil {
					return err
				}
				if err := p.tr.Apply(b); err != nil {
					return fmt.Errorf("seat %d event %d: %w", p.seat, ev.GetSeq(), err)
				}
			}
		}
		a, ok := bot.Act(p.tr.View())
		if !ok {
			continue
		}
		if p.decide != nil {
			p.decide(p)
		}
		_, err = p.e.tables.Act(ctx, &pb.ActRequest{TableId: p.id, SeatToken: p.token, LastSeq: p.last, RequestId: uuid.NewString(), Action: wsc.ActionToPB(a)})
		switch {
		case err == nil:
			p.tr.Answered()
		case client.Reason(err) == pb.ErrorReason_ERROR_REASON_STALE_SEQ:
			p.stale++
		default:
			return fmt.Errorf("seat %d %v at %d: %w", p.seat, a, p.last, err)
		}
	}
	return nil
}

// checkSichuanPrivacy checks what a seat received: numbers without gaps,
// none of another seat's deals, draws, offers, exchange tiles or void
// choice, and snapshots that show only the seat's own tiles and, before
// the reveal, only its own void.
func checkSichuanPrivacy(t *testing.T, seat uint32, from uint64, snaps []*pb.Snapshot, evs []*pb.Event) {
	t.Helper()
	for _, s := range snaps {
		v := s.GetView()
		if v.GetSeat() != seat {
			t.Errorf("seat %d got the view of seat %d", seat, v.GetSeat())
		}
		if v.GetDrawn() != "" && v.GetToAct() != seat {
			t.Errorf("seat %d sees a drawn tile in another seat's turn", seat)
		}
		for o, sv := range v.GetSichuan().GetSeats() {
			if !v.GetSichuan().GetRevealed() && sv.GetVoid() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED {
				t.Errorf("seat %d's snapshot shows seat %d's void before the reveal", seat, o)
			}
		}
	}
	last := from
	for _, ev := range evs {
		if ev.GetSeq() != last+1 {
			t.Errorf("seat %d: seq %d after %d", seat, ev.GetSeq(), last)
		}
		last = ev.GetSeq()
		other := func(s uint32) bool { return s != seat }
		switch {
		case ev.GetDealt() != nil && other(ev.GetDealt().GetSeat()),
			ev.GetDrew().GetTile() != "" && other(ev.GetDrew().GetSeat()),
			ev.GetClaimOffer() != nil && other(ev.GetClaimOffer().GetSeat()),
			ev.GetTurnOffer() != nil && other(ev.GetTurnOffer().GetSeat()),
			ev.GetSichuanExchangeChosen().GetTiles() != "" && other(ev.GetSichuanExchangeChosen().GetSeat()),
			ev.GetSichuanExchangeReceived() != nil && other(ev.GetSichuanExchangeReceived().GetSeat()),
			ev.GetSichuanVoidChosen().GetSuit() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED && other(ev.GetSichuanVoidChosen().GetSeat()):
			t.Errorf("seat %d received another seat's secret: %v", seat, ev)
		}
	}
}

// TestSichuanFourClientsPrivacy plays a whole Sichuan match with four
// gRPC clients that know only their own streams, with a claim dwell after
// every discard; one client drops its stream in the middle and resumes
// with after_seq, and takes a fresh snapshot, which must be the view its
// tracker kept. Everything each seat received is checked for privacy.
func TestSichuanFourClientsPrivacy(t *testing.T) {
	e := startEnv(t, sichuanConfig())
	set := sichuanSettings(2, false)
	set.Seed, set.ClaimDwell = seed(5), durationpb.New(time.Millisecond)
	id, _ := e.create(t, set)
	players := make([]*scPlayer, 4)
	var before uint64
	for i := range players {
		if i == 3 {
			before = e.table(t, id).GetLastSeq()
		}
		seat, tok := e.join(t, id)
		players[i] = &scPlayer{e: e, id: id, seat: seat, token: tok, rules: sc.Default}
	}
	for _, p := range players {
		p.last = before // every seat follows from before the game started
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		wg.Go(func() {
			if i == 2 {
				// Drop the stream mid-hand, resume after the last event.
				if errs[i] = p.run(ctxT(t), 120); errs[i] != nil {
					return
				}
			}
			errs[i] = p.run(ctxT(t), 0)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players {
		checkSichuanPrivacy(t, p.seat, before, p.snaps, p.events)
		if p.events[len(p.events)-1].GetGameEnded() == nil {
			t.Errorf("seat %d did not see the match end", p.seat)
		}
		if p.stale > 0 {
			t.Errorf("seat %d: %d actions refused as stale, want none (it acts on the last event of each step)", p.seat, p.stale)
		}
	}
	if st := e.table(t, id).GetState(); st != pb.TableState_TABLE_STATE_FINISHED {
		t.Fatalf("state %v, want finished", st)
	}
	rep, err := rsc.Verify(exportSichuan(t, e, id))
	if err != nil || rep.Err() != nil || !rep.Replayed || !rep.Chain {
		t.Fatalf("Verify = %+v, %v", rep, err)
	}
}

// TestSichuanSnapshotIsTheTrackedView: a seat that opens a fresh stream at
// any of its decision points gets a snapshot (and the standing offer after
// it) equal to the view its tracker kept from its events, and no snapshot
// shows another seat's void before the reveal.
func TestSichuanSnapshotIsTheTrackedView(t *testing.T) {
	e := startEnv(t, sichuanConfig())
	set := sichuanSettings(1, true)
	set.Seed, set.ClaimDwell = seed(6), durationpb.New(time.Millisecond)
	id, _ := e.create(t, set)
	players := make([]*scPlayer, 4)
	var before uint64
	for i := range players {
		if i == 3 {
			before = e.table(t, id).GetLastSeq()
		}
		seat, tok := e.join(t, id)
		players[i] = &scPlayer{e: e, id: id, seat: seat, token: tok, rules: sc.BloodyRiver}
	}
	for _, p := range players {
		p.last = before
	}
	// At its decision points, seat 2 compares its tracker with a fresh
	// snapshot (when no event is on its way).
	var mu sync.Mutex
	checked, mismatch := 0, ""
	var snaps []*pb.Snapshot
	players[2].decide = func(p *scPlayer) {
		got, ok, err := viewThrough(e, id, p.token, p.last, &snaps)
		if !ok {
			return // more events are on their way
		}
		want := *p.tr.View()
		want.Seq = 0
		mu.Lock()
		defer mu.Unlock()
		if err != nil || !reflect.DeepEqual(trimView(got), trimView(want)) {
			mismatch = fmt.Sprintf("snapshot\n%+v\n%v\ntracked\n%+v", got, err, want)
		}
		checked++
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, p := range players {
		wg.Go(func() { errs[i] = p.run(ctxT(t), 0) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if mismatch != "" {
		t.Fatal(mismatch)
	}
	if checked < 10 {
		t.Fatalf("%d decision points compared", checked)
	}
	// The snapshots, taken in the exchange and the void choice too, show
	// seat 2 nothing of the others' choices.
	checkSichuanPrivacy(t, 2, 0, snaps, nil)
}

// viewThrough opens a fresh stream of a seat and returns its view through
// event last: the snapshot, and the events after it (the server sends a
// standing offer as the event after the snapshot) applied by a tracker;
// false when the seat's newest event is past last.
func viewThrough(e *env, id, token string, last uint64, snaps *[]*pb.Snapshot) (sc.View, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: token})
	if err != nil {
		return sc.View{}, false, err
	}
	r, err := st.Recv()
	if err != nil {
		return sc.View{}, false, err
	}
	snap := r.GetSnapshot()
	*snaps = append(*snaps, snap)
	if snap.GetSeq() > last {
		return sc.View{}, false, nil
	}
	v, err := wsc.ViewFromPB(snap.GetView(), 0)
	if err != nil {
		return v, true, err
	}
	tr := csc.NewTracker(v.Seat, sc.BloodyRiver)
	tr.Reset(v)
	for seq := snap.GetSeq(); seq < last; {
		r, err := st.Recv()
		if err != nil {
			return v, true, err
		}
		ev := r.GetEvent()
		seq = ev.GetSeq()
		if ev.GetSeatNotice() != nil {
			continue
		}
		b, err := wsc.BodyFromPB(ev)
		if err != nil {
			return v, true, err
		}
		if err := tr.Apply(b); err != nil {
			return v, true, err
		}
	}
	out := *tr.View()
	out.Seq = 0
	return out, true, nil
}

// trimView makes views comparable: empty slices as nil, and the dealer's
// first turn as the tracker shows it (csc.Tracker).
func trimView(v sc.View) sc.View {
	if v.HasDrawn && v.Seat == v.Dealer && len(v.Seats[v.Seat].Discards) == 0 && len(v.Seats[v.Seat].Melds) == 0 {
		v.Tiles = append(slices.Clone(v.Tiles), v.Drawn)
		slices.Sort(v.Tiles)
		v.Drawn, v.HasDrawn = 0, false
	}
	if len(v.Tiles) == 0 {
		v.Tiles = nil
	}
	if len(v.Legal) == 0 {
		v.Legal = nil
	}
	for i := range v.Seats {
		s := &v.Seats[i]
		if len(s.Discards) == 0 {
			s.Discards = nil
		}
		if len(s.Melds) == 0 {
			s.Melds = nil
		}
		if len(s.Won) == 0 {
			s.Won = nil
		}
	}
	return v
}

// TestSichuanTimeouts: seats that never act are played by the host's
// timers - the exchange (three tiles of the shortest suit), the void
// choice (the suit with fewest tiles), then the dealer's discard - each
// with a timeout notice, and nobody learns another seat's choice before
// the reveal. A published choice changes no other seat's decision, so it
// does not restart the turn timer: one turn time plays every seat that
// has not chosen, in the exchange and again in the void choice.
func TestSichuanTimeouts(t *testing.T) {
	cfg := sichuanConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e := startEnv(t, cfg)
	set := sichuanSettings(1, false)
	set.TurnTime, set.ClaimTime = durationpb.New(5*time.Second), durationpb.New(2*time.Second)
	id, _ := e.create(t, set)
	var toks [4]string
	for i := range toks {
		_, toks[i] = e.join(t, id)
	}
	ctx := ctxT(t)
	st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: toks[1]})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := st.Recv()
	if err != nil {
		t.Fatal(err)
	}
	v, err := wsc.ViewFromPB(snap.GetSnapshot().GetView(), 0)
	if err != nil || v.Phase != sc.Exchanging {
		t.Fatalf("snapshot %v, %v: want the exchange", v.Phase, err)
	}
	counts := tile.CountsOf(v.Tiles)
	wantGive := sc.DefaultExchange(&counts)
	evs := make(chan *pb.Event, 100)
	go func() {
		defer close(evs)
		for {
			r, err := st.Recv()
			if err != nil {
				return
			}
			evs <- r.GetEvent()
		}
	}()
	// until advances the clock by the turn time whenever the table is
	// quiet, until an event that done accepts; it returns the events and
	// counts the turn times in turns.
	turns := 0
	until := func(done func(*pb.Event) bool) []*pb.Event {
		t.Helper()
		var seen []*pb.Event
		for range 20 {
			clk.Advance(5 * time.Second)
			turns++
			for quiet := false; !quiet; {
				select {
				case ev, ok := <-evs:
					if !ok {
						t.Fatal("stream ended")
					}
					checkSichuanPrivacy(t, 1, ev.GetSeq()-1, nil, []*pb.Event{ev})
					seen = append(seen, ev)
					if done(ev) {
						return seen
					}
				case <-time.After(100 * time.Millisecond):
					quiet = true
				}
			}
		}
		t.Fatal("the timers did not get there")
		return nil
	}
	notices := func(evs []*pb.Event) (n int) {
		for _, ev := range evs {
			if ev.GetSeatNotice().GetKind() == pb.SeatNotice_KIND_TIMED_OUT {
				n++
			}
		}
		return n
	}
	seen := until(func(ev *pb.Event) bool { return ev.GetSichuanExchangeReceived() != nil })
	if turns != 1 {
		t.Errorf("the exchange took %d turn times, want 1", turns)
	}
	got := seen[len(seen)-1].GetSichuanExchangeReceived()
	if gave, _ := wsc.ParseTiles("gave", got.GetGave()); !slices.Equal(gave, wantGive[:]) {
		t.Errorf("seat 1 gave %s by timeout, want %v", got.GetGave(), wantGive)
	}
	gotTiles, _ := wsc.ParseTiles("got", got.GetGot())
	for i, x := range gotTiles {
		counts[wantGive[i].Kind()]--
		counts[x.Kind()]++
	}
	wantVoid := wsc.SuitToPB(sc.DefaultVoid(&counts))
	chosen := 0
	for _, ev := range seen {
		if ev.GetSichuanExchangeChosen() != nil && ev.GetSichuanExchangeChosen().GetTiles() == "" {
			chosen++
		}
	}
	if chosen != 4 {
		t.Errorf("%d public exchange choices, want 4", chosen)
	}
	n := notices(seen)
	seen = until(func(ev *pb.Event) bool { return ev.GetSichuanVoidsRevealed() != nil })
	if turns != 2 {
		t.Errorf("the exchange and the void choice took %d turn times, want 2", turns)
	}
	// A seat's timeout notice is its own: seat 1 sees one for its
	// exchange and one for its void (each after its step's events).
	if n += notices(seen); n < 1 || n > 2 {
		t.Errorf("seat 1 saw %d timeout notices up to the reveal", n)
	}
	if vs := seen[len(seen)-1].GetSichuanVoidsRevealed().GetVoids(); len(vs) != 4 || vs[1] != wantVoid {
		t.Errorf("voids revealed %v, want seat 1's %v", vs, wantVoid)
	}
	seen = until(func(ev *pb.Event) bool { return ev.GetDiscarded() != nil })
	if d := seen[len(seen)-1].GetDiscarded(); d.GetSeat() != 0 {
		t.Errorf("first discard %v, want the dealer's", d)
	}
}

func ptr[T any](x T) *T { return &x }

// scSeat is one seat's own stream in TestSichuanChoicesAtOnce.
type scSeat struct {
	seat   sc.Seat
	token  string
	stream pb.TableService_StreamEventsClient
	tr     *csc.Tracker
	first  uint64 // the snapshot's seq
	last   uint64
	events []*pb.Event
}

// readUntil reads the seat's stream, keeping its view, until an event
// that done accepts.
func (s *scSeat) readUntil(t *testing.T, done func(*pb.Event) bool) {
	t.Helper()
	for {
		r, err := s.stream.Recv()
		if err != nil {
			t.Fatalf("seat %d: %v", s.seat, err)
		}
		ev := r.GetEvent()
		s.events, s.last = append(s.events, ev), ev.GetSeq()
		if ev.GetSeatNotice() == nil {
			b, err := wsc.BodyFromPB(ev)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.tr.Apply(b); err != nil {
				t.Fatalf("seat %d event %d: %v", s.seat, ev.GetSeq(), err)
			}
		}
		if done(ev) {
			return
		}
	}
}

// actAll sends every seat's action at once, each with the last_seq given,
// and returns the answers.
func actAll(e *env, id string, seats []*scSeat, last []uint64, act func(s *scSeat) sc.Action) []error {
	errs := make([]error, len(seats))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range seats {
		a := wsc.ActionToPB(act(s))
		wg.Go(func() {
			<-start
			_, errs[i] = e.tables.Act(context.Background(), &pb.ActRequest{TableId: id, SeatToken: s.token, LastSeq: last[i], RequestId: uuid.NewString(), Action: a})
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// TestSichuanChoicesAtOnce: four clients send their exchange, then their
// void choice, at the same moment, each with the last_seq it had before
// any seat chose, and every choice is taken at the first try: another
// seat's choice (SichuanExchangeChosen, SichuanVoidChosen) does not make
// a seat's own stale. What ends a phase does: a void choice decided before
// the exchange was made, and the dealer's discard decided before the
// voids were revealed, are refused with STALE_SEQ. Every seat's numbering
// stays contiguous and private.
func TestSichuanChoicesAtOnce(t *testing.T) {
	e := startEnv(t, sichuanConfig())
	set := sichuanSettings(1, false)
	set.Seed, set.ClaimDwell = seed(11), durationpb.New(time.Millisecond)
	id, _ := e.create(t, set)
	seats := make([]*scSeat, 4)
	for i := range seats {
		seat, tok := e.join(t, id)
		seats[i] = &scSeat{seat: sc.Seat(seat), token: tok, tr: csc.NewTracker(sc.Seat(seat), sc.Default)}
	}
	ctx := ctxT(t)
	last := make([]uint64, 4)
	for i, s := range seats {
		st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: s.token})
		if err != nil {
			t.Fatal(err)
		}
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		v, err := wsc.ViewFromPB(r.GetSnapshot().GetView(), r.GetSnapshot().GetSeq())
		if err != nil || v.Phase != sc.Exchanging {
			t.Fatalf("seat %d's snapshot in %v, %v: want the exchange", s.seat, v.Phase, err)
		}
		s.stream, s.first, s.last = st, r.GetSnapshot().GetSeq(), r.GetSnapshot().GetSeq()
		s.tr.Reset(v)
		last[i] = s.last
	}
	exchangeSeqs := slices.Clone(last)
	errs := actAll(e, id, seats, last, func(s *scSeat) sc.Action {
		c := tile.CountsOf(s.tr.View().Tiles)
		return sc.Action{Seat: s.seat, Type: sc.Exchange, Tiles: sc.DefaultExchange(&c)}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d's exchange at last_seq %d: %v, want it taken", seats[i].seat, last[i], err)
		}
	}
	for i, s := range seats {
		// Its own ExchangeReceived is the last event of the last choice.
		s.readUntil(t, func(ev *pb.Event) bool { return ev.GetSichuanExchangeReceived() != nil })
		last[i] = s.last
	}
	// A void choice decided on the view from before the exchange was made.
	_, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: seats[0].token, LastSeq: exchangeSeqs[0], RequestId: uuid.NewString(),
		Action: wsc.ActionToPB(sc.Action{Seat: seats[0].seat, Type: sc.Void, Suit: tile.Man})})
	wantStatus(t, "void choice before the exchange", err, codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ)

	errs = actAll(e, id, seats, last, func(s *scSeat) sc.Action {
		c := tile.CountsOf(s.tr.View().Tiles)
		return sc.Action{Seat: s.seat, Type: sc.Void, Suit: sc.DefaultVoid(&c)}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d's void choice at last_seq %d: %v, want it taken", seats[i].seat, last[i], err)
		}
	}
	voidSeqs := slices.Clone(last)
	var dealer *scSeat
	for i, s := range seats {
		s.readUntil(t, func(ev *pb.Event) bool { return ev.GetSichuanVoidsRevealed() != nil })
		if s.tr.View().Dealer == s.seat {
			s.readUntil(t, func(ev *pb.Event) bool { return ev.GetTurnOffer() != nil })
			dealer = s
			last[i] = s.last
		}
	}
	if dealer == nil {
		t.Fatal("no dealer")
	}
	i := slices.IndexFunc(dealer.tr.View().Legal, func(a sc.Action) bool { return a.Type == sc.Discard })
	if i < 0 {
		t.Fatalf("dealer's offer %v has no discard", dealer.tr.View().Legal)
	}
	discard := dealer.tr.View().Legal[i]
	_, err = e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: dealer.token, LastSeq: voidSeqs[slices.Index(seats, dealer)], RequestId: uuid.NewString(), Action: wsc.ActionToPB(discard)})
	wantStatus(t, "discard before the voids were revealed", err, codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ)
	if _, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: dealer.token, LastSeq: dealer.last, RequestId: uuid.NewString(), Action: wsc.ActionToPB(discard)}); err != nil {
		t.Fatalf("discard on the newest view: %v", err)
	}
	for _, s := range seats {
		checkSichuanPrivacy(t, uint32(s.seat), s.first, nil, s.events)
		chosen := 0
		for _, ev := range s.events {
			if ev.GetSichuanExchangeChosen() != nil || ev.GetSichuanVoidChosen() != nil {
				chosen++
			}
		}
		if chosen != 2*4+2 { // every seat's public choices, and its own two private copies
			t.Errorf("seat %d saw %d choices, want 10", s.seat, chosen)
		}
	}
}
