package server

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ErrorDomain is the domain of every google.rpc.ErrorInfo this API sends.
const ErrorDomain = "authority.mahjong"

// The errors the adapter maps: the rule sets' (package ruleset) under the
// names they had here, and the adapter's own; the host's and the engine's
// pass through.
var (
	ErrMalformed      = ruleset.ErrMalformed
	ErrBadTile        = ruleset.ErrBadTile // "bad tile": the rule sets' wire forms say it too
	ErrNotYourTurn    = ruleset.ErrNotYourTurn
	ErrClaimClosed    = ruleset.ErrClaimClosed
	ErrIllegal        = ruleset.ErrIllegal
	ErrUnknownRuleSet = ruleset.ErrUnknownRuleSet
	ErrBadOption      = ruleset.ErrBadOption
	ErrRateLimited    = errors.New("too many requests on this connection")
	ErrTooManyStreams = errors.New("too many open streams on this connection")
	ErrEngineBroken   = errors.New("engine refused its own default action")
)

// fieldError says which request field is wrong.
func fieldError(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }

// tileError wraps a tile parse error so that it maps to BAD_TILE.
func tileError(field, s string, err error) error {
	return fmt.Errorf("%s %q: %w: %w", field, s, ErrBadTile, err)
}

// mapping is one row of the table that maps errors to statuses.
type mapping struct {
	target error
	code   codes.Code
	reason pb.ErrorReason
}

