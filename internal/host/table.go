package host

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mahjong-authority/authority/internal/clock"
)

// maxEntropy bounds the entropy a player may send when joining.
const maxEntropy = 64

// retryDelay is how long a table waits before it retries a step that the
// store refused and that no client is waiting for (a bot's move, a timeout).
const retryDelay = time.Second

// table is one hosted table. Everything but the fields under mu belongs to
// the goroutine that runs run(); other goroutines reach it through inbox.
type table[A comparable, V, B any] struct {
	h     *Host[A, V, B]
	rec   TableRecord
	set   Settings
	log   *zap.Logger
	clk   clock.Clock
	store Store[A]

	inbox   chan func()
	quit    chan struct{} // closed by Host.Close
	stopped chan struct{} // closed when run returns
	ctx     context.Context
	cancel  context.CancelFunc

	// Owned by the table's goroutine.
	game     Game[A, V, B]
	newGame  NewGame[A, V, B]
	actions  []A // every accepted action, to rebuild the game
	state    State
	seats    []seat[A, V]
	epoch    uint64 // counts steps that published events: a new decision point
	timer    clock.Timer
	timerGen uint64
	timerKey waitKey

	// Shared with streams and readers.
	mu      sync.RWMutex
	events  []Event[B]    // append-only; events[i].Seq == i+1
	changed chan struct{} // closed and replaced on every append
	done    bool          // the game is over: no more events
	snap    Info
}

type waitKey struct {
	kind  WaitKind
	epoch uint64
	armed bool
}

type seat[A comparable, V any] struct {
	taken    bool // a player joined
	left     bool // and gave the seat up after the start
	name     string
	hash     [32]byte // SHA-256 of the token
	entropy  []byte
	botOn    bool
	bot      Bot[A, V] // nil: the game's default action
	conns    int       // open streams
	graceGen uint64
	grace    clock.Timer
	lastSeen uint64        // newest game event this seat may see
	revoked  chan struct{} // closed when the player leaves: its streams end
	bucket   *Bucket
	dedupe   map[string]answer[A]
	order    []string // request ids, oldest first
}

// answer is the remembered outcome of a request id.
type answer[A comparable] struct {
	action A
	seq    uint64
	err    error
}

func newTable[A comparable, V, B any](h *Host[A, V, B], rec TableRecord, g Game[A, V, B], newGame NewGame[A, V, B]) *table[A, V, B] {
	ctx, cancel := context.WithCancel(context.Background())
	t := &table[A, V, B]{
		h: h, rec: rec, set: rec.Settings,
		log: h.cfg.Log.With(zap.String("table", rec.ID)), clk: h.cfg.Clock, store: h.cfg.Store,
		inbox: make(chan func(), 16), quit: make(chan struct{}), stopped: make(chan struct{}),
		ctx: ctx, cancel: cancel,
		game: g, newGame: newGame, state: Waiting,
		seats:   make([]seat[A, V], rec.Settings.Seats),
		changed: make(chan struct{}),
	}
	for i := range t.seats {
		t.seats[i].bucket = NewBucket(h.cfg.SeatRate)
		t.seats[i].dedupe = map[string]answer[A]{}
	}
	t.refresh()
	return t
}

func (t *table[A, V, B]) run() {
	defer close(t.stopped)
	defer t.cancel()
	for {
		select {
		case f := <-t.inbox:
			f()
			t.refresh()
		case <-t.quit:
			t.stopTimer()
			for i := range t.seats {
				t.stopGrace(i)
			}
			return
		}
	}
}

// post queues f for the table's goroutine; it gives up if the table stopped.
func (t *table[A, V, B]) post(f func()) {
	select {
	case t.inbox <- f:
	case <-t.stopped:
	}
}

func (t *table[A, V, B]) info() Info {
	t.mu.RLock()
	defer t.mu.RUnlock()
	in := t.snap
	in.Seats = slices.Clone(in.Seats)
	return in
}

