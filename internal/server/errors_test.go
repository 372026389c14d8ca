package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

func TestToStatus(t *testing.T) {
	_, tileErr := tile.Parse("9q")
	for _, tc := range []struct {
		err    error
		code   codes.Code
		reason pb.ErrorReason
	}{
		{fmt.Errorf("action.tile: %w", tileErr), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{tileError("hand", "9q", tileErr), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_TILE},
		{fieldError("table_id", ErrMalformed), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST},
		{fmt.Errorf("table x: %w", host.ErrNotFound), codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND},
		{host.ErrMissingToken, codes.Unauthenticated, pb.ErrorReason_ERROR_REASON_MISSING_TOKEN},
		{host.ErrWrongToken, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{fmt.Errorf("seat 1: %w", fmt.Errorf("discard: %w", ErrNotYourTurn)), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
		{fmt.Errorf("pon: %w", ErrClaimClosed), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_CLAIM_WINDOW_CLOSED},
		{fmt.Errorf("chi: %w", ErrIllegal), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ILLEGAL_ACTION},
		{fieldError("settings.rule_set", ErrUnknownRuleSet), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_UNKNOWN_RULE_SET},
		{fieldError("settings.sichuan.fan_cap", ErrBadOption), codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_BAD_RULE_OPTION},
		{fmt.Errorf("seat 2: %w", &host.StaleSeqError{Last: 3, Newest: 5}), codes.Aborted, pb.ErrorReason_ERROR_REASON_STALE_SEQ},
		{host.ErrSeqAhead, codes.OutOfRange, pb.ErrorReason_ERROR_REASON_SEQ_AHEAD},
		{fmt.Errorf("seat 0: %w", host.ErrRateLimited), codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED},
		{ErrRateLimited, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED},
		{host.ErrRequestIDReused, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_REQUEST_ID_REUSED},
		{host.ErrTableFull, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_TABLE_FULL},
		{host.ErrNotStarted, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_STARTED},
		{host.ErrAlreadyStarted, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_ALREADY_STARTED},
		{host.ErrSeatsEmpty, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_SEATS_EMPTY},
		{host.ErrGameOver, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_GAME_OVER},
		{fmt.Errorf("%w: store: disk full", host.ErrUnavailable), codes.Unavailable, pb.ErrorReason_ERROR_REASON_STORAGE_UNAVAILABLE},
		{host.ErrClosed, codes.Unavailable, pb.ErrorReason_ERROR_REASON_UNAVAILABLE},
		{&host.ReleasedError{ID: "x", Err: host.ErrFenced}, codes.Unavailable, pb.ErrorReason_ERROR_REASON_UNAVAILABLE},
		{&ElsewhereError{Addr: "10.0.0.2:7400"}, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE},
		{fmt.Errorf("seat 1: %w", host.ErrWindowOpen), codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_NOT_YOUR_TURN},
		{host.ErrTooManyStreams, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_STREAMS},
		{host.ErrTooManyTables, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_TOO_MANY_TABLES},
		{context.Canceled, codes.Canceled, pb.ErrorReason_ERROR_REASON_UNSPECIFIED},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), codes.DeadlineExceeded, pb.ErrorReason_ERROR_REASON_UNSPECIFIED},
		{errors.New("surprise"), codes.Internal, pb.ErrorReason_ERROR_REASON_UNSPECIFIED},
	} {
		got := toStatus(tc.err)
		if status.Code(got) != tc.code || Reason(got) != tc.reason {
			t.Errorf("toStatus(%v) = %v %v, want %v %v", tc.err, status.Code(got), Reason(got), tc.code, tc.reason)
		}
	}
	if toStatus(nil) != nil {
		t.Error("toStatus(nil) != nil")
	}
	already := status.Error(codes.NotFound, "x")
	if toStatus(already) != already {
		t.Error("toStatus changed a status error")
	}
}

// TestErrorDetails checks what an error tells a client beyond its reason:
// the numbers of ErrorInfo.metadata, RetryInfo on rate limits, and a
// message without Go package prefixes.
func TestErrorDetails(t *testing.T) {
	_, tileErr := tile.Parse("9q")
	for _, tc := range []struct {
		name  string
		err   error
		meta  map[string]string
		retry time.Duration // 0: no RetryInfo
		msg   string
	}{
		{"stale seq", fmt.Errorf("seat 2: %w", &host.StaleSeqError{Last: 3, Newest: 5}),
			map[string]string{MetaNewestSeq: "5"}, 0,
			"seat 2: stale sequence number: the request saw event 3, the seat's newest is 5"},
		{"seq ahead", fmt.Errorf("last seq: %w", &host.SeqAheadError{Seq: 9, Newest: 7}),
			map[string]string{MetaNewestSeq: "7"}, 0, "last seq: sequence number 9 is past the newest event, 7"},
		{"refused by a table", &host.StateError{State: host.Waiting, Err: host.ErrNotStarted},
			map[string]string{MetaTableState: "TABLE_STATE_WAITING"}, 0, "table not started"},
		{"game over", &host.StateError{State: host.Finished, Err: fmt.Errorf("seat 1: discard: %w: %w", host.ErrGameOver, table.ErrGameOver)},
			map[string]string{MetaTableState: "TABLE_STATE_FINISHED"}, 0, "seat 1: discard: game over: game over"},
		{"seat rate limit", &host.StateError{State: host.Playing, Err: fmt.Errorf("seat 0: %w", &host.RateLimitedError{Wait: 1500*time.Microsecond + 1})},
			map[string]string{MetaTableState: "TABLE_STATE_PLAYING", MetaRetryAfterMS: "2"}, 1500*time.Microsecond + 1,
			"seat 0: too many requests: retry in 1.500001ms"},
		{"connection rate limit", &connRateError{method: "/mahjong.authority.v1.TableService/Act", wait: 100 * time.Millisecond},
			map[string]string{MetaRetryAfterMS: "100"}, 100 * time.Millisecond,
			"/mahjong.authority.v1.TableService/Act: too many requests on this connection: retry in 100ms"},
		{"no such table", fmt.Errorf("table x: %w", host.ErrNotFound), nil, 0, "table x: no such table"},
		{"another node's table", &ElsewhereError{Addr: "10.0.0.2:7400"},
			map[string]string{MetaOwnerAddr: "10.0.0.2:7400"}, 0, "the table is owned by the node at 10.0.0.2:7400: call it there"},
		{"bad tile", fmt.Errorf("action.tile: %w", tileErr), nil, 0, "action.tile: " + strings.TrimPrefix(tileErr.Error(), "tile: ")},
		{"an engine's refusal", fmt.Errorf("open_kan: %w: not offered to this seat", ruleset.ErrIllegal),
			nil, 0, "open_kan: action not allowed now: not offered to this seat"},
		{"a word that ends like a package", errors.New("timetable: x"), nil, 0, "timetable: x"},
	} {
		st := status.Convert(toStatus(tc.err))
		var info *errdetails.ErrorInfo
		var retry *errdetails.RetryInfo
		for _, d := range st.Details() {
			switch d := d.(type) {
			case *errdetails.ErrorInfo:
				info = d
			case *errdetails.RetryInfo:
				retry = d
			}
		}
		if st.Code() != codes.Internal && info == nil {
			t.Errorf("%s: no ErrorInfo in %v", tc.name, st)
			continue
		}
		if got := info.GetMetadata(); !maps.Equal(got, tc.meta) {
			t.Errorf("%s: metadata %v, want %v", tc.name, got, tc.meta)
		}
		switch {
		case tc.retry == 0 && retry != nil:
			t.Errorf("%s: RetryInfo %v, want none", tc.name, retry)
		case tc.retry != 0 && retry.GetRetryDelay().AsDuration() != tc.retry:
			t.Errorf("%s: RetryInfo %v, want %v", tc.name, retry, tc.retry)
		}
		if st.Message() != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, st.Message(), tc.msg)
		}
	}
}