// mappings is the one place that decides the status of an error, first
// match wins. errors.Is sees through wrapping, so every layer may add
// context.
var mappings = []mapping{
	{backend.ErrMissingKey, codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_MISSING_API_KEY},
	{backend.ErrWrongKey, codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_WRONG_API_KEY},
	{backend.ErrNotRoomService, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_NOT_ROOM_SERVICE},
	{backend.ErrTicketSignature, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID},
	{ErrKeyTableLimit, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_KEY_TABLE_LIMIT},
	{ErrTicketWrongTable, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_WRONG_TABLE},
	{host.ErrTicketInvalid, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_INVALID},
	{host.ErrTicketUsed, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_USED},
	{host.ErrTicketExpired, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_TICKET_EXPIRED},
	{host.ErrSeatReserved, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEAT_RESERVED},
	{host.ErrSeatTaken, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEAT_TAKEN},
	{ErrBadTile, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
	{tile.ErrSyntax, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
	{ErrUnknownRuleSet, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_UNKNOWN_RULE_SET},
	{ErrBadOption, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
	{ErrMalformed, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	{host.ErrBadRequest, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
	{host.ErrRequestIDReused, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_REQUEST_ID_REUSED},
	{host.ErrEvicted, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_EVICTED},
	{host.ErrNotFound, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND},
	{host.ErrMissingToken, codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_MISSING_TOKEN},
	{host.ErrWrongToken, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
	{ErrNotYourTurn, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
	{host.ErrWindowOpen, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
	{ErrClaimClosed, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_CLAIM_WINDOW_CLOSED},
	{ErrIllegal, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ILLEGAL_ACTION},
	{host.ErrTableFull, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_TABLE_FULL},
	{host.ErrNotStarted, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_STARTED},
	{host.ErrAlreadyStarted, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ALREADY_STARTED},
	{host.ErrSeatsEmpty, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEATS_EMPTY},
	{host.ErrGameOver, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_GAME_OVER},
	{host.ErrStaleSeq, codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ},
	{host.ErrSeqAhead, codes.OutOfRange, pb.ErrorReason_ERROR_REASON_SEQ_AHEAD},
	{host.ErrRateLimited, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED},
	{ErrRateLimited, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED},
	{host.ErrTooManyStreams, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS},
	{ErrTooManyStreams, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS},
	{host.ErrTooManyTables, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_TABLES},
	{ErrElsewhere, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE},
	{host.ErrReleased, codes.Unavailable, pb.ErrorReason_ERROR_REASON_UNAVAILABLE},
	{host.ErrUnavailable, codes.Unavailable, pb.ErrorReason_ERROR_REASON_STORAGE_UNAVAILABLE},
	{host.ErrClosed, codes.Unavailable, pb.ErrorReason_ERROR_REASON_UNAVAILABLE},
	{host.ErrCorruptLog, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED},
}

// toStatus turns an error of the domain into a gRPC status error with a
// google.rpc.ErrorInfo detail. Context errors keep their own codes; an
// unknown error is Internal, without detail.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	for _, m := range mappings {
		if errors.Is(err, m.target) {
			return withReason(m.code, m.reason, err)
		}
	}
	return status.Error(codes.Internal, clientMessage(err.Error()))
}

// The keys of ErrorInfo.metadata: the numbers a client needs to go on
// without asking again.
const (
	// MetaNewestSeq is the seat's (or the spectators') newest seq, on
	// STALE_SEQ and SEQ_AHEAD: resume or act from there.
	MetaNewestSeq = "newest_seq"
	// MetaTableState is the table's state (a TableState name, such as
	// TABLE_STATE_PLAYING) when it refused a request: on every
	// FAILED_PRECONDITION, and on other refusals a table gave.
	MetaTableState = "table_state"
	// MetaRetryAfterMS is the delay before the same request is taken, in
	// whole milliseconds rounded up, on RATE_LIMITED; google.rpc.RetryInfo
	// carries it exactly.
	MetaRetryAfterMS = "retry_after_ms"
	// MetaOwnerAddr is the address of the node that owns the table, on
	// TABLE_ELSEWHERE: call it there.
	MetaOwnerAddr = "owner_addr"
)

func withReason(code codes.Code, reason pb.ErrorReason, err error) error {
	st := status.New(code, clientMessage(err.Error()))
	info := &errdetails.ErrorInfo{Reason: reason.String(), Domain: ErrorDomain, Metadata: metadata(err)}
	details := []protoadapt.MessageV1{info}
	if wait, ok := retryDelay(err); ok {
		details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(wait)})
	}
	if d, err := st.WithDetails(details...); err == nil {
		st = d
	}
	return st.Err()
}

// metadata collects the numbers an error carries for ErrorInfo.metadata.
func metadata(err error) map[string]string {
	md := map[string]string{}
	var stale *host.StaleSeqError
	var ahead *host.SeqAheadError
	switch {
	case errors.As(err, &stale):
		md[MetaNewestSeq] = strconv.FormatUint(stale.Newest, 10)
	case errors.As(err, &ahead):
		md[MetaNewestSeq] = strconv.FormatUint(ahead.Newest, 10)
	}
	var state *host.StateError
	if errors.As(err, &state) {
		md[MetaTableState] = pb.TableState(state.State).String()
	}
	var away *ElsewhereError
	if errors.As(err, &away) {
		md[MetaOwnerAddr] = away.Addr
	}
	if wait, ok := retryDelay(err); ok {
		md[MetaRetryAfterMS] = strconv.FormatInt(int64((wait+time.Millisecond-1)/time.Millisecond), 10)
	}
	if len(md) == 0 {
		return nil
	}
	return md
}

// retryDelay is how long a rate-limited request waits before it is taken.
func retryDelay(err error) (time.Duration, bool) {
	var rl *host.RateLimitedError
	if errors.As(err, &rl) {
		return rl.Wait, true
	}
	return 0, false
}

// ourPackages are the prefixes of the errors of this module's packages
// ("table: illegal action"): a status message is for clients, who know no
// Go package, so clientMessage leaves them out.
var ourPackages = []string{"table: ", "tile: ", "claims: ", "host: ", "judge: ", "wire: ", "wall: ", "store: "}

// clientMessage is an error's text without Go package prefixes.
func clientMessage(msg string) string {
	for _, p := range ourPackages {
		if !strings.Contains(msg, p) {
			continue
		}
		var b strings.Builder
		for rest := msg; ; {
			i := strings.Index(rest, p)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			if i == 0 || rest[i-1] == ' ' {
				b.WriteString(rest[:i]) // a prefix: left out
			} else {
				b.WriteString(rest[:i+len(p)]) // the end of a longer word
			}
			rest = rest[i+len(p):]
		}
		msg = b.String()
	}
	return msg
}

// Reason extracts the ErrorInfo reason of a status error ("" if none): what
// clients switch on.
func Reason(err error) pb.ErrorReason {
	st, ok := status.FromError(err)
	if !ok {
		return pb.ErrorReason_ERROR_REASON_UNSPECIFIED
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.Domain == ErrorDomain {
			return pb.ErrorReason(pb.ErrorReason_value[info.Reason])
		}
	}
	return pb.ErrorReason_ERROR_REASON_UNSPECIFIED
}

// ErrElsewhere is what every ElsewhereError matches.
var ErrElsewhere = errors.New("another node owns the table")

// ElsewhereError is a call for a table that another node of the cluster
// owns, which this node did not forward: forwarding is off, or the owner
// did not answer (Cause).
type ElsewhereError struct {
	Addr  string
	Cause error
}

func (e *ElsewhereError) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("the table is owned by the node at %s, which did not answer: call it there, or again", e.Addr)
	}
	return fmt.Sprintf("the table is owned by the node at %s: call it there", e.Addr)
}

// Is makes errors.Is(err, ErrElsewhere) hold.
func (e *ElsewhereError) Is(target error) bool { return target == ErrElsewhere }

// elsewhere is the status of a call the cluster did not forward.
func elsewhere(addr string, cause error) error {
	return toStatus(&ElsewhereError{Addr: addr, Cause: cause})
}