// refresh publishes the table's description for readers.
func (t *table[A, V, B]) refresh() {
	in := Info{ID: t.rec.ID, Settings: t.set, Meta: t.rec.Meta, Created: t.rec.Created, State: t.state, Seats: make([]SeatInfo, len(t.seats))}
	for i, s := range t.seats {
		in.Seats[i] = SeatInfo{Taken: s.taken, Name: s.name, Bot: s.botOn, Connected: s.conns > 0}
	}
	t.mu.Lock()
	in.LastSeq = uint64(len(t.events))
	t.snap = in
	t.mu.Unlock()
}

func (t *table[A, V, B]) head() uint64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return uint64(len(t.events))
}

// seatOf finds the seat of a token. It compares the token's hash with every
// seat's in constant time, so timing tells nothing about which seat or how
// much of a token matched.
func (t *table[A, V, B]) seatOf(token string) (int, error) {
	if token == "" {
		return 0, ErrMissingToken
	}
	h := sha256.Sum256([]byte(token))
	found := -1
	for i := range t.seats {
		s := &t.seats[i]
		if subtle.ConstantTimeCompare(h[:], s.hash[:]) == 1 && s.taken && !s.left {
			found = i
		}
	}
	if found < 0 {
		return 0, ErrWrongToken
	}
	return found, nil
}

// commit stores entries; nothing may change before it succeeds.
func (t *table[A, V, B]) commit(entries ...Entry[A]) error {
	if err := t.store.Append(t.ctx, t.rec.ID, entries...); err != nil {
		return fmt.Errorf("%w: store: %v", ErrUnavailable, err)
	}
	return nil
}

func (t *table[A, V, B]) notice(kind NoticeKind, seat int) Entry[A] {
	n := Notice{Kind: kind, Seat: seat}
	if seat >= 0 && seat < len(t.seats) {
		n.Name = t.seats[seat].name
	}
	return Entry[A]{At: t.clk.Now(), Kind: EntryNotice, Actor: seat, Notice: n}
}

// publish appends events to the log and wakes the streams.
func (t *table[A, V, B]) publish(at time.Time, outs []Out[B], notices ...Entry[A]) {
	if len(outs) == 0 && len(notices) == 0 {
		return
	}
	t.mu.Lock()
	for _, o := range outs {
		seq := uint64(len(t.events)) + 1
		t.events = append(t.events, Event[B]{Seq: seq, At: at, To: o.To, Body: o.Body})
		for i := range t.seats {
			if o.To.Sees(i) {
				t.seats[i].lastSeen = seq
			}
		}
	}
	for _, e := range notices {
		n := e.Notice
		to := Everyone
		if n.Kind == NoticeTimedOut {
			// Private: a public timeout in a claim window would tell the
			// other seats who had something to claim.
			to = Only(n.Seat)
		}
		t.events = append(t.events, Event[B]{Seq: uint64(len(t.events)) + 1, At: e.At, To: to, Notice: &n})
	}
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
	if len(outs) > 0 {
		t.epoch++
	}
}

// step applies an action, stores it and publishes its events. On error
// nothing changed.
func (t *table[A, V, B]) step(actor int, a A) error {
	outs, err := t.game.Apply(a)
	if err != nil {
		return err
	}
	now := t.clk.Now()
	if err := t.commit(Entry[A]{At: now, Kind: EntryAction, Actor: actor, Action: a}); err != nil {
		t.rebuild()
		return err
	}
	t.actions = append(t.actions, a)
	t.publish(now, outs)
	return nil
}

// rebuild replays the accepted actions into a new game: after a refused
// write it undoes the action that the game had already applied.
func (t *table[A, V, B]) rebuild() {
	g, err := t.newGame()
	if err == nil {
		if t.state != Waiting {
			t.seed(g)
		}
		for i, a := range t.actions {
			if _, err = g.Apply(a); err != nil {
				err = fmt.Errorf("replay action %d: %w", i, err)
				break
			}
		}
	}
	if err != nil {
		// Cannot happen with a deterministic game; if it does, the table
		// keeps the game as it is rather than lose it.
		t.log.Error("rebuild game", zap.Error(err))
		return
	}
	t.game = g
}

