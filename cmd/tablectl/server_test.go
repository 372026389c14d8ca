package main

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// asCommand, set in a test's environment, makes the test binary run as
// tablectl itself: for a command that starts itself again (floor).
const asCommand = "TABLECTL_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

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
