package host

import (
	"errors"
	"fmt"
	"time"
)

// The host's errors. Every error a Host method returns wraps one of these
// or an error of the game, so that callers map them with errors.Is. Their
// texts reach clients as they are (in a status message), so they say what
// went wrong in the client's terms, without a Go package prefix.
var (
	ErrNotFound        = errors.New("no such table")
	ErrMissingToken    = errors.New("missing token")
	ErrWrongToken      = errors.New("token not valid for this table")
	ErrTableFull       = errors.New("every seat is taken")
	ErrNotStarted      = errors.New("table not started")
	ErrAlreadyStarted  = errors.New("table already started")
	ErrSeatsEmpty      = errors.New("seats are empty and the table does not fill them with bots")
	ErrGameOver        = errors.New("game over")
	ErrStaleSeq        = errors.New("stale sequence number")
	ErrSeqAhead        = errors.New("sequence number past the newest event")
	ErrRateLimited     = errors.New("too many requests")
	ErrRequestIDReused = errors.New("request id reused for another request")
	ErrBadRequest      = errors.New("malformed request")
	ErrUnavailable     = errors.New("storage unavailable")
	ErrClosed          = errors.New("server stopping")
	ErrWindowOpen      = errors.New("a claim window is open")
	ErrTooManyStreams  = errors.New("too many open streams for this seat")
	ErrTooManyTables   = errors.New("too many open tables")
	ErrCorruptLog      = errors.New("log does not replay")
)

// DamagedError is about a stored table that cannot be resumed: its log
// or snapshot does not decode, or does not replay. Recovery sets such a
// table aside, so that one damaged table keeps neither the server nor the
// other tables from starting, and every request that names it gets this
// error. It matches ErrCorruptLog.
type DamagedError struct {
	ID  string
	Err error
}

// Error leaves the cause out: it goes to every client that names the
// table, and the cause of a log that does not replay can quote the hidden
// state (a hand, a wall position). Recovery logs the cause for the
// operator; Unwrap gives it to the code.
func (e *DamagedError) Error() string {
	var p *PanicError
	if errors.As(e.Err, &p) {
		return fmt.Sprintf("table %s was set aside: its game failed", e.ID)
	}
	return fmt.Sprintf("table %s is damaged in the store and was not resumed", e.ID)
}

// Is makes errors.Is(err, ErrCorruptLog) hold.
func (e *DamagedError) Is(target error) bool { return target == ErrCorruptLog }

func (e *DamagedError) Unwrap() error { return e.Err }

// StaleSeqError is a refusal of an action decided on an old view: Newest
// is the seat's newest game event that changed what it may decide (in its
// own numbering; notices and Out.Simultaneous events do not), the request
// says it saw only Last.
type StaleSeqError struct {
	Last, Newest uint64
}

func (e *StaleSeqError) Error() string {
	return fmt.Sprintf("stale sequence number: the request saw event %d, the seat's newest is %d", e.Last, e.Newest)
}

// Is makes errors.Is(err, ErrStaleSeq) hold.
func (e *StaleSeqError) Is(target error) bool { return target == ErrStaleSeq }

// SeqAheadError is a request that names an event the viewer has not got:
// Seq (a last_seq or after_seq) is past Newest, the viewer's newest event.
type SeqAheadError struct {
	Seq, Newest uint64
}

func (e *SeqAheadError) Error() string {
	return fmt.Sprintf("sequence number %d is past the newest event, %d", e.Seq, e.Newest)
}

// Is makes errors.Is(err, ErrSeqAhead) hold.
func (e *SeqAheadError) Is(target error) bool { return target == ErrSeqAhead }

// RateLimitedError is a request refused by a rate limit: the same request
// is taken again after Wait.
type RateLimitedError struct {
	Wait time.Duration
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("too many requests: retry in %v", e.Wait)
}

// Is makes errors.Is(err, ErrRateLimited) hold.
func (e *RateLimitedError) Is(target error) bool { return target == ErrRateLimited }

// StateError is a refusal by a table, with the table's state when it
// refused, so that a client told "not started" or "game over" learns where
// the table is without asking again. Every error a table returns from
// Join, Leave, Start and Act is one; it reads as its Err.
type StateError struct {
	State State
	Err   error
}

func (e *StateError) Error() string { return e.Err.Error() }

func (e *StateError) Unwrap() error { return e.Err }

// PanicError is a panic of a call into a table, recovered: the table is
// set aside with a DamagedError that wraps it.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the stack of the goroutine that ran the call, at the panic
}

func (e *PanicError) Error() string { return fmt.Sprintf("its game panicked: %v", e.Value) }