func (t *table[A, V, B]) join(name string, entropy []byte) (int, string, error) {
	if len(entropy) > maxEntropy {
		return 0, "", fmt.Errorf("%d bytes of entropy, at most %d: %w", len(entropy), maxEntropy, ErrBadRequest)
	}
	if t.state != Waiting {
		return 0, "", ErrAlreadyStarted
	}
	s := slices.IndexFunc(t.seats, func(s seat[A, V]) bool { return !s.taken })
	if s < 0 {
		return 0, "", ErrTableFull
	}
	token, hash, err := newToken()
	if err != nil {
		return 0, "", err
	}
	e := t.notice(NoticeJoined, s)
	e.Notice.Name = name
	e.TokenHash = hash
	e.Entropy = slices.Clone(entropy)
	if err := t.commit(e); err != nil {
		return 0, "", err
	}
	st := &t.seats[s]
	st.taken, st.name, st.hash, st.entropy = true, name, hash, e.Entropy
	st.revoked = make(chan struct{})
	t.publish(e.At, nil, e)
	t.log.Info("seat joined", zap.Int("seat", s), zap.String("name", name))
	if !slices.ContainsFunc(t.seats, func(s seat[A, V]) bool { return !s.taken }) {
		if err := t.start(); err != nil {
			// The seat is taken; the start can be retried with StartTable.
			t.log.Warn("auto start", zap.Error(err))
		}
	}
	return s, token, nil
}

func (t *table[A, V, B]) leave(token string) error {
	s, err := t.seatOf(token)
	if err != nil {
		return err
	}
	st := &t.seats[s]
	switch t.state {
	case Waiting:
		e := t.notice(NoticeLeft, s)
		if err := t.commit(e); err != nil {
			return err
		}
		close(st.revoked)
		// Streams of the old player still count until they end.
		t.seats[s] = seat[A, V]{bucket: st.bucket, dedupe: map[string]answer[A]{}, conns: st.conns}
		t.publish(e.At, nil, e)
	case Playing:
		left := t.notice(NoticeLeft, s)
		bot := t.notice(NoticeBotTookOver, s)
		if err := t.commit(left, bot); err != nil {
			return err
		}
		st.left, st.hash = true, [32]byte{}
		close(st.revoked)
		t.stopGrace(s)
		t.botOn(s)
		t.publish(left.At, nil, left, bot)
		t.settle()
	case Finished:
		return ErrGameOver
	}
	t.log.Info("seat left", zap.Int("seat", s))
	return nil
}

func (t *table[A, V, B]) startBy(token string) error {
	if token == "" {
		return ErrMissingToken
	}
	h := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(h[:], t.rec.OwnerHash[:]) != 1 {
		if _, err := t.seatOf(token); err != nil {
			return err
		}
	}
	if t.state != Waiting {
		return ErrAlreadyStarted
	}
	return t.start()
}

// start begins the game: bots take the empty seats and the first system
// step (the deal) follows at once.
func (t *table[A, V, B]) start() error {
	entries := []Entry[A]{t.notice(NoticeStarted, -1)}
	for i, s := range t.seats {
		if !s.taken {
			if !t.set.FillWithBots {
				return ErrSeatsEmpty
			}
			entries = append(entries, t.notice(NoticeBotTookOver, i))
		}
	}
	if err := t.commit(entries...); err != nil {
		return err
	}
	t.state = Playing
	t.seed(t.game)
	for i := range t.seats {
		if !t.seats[i].taken {
			t.botOn(i)
		} else if t.seats[i].conns == 0 {
			t.armGrace(i)
		}
	}
	t.publish(entries[0].At, nil, entries...)
	t.log.Info("table started")
	t.settle()
	return nil
}

func (t *table[A, V, B]) botOn(s int) {
	t.seats[s].botOn = true
	if t.h.cfg.Bot != nil {
		t.seats[s].bot = t.h.cfg.Bot()
	}
}

