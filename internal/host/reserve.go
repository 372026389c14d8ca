package host

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"
)

// Reservations and passes: a room service that matches players reserves
// seats for them, and each player takes their seat with a pass - a join
// ticket the server checked. A reservation is seat data (a player id and
// a name), nothing of any game: the host keeps it in the table's log as a
// NoticeReserved entry, which is replayed like any notice but published to
// nobody. A reserved seat is taken only with a pass for it; Join passes it
// by.
//
// A pass is either opaque (the host issued it with Reserve: the seat's
// reservation holds its hash and expiry) or signed (the caller verified a
// token the room service minted, which reserves the seat as it takes it).
// Every pass has an id; the ids of the passes used are kept in the join
// notices, so that a pass is taken once, also after a restart.

// The errors of passes.
var (
	ErrSeatReserved  = errors.New("the seat is reserved; only its ticket takes it")
	ErrSeatTaken     = errors.New("the seat is taken")
	ErrTicketUsed    = errors.New("the ticket was used already")
	ErrTicketExpired = errors.New("the ticket expired")
	ErrTicketInvalid = errors.New("the ticket is not valid for this seat")
)

// reservation is a seat's reservation, while the table waits.
type reservation struct {
	on       bool
	playerID string
	name     string
	hash     [32]byte // of the opaque ticket; zero for one reserved by a signed pass
	expires  time.Time
}

// Reservation reserves a seat for a named player.
type Reservation struct {
	Seat     int
	PlayerID string
	Name     string
	// TicketHash is the SHA-256 of the seat's opaque ticket, Expires when
	// it expires.
	TicketHash [32]byte
	Expires    time.Time
}

// Pass is a checked join ticket.
type Pass struct {
	Seat int
	// ID names the ticket for its single use; it is stored, so it must
	// not be the ticket itself.
	ID string
	// Signed: the caller verified the ticket's signature, and PlayerID,
	// Name and Expires are what it says; the seat need not be reserved,
	// or reserved for the same player. Otherwise Hash is the SHA-256 of
	// the opaque ticket presented, checked against the reservation.
	Signed   bool
	Hash     [32]byte
	PlayerID string
	Name     string
	Expires  time.Time
}

// Reserve reserves a seat of a table that has not started (again: the new
// reservation replaces the old one, and its ticket the old ticket).
func (h *Host[A, V, B]) Reserve(ctx context.Context, id string, r Reservation) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) { return struct{}{}, t.refusal(t.reserve(r)) })
	return err
}

// JoinPass takes the seat of a pass and returns the seat's token. The
// table starts when the last seat is taken.
func (h *Host[A, V, B]) JoinPass(ctx context.Context, id string, p Pass, entropy []byte) (string, error) {
	return do(ctx, h, id, func(t *table[A, V, B]) (string, error) {
		tok, err := t.joinPass(p, entropy)
		return tok, t.refusal(err)
	})
}

// CloseWaiting closes a table that has not started: it leaves memory and
// the store at once, as an idle table would (EvictClosed).
func (h *Host[A, V, B]) CloseWaiting(ctx context.Context, id string) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) {
		if t.state != Waiting {
			if t.state == Finished {
				return struct{}{}, t.refusal(ErrGameOver)
			}
			return struct{}{}, t.refusal(ErrAlreadyStarted)
		}
		t.closing = true
		t.evict(t.evictGen)
		if !t.exit {
			t.closing = false
			return struct{}{}, fmt.Errorf("close table: %w", ErrUnavailable)
		}
		return struct{}{}, nil
	})
	return err
}

// Abandon ends the game of a table in play where it stands: a draw, for
// the room service (a match cancelled, a player banned). The table's log
// keeps a NoticeAbandoned, published to every viewer; the game's events
// held by a claim dwell are dropped, never shown; the table is finished
// (LifeAbandoned) and its record holds the rounds played to their end.
func (h *Host[A, V, B]) Abandon(ctx context.Context, id string) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) {
		switch t.state {
		case Waiting:
			return struct{}{}, t.refusal(ErrNotStarted)
		case Finished:
			return struct{}{}, t.refusal(ErrGameOver)
		}
		e := t.notice(NoticeAbandoned, -1)
		if err := t.commit(e); err != nil {
			return struct{}{}, t.refusal(err)
		}
		t.applyNotice(e)
		t.log.Info("table abandoned")
		t.settle()
		return struct{}{}, nil
	})
	return err
}

func (t *table[A, V, B]) applyAbandoned() {
	t.abandon = true
	if t.hold.on {
		t.stopDwell()
		close(t.hold.ends)
		t.hold = hold[B]{}
	}
}

func (t *table[A, V, B]) checkSeat(s int) error {
	if s < 0 || s >= len(t.seats) {
		return fmt.Errorf("seat %d of %d: %w", s, len(t.seats), ErrBadRequest)
	}
	if t.state != Waiting {
		return ErrAlreadyStarted
	}
	return nil
}

