package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestGoRunStops runs the README's start command, `go run
// ./cmd/authority`, signals it as users and process managers do, and
// checks that the server process it started is gone and its port free:
// SIGTERM or SIGKILL to the go command alone (kill, a process manager, a
// container runtime), and SIGINT to the process group (Ctrl-C in a
// terminal).
func TestGoRunStops(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server with go run")
	}
	// Built once, so that each case only links from the cache.
	if out, err := exec.Command("go", "build", "-o", os.DevNull, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name  string
		sig   syscall.Signal
		group bool // to the process group, as a terminal sends Ctrl-C
	}{
		{"SIGTERM to go run", syscall.SIGTERM, false},
		{"SIGKILL to go run", syscall.SIGKILL, false},
		{"SIGINT to the group", syscall.SIGINT, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			cmd := exec.Command("go", "run", ".", "--listen", addr)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a group of its own, like a job of a shell
			var out syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			pgid := cmd.Process.Pid
			t.Cleanup(func() {
				syscall.Kill(-pgid, syscall.SIGKILL) // whatever is left of this case
				<-exited
			})

			// The server is the go command's child; it serves once it logs so.
			var server int
			deadline := time.Now().Add(2 * time.Minute)
			for server == 0 || !strings.Contains(out.String(), `"serving"`) {
				if time.Now().After(deadline) {
					t.Fatalf("the server did not start:\n%s", out.String())
				}
				select {
				case <-exited:
					t.Fatalf("go run exited:\n%s", out.String())
				case <-time.After(50 * time.Millisecond):
				}
				server = childOf(cmd.Process.Pid)
			}
			require.Contains(t, out.String(), "started by go run")

			target := cmd.Process.Pid
			if tc.group {
				target = -pgid
			}
			require.NoError(t, syscall.Kill(target, tc.sig))
			deadline = time.Now().Add(30 * time.Second)
			for alive(server) {
				if time.Now().After(deadline) {
					t.Fatalf("the server (pid %d) still runs 30s after %s:\n%s", server, tc.name, out.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			lis, err := net.Listen("tcp", addr)
			require.NoError(t, err, "the port is still taken")
			lis.Close()
			// Wait returns once every writer of the output pipe (the
			// server too) has closed it: only then is all it logged read.
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				t.Fatal("go run did not exit")
			}
			require.Contains(t, out.String(), `"stopped"`, "a graceful stop")
		})
	}
}

// freeAddr returns an address of 127.0.0.1 with a port free now.
func freeAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer lis.Close()
	return lis.Addr().String()
}

// childOf returns a child process of pid (0 if none), from /proc.
func childOf(pid int) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := stat(p); ok && st.ppid == pid {
			return p
		}
	}
	return 0
}

type procStat struct {
	state byte
	ppid  int
}

// stat reads the state and parent of a process from /proc/PID/stat.
func stat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return procStat{state: f[0][0], ppid: ppid}, true
}

// alive reports whether a process runs (a zombie waiting to be reaped
// does not).
func alive(pid int) bool {
	st, ok := stat(pid)
	return ok && st.state != 'Z' && st.state != 'X'
}

// syncBuffer is a bytes.Buffer safe for the writes of a process and the
// reads of a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