// act runs a seat's request: authentication, rate limit, dedupe, then the
// action itself.
func (t *table[A, V, B]) act(r Request[A]) (uint64, error) {
	s, err := t.seatOf(r.Token)
	if err != nil {
		return 0, err
	}
	st := &t.seats[s]
	if !st.bucket.Allow(t.clk.Now()) {
		return 0, fmt.Errorf("seat %d: %w", s, ErrRateLimited)
	}
	if r.RequestID == "" {
		return 0, fmt.Errorf("empty request id: %w", ErrBadRequest)
	}
	if prev, ok := st.dedupe[r.RequestID]; ok {
		if prev.action != r.Action {
			return 0, fmt.Errorf("request id %q: %w", r.RequestID, ErrRequestIDReused)
		}
		return prev.seq, prev.err
	}
	seq, err := t.tryAct(s, r)
	if !errors.Is(err, ErrUnavailable) {
		t.remember(s, r, seq, err)
	}
	return seq, err
}

func (t *table[A, V, B]) remember(s int, r Request[A], seq uint64, err error) {
	st := &t.seats[s]
	if len(st.order) >= t.h.cfg.DedupeWindow {
		delete(st.dedupe, st.order[0])
		st.order = st.order[1:]
	}
	st.dedupe[r.RequestID] = answer[A]{action: r.Action, seq: seq, err: err}
	st.order = append(st.order, r.RequestID)
}

func (t *table[A, V, B]) tryAct(s int, r Request[A]) (uint64, error) {
	switch t.state {
	case Waiting:
		return 0, ErrNotStarted
	case Finished:
		return 0, ErrGameOver
	}
	head := t.head()
	if r.LastSeq > head {
		return 0, fmt.Errorf("last seq %d, newest %d: %w", r.LastSeq, head, ErrSeqAhead)
	}
	if newest := t.seats[s].lastSeen; r.LastSeq < newest {
		return 0, &StaleSeqError{Last: r.LastSeq, Newest: newest}
	}
	if t.seats[s].botOn {
		// The player is back (it acts without a stream, or before its
		// stream reconnected).
		if err := t.playerReturned(s); err != nil {
			return 0, err
		}
	}
	if err := t.step(s, r.Action); err != nil {
		return 0, fmt.Errorf("seat %d: %w", s, err)
	}
	t.settle()
	return t.head(), nil
}

// settle plays what needs no player - system steps and bot moves - then
// arms the timer for what the game waits for.
func (t *table[A, V, B]) settle() {
	for range 100000 {
		if t.game.Over() {
			t.finish()
			return
		}
		p := t.game.Pending()
		if p.Kind == WaitSystem && (t.set.RoundPause == 0 || len(t.actions) == 0) {
			if err := t.step(System, t.game.Default(System)); err != nil {
				t.retryLater(err)
				return
			}
			continue
		}
		if s := slices.IndexFunc(p.Seats, func(s int) bool { return t.seats[s].botOn }); s >= 0 {
			if err := t.botMove(p.Seats[s]); err != nil {
				t.retryLater(err)
				return
			}
			continue
		}
		t.arm(p)
		return
	}
	t.log.Error("settle: game does not wait for anyone after 100000 automatic steps")
}

func (t *table[A, V, B]) botMove(s int) error {
	var err error
	if b := t.seats[s].bot; b != nil {
		var a A
		if a, err = b.Act(s, t.game.View(s)); err == nil {
			if err = t.step(s, a); err == nil {
				return nil
			}
		}
		if errors.Is(err, ErrUnavailable) {
			return err
		}
		t.log.Warn("bot move refused, playing the default", zap.Int("seat", s), zap.Error(err))
	}
	if err = t.step(s, t.game.Default(s)); err != nil {
		return fmt.Errorf("default move of seat %d: %w", s, err)
	}
	return nil
}

// retryLater schedules another settle after a step that no client waits for
// failed.
func (t *table[A, V, B]) retryLater(err error) {
	t.log.Error("automatic step", zap.Error(err))
	t.stopTimer()
	gen := t.timerGen
	t.timer = t.clk.AfterFunc(retryDelay, func() {
		t.post(func() {
			if gen == t.timerGen {
				t.timer = nil
				t.settle()
			}
		})
	})
}