func (t *table[A, V, B]) reserve(r Reservation) error {
	if err := t.checkSeat(r.Seat); err != nil {
		return err
	}
	if len(r.Name) > maxName || len(r.PlayerID) > maxName {
		return fmt.Errorf("name or player id longer than %d bytes: %w", maxName, ErrBadRequest)
	}
	if t.seats[r.Seat].taken {
		return ErrSeatTaken
	}
	e := t.notice(NoticeReserved, r.Seat)
	e.Notice.Name, e.Notice.PlayerID = r.Name, r.PlayerID
	e.TokenHash, e.Expires = r.TicketHash, r.Expires
	if err := t.commit(e); err != nil {
		return err
	}
	t.applyNotice(e)
	t.armEvict() // a reservation is activity: the idle clock starts again
	return nil
}

func (t *table[A, V, B]) applyReserved(e Entry[A]) {
	st := &t.seats[e.Notice.Seat]
	st.resv = reservation{on: true, playerID: e.Notice.PlayerID, name: e.Notice.Name, hash: e.TokenHash, expires: e.Expires}
	if !st.taken {
		st.name, st.playerID = e.Notice.Name, e.Notice.PlayerID
	}
}

// spend remembers a used ticket id.
func (t *table[A, V, B]) spend(id string) {
	if id == "" {
		return
	}
	if t.spent == nil {
		t.spent = map[string]bool{}
	}
	t.spent[id] = true
}

func (t *table[A, V, B]) joinPass(p Pass, entropy []byte) (string, error) {
	if len(entropy) > maxEntropy {
		return "", fmt.Errorf("%d bytes of entropy, at most %d: %w", len(entropy), maxEntropy, ErrBadRequest)
	}
	if p.ID == "" || len(p.ID) > maxName || len(p.Name) > maxName || len(p.PlayerID) > maxName {
		return "", fmt.Errorf("pass id, name or player id empty or too long: %w", ErrBadRequest)
	}
	if err := t.checkSeat(p.Seat); err != nil {
		return "", err
	}
	if t.spent[p.ID] {
		return "", ErrTicketUsed
	}
	st := &t.seats[p.Seat]
	r := st.resv
	name, player, expires := p.Name, p.PlayerID, p.Expires
	if !p.Signed {
		if !r.on || r.hash == ([32]byte{}) || subtle.ConstantTimeCompare(p.Hash[:], r.hash[:]) != 1 {
			return "", ErrTicketInvalid
		}
		name, player, expires = r.name, r.playerID, r.expires
	} else if r.on && r.playerID != p.PlayerID {
		return "", ErrSeatReserved
	}
	if !t.clk.Now().Before(expires) {
		return "", ErrTicketExpired
	}
	if st.taken {
		return "", ErrSeatTaken
	}
	token, hash, err := newToken()
	if err != nil {
		return "", err
	}
	e := t.notice(NoticeJoined, p.Seat)
	e.Notice.Name, e.Notice.PlayerID = name, player
	e.TokenHash, e.TicketID = hash, p.ID
	e.Entropy = slices.Clone(entropy)
	if err := t.commit(e); err != nil {
		return "", err
	}
	t.applyNotice(e)
	t.log.Info("seat joined with a ticket", zap.Int("seat", p.Seat), zap.String("player", player))
	if t.full() {
		if err := t.start(); err != nil {
			t.log.Warn("auto start", zap.Error(err), zap.Duration("retry", startRetry))
		}
	}
	t.armEvict()
	return token, nil
}

// TicketHash is the hash of an opaque ticket that Reservation and Pass
// carry.
func TicketHash(ticket string) [32]byte { return sha256.Sum256([]byte(ticket)) }

// LifeKind is a step of a table's life that Config.Lifecycle hears of.
type LifeKind uint8

// The steps of a table's life.
const (
	LifeCreated   LifeKind = iota + 1
	LifeStarted            // the game began
	LifeFinished           // the game is over: Final is its last public game event
	LifeClosed             // it left before it started (CloseWaiting or IdleTTL)
	LifeDamaged            // recovery set it aside
	LifeAbandoned          // Abandon ended the game in play: a draw; Final is the last public game event
)

var lifeNames = [...]string{"", "created", "started", "finished", "closed", "damaged", "abandoned"}

func (k LifeKind) String() string {
	if int(k) < len(lifeNames) && k != 0 {
		return lifeNames[k]
	}
	return "invalid"
}

// Life is a step of a table's life. Info is the table then (the zero Info
// for LifeDamaged but its ID).
type Life[B any] struct {
	Kind     LifeKind
	At       time.Time
	Info     Info
	Final    B
	HasFinal bool
}

// life tells Config.Lifecycle, as the table's runner.
func (t *table[A, V, B]) life(k LifeKind) {
	f := t.h.cfg.Lifecycle
	if f == nil || t.ro {
		return
	}
	t.refresh()
	l := Life[B]{Kind: k, At: t.clk.Now(), Info: t.info()}
	if k == LifeFinished || k == LifeAbandoned {
		t.mu.RLock()
		for i := t.events.len() - 1; i >= 0; i-- {
			if e := t.events.at(i); e.notice == nil && e.to < 0 {
				l.Final, l.HasFinal = e.body, true
				break
			}
		}
		t.mu.RUnlock()
	}
	f(l)
}
