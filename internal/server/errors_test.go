package server

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
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