// arm starts the timer for what the game waits for, unless the same wait
// already has one: answers that publish nothing (a pass in a claim window)
// do not restart the clock.
func (t *table[A, V, B]) arm(p Pending) {
	key := waitKey{kind: p.Kind, epoch: t.epoch, armed: true}
	if key == t.timerKey {
		return
	}
	t.stopTimer()
	var d time.Duration
	switch p.Kind {
	case WaitTurn:
		d = t.set.TurnTime
	case WaitClaim:
		d = t.set.ClaimTime
	case WaitSystem:
		d = t.set.RoundPause
	}
	if d <= 0 {
		return
	}
	t.timerKey = key
	gen := t.timerGen
	t.timer = t.clk.AfterFunc(d, func() { t.post(func() { t.expire(gen) }) })
}

func (t *table[A, V, B]) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.timerGen++
	t.timerKey = waitKey{}
}

// expire plays the default action of every seat the game still waits for.
func (t *table[A, V, B]) expire(gen uint64) {
	if gen != t.timerGen || t.state != Playing {
		return
	}
	t.timer, t.timerKey = nil, waitKey{}
	p, epoch := t.game.Pending(), t.epoch
	if p.Kind == WaitSystem {
		if err := t.step(System, t.game.Default(System)); err != nil {
			t.retryLater(err)
			return
		}
	}
	for _, s := range p.Seats {
		if t.epoch != epoch || !slices.Contains(t.game.Pending().Seats, s) {
			continue
		}
		if err := t.step(s, t.game.Default(s)); err != nil {
			t.retryLater(err)
			return
		}
		e := t.notice(NoticeTimedOut, s)
		if err := t.commit(e); err != nil {
			t.log.Error("store timeout notice", zap.Error(err))
		} else {
			t.publish(e.At, nil, e)
		}
		t.log.Info("seat timed out", zap.Int("seat", s), zap.Stringer("wait", p.Kind))
	}
	t.settle()
}

func (t *table[A, V, B]) finish() {
	t.state = Finished
	t.stopTimer()
	for i := range t.seats {
		t.stopGrace(i)
	}
	t.mu.Lock()
	t.done = true
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
	t.log.Info("game over", zap.Uint64("events", t.head()))
}

// streamOpened and streamClosed track a seat's connection, which decides
// when a bot takes the seat over and hands it back.
func (t *table[A, V, B]) streamOpened(s int) error {
	st := &t.seats[s]
	st.conns++
	t.stopGrace(s)
	if st.botOn {
		return t.playerReturned(s)
	}
	return nil
}

func (t *table[A, V, B]) streamClosed(s int) {
	st := &t.seats[s]
	st.conns--
	if st.conns == 0 && t.state == Playing && !st.botOn && !st.left {
		t.armGrace(s)
	}
}

func (t *table[A, V, B]) playerReturned(s int) error {
	st := &t.seats[s]
	if !st.botOn || st.left || !st.taken || t.state != Playing {
		return nil
	}
	e := t.notice(NoticePlayerReturned, s)
	if err := t.commit(e); err != nil {
		return err
	}
	st.botOn, st.bot = false, nil
	t.publish(e.At, nil, e)
	t.log.Info("player returned", zap.Int("seat", s))
	t.settle()
	return nil
}

func (t *table[A, V, B]) armGrace(s int) {
	t.stopGrace(s)
	if t.set.DisconnectGrace <= 0 {
		return
	}
	gen := t.seats[s].graceGen
	t.seats[s].grace = t.clk.AfterFunc(t.set.DisconnectGrace, func() {
		t.post(func() { t.graceExpired(s, gen) })
	})
}

func (t *table[A, V, B]) stopGrace(s int) {
	st := &t.seats[s]
	if st.grace != nil {
		st.grace.Stop()
		st.grace = nil
	}
	st.graceGen++
}

func (t *table[A, V, B]) graceExpired(s int, gen uint64) {
	st := &t.seats[s]
	if gen != st.graceGen || st.conns > 0 || st.botOn || t.state != Playing {
		return
	}
	st.grace = nil
	e := t.notice(NoticeBotTookOver, s)
	if err := t.commit(e); err != nil {
		t.log.Error("store bot takeover", zap.Error(err))
		t.armGrace(s)
		return
	}
	t.botOn(s)
	t.publish(e.At, nil, e)
	t.log.Info("bot took over a disconnected seat", zap.Int("seat", s))
	t.settle()
}
