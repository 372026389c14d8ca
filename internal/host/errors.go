package host

import (
	"errors"
	"fmt"
)

// The host's errors. Every error a Host method returns wraps one of these
// or an error of the game, so that callers map them with errors.Is.
var (
	ErrNotFound        = errors.New("host: no such table")
	ErrMissingToken    = errors.New("host: missing token")
	ErrWrongToken      = errors.New("host: token not valid for this table")
	ErrTableFull       = errors.New("host: every seat is taken")
	ErrNotStarted      = errors.New("host: table not started")
	ErrAlreadyStarted  = errors.New("host: table already started")
	ErrSeatsEmpty      = errors.New("host: seats are empty and the table does not fill them with bots")
	ErrGameOver        = errors.New("host: game over")
	ErrStaleSeq        = errors.New("host: stale sequence number")
	ErrSeqAhead        = errors.New("host: sequence number past the newest event")
	ErrRateLimited     = errors.New("host: too many requests")
	ErrRequestIDReused = errors.New("host: request id reused for another request")
	ErrBadRequest      = errors.New("host: malformed request")
	ErrUnavailable     = errors.New("host: storage unavailable")
	ErrClosed          = errors.New("host: closed")
	ErrWindowOpen      = errors.New("host: a claim window is open")
	ErrTooManyStreams  = errors.New("host: too many open streams for this seat")
	ErrTooManyTables   = errors.New("host: too many open tables")
	ErrCorruptLog      = errors.New("host: log does not replay")
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
		return fmt.Sprintf("host: table %s was set aside: its game failed", e.ID)
	}
	return fmt.Sprintf("host: table %s is damaged in the store and was not resumed", e.ID)
}

// Is makes errors.Is(err, ErrCorruptLog) hold.
func (e *DamagedError) Is(target error) bool { return target == ErrCorruptLog }

func (e *DamagedError) Unwrap() error { return e.Err }

// StaleSeqError is a refusal of an action decided on an old view: the seat
// has seen events up to Newest (in its own numbering), the request says it
// saw only Last.
type StaleSeqError struct {
	Last, Newest uint64
}

func (e *StaleSeqError) Error() string {
	return fmt.Sprintf("host: stale sequence number: request saw %d, seat's newest event is %d", e.Last, e.Newest)
}

// Is makes errors.Is(err, ErrStaleSeq) hold.
func (e *StaleSeqError) Is(target error) bool { return target == ErrStaleSeq }

// PanicError is a panic of a table's goroutine, recovered: the table is
// set aside with a DamagedError that wraps it.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string { return fmt.Sprintf("its game panicked: %v", e.Value) }
