package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestHelpOnce: every command's --help prints its usage once, and is a
// usage error.
func TestHelpOnce(t *testing.T) {
	for _, c := range []string{"judge", "replay", "play", "watch", "bots", "export", "verify", "room", "backend-key"} {
		var out, errOut bytes.Buffer
		err := run([]string{c, "--help"}, strings.NewReader(""), &out, &errOut)
		if !errors.Is(err, errUsage) {
			t.Errorf("%s --help = %v, want errUsage", c, err)
		}
		if n := strings.Count(strings.ToLower(errOut.String()), "usage:"); n != 1 {
			t.Errorf("%s --help printed its usage %d times:\n%s", c, n, errOut.String())
		}
	}
}
