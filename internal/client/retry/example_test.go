package retry_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mahjong-authority/authority/internal/client/retry"
)

// A call is sent again while the server rate-limits it - after exactly
// the delay it gives - or is unreachable, with backoff.
func ExampleLoop_Resend() {
	attempts := 0
	act := func() error {
		if attempts++; attempts == 1 {
			return limited(10 * time.Millisecond) // RESOURCE_EXHAUSTED with a RetryInfo
		}
		return nil
	}
	throttled := 0
	l := retry.Loop{Backoff: retry.DefaultBackoff, OnThrottle: func() { throttled++ }}
	err := l.Resend(context.Background(), act)
	fmt.Println(err, attempts, throttled)
	// Output: <nil> 2 1
}
