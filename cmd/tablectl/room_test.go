package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// TestRoomCreateAndPlayTicket: a key from backend-key new opens the room
// service; room create prints a ticket; play --ticket plays its seat.
func TestRoomCreateAndPlayTicket(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"backend-key", "new"}, strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("backend-key new printed %q", out.String())
	}
	key := lines[0]
	var entry backend.FileKey
	if err := json.Unmarshal([]byte(lines[1]), &entry); err != nil {
		t.Fatal(err)
	}
	var hashed bytes.Buffer
	if err := run([]string{"backend-key", "hash"}, strings.NewReader(key+"\n"), &hashed, &hashed); err != nil || strings.TrimSpace(hashed.String()) != entry.SHA256 {
		t.Fatalf("backend-key hash = %q, %v; want %s", hashed.String(), err, entry.SHA256)
	}
	path := filepath.Join(t.TempDir(), "keys.json")
	raw, _ := json.Marshal(backend.File{Keys: []backend.FileKey{entry}})
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := backend.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := servertest.Riichi()
	cfg.Keys = keys
	addr := servertest.Start(t, cfg).Addr

	out.Reset()
	err = run([]string{"room", "create", "--addr", addr, "--player", "u1:Ann", "--bots", "--rules", "tonpuu"}, strings.NewReader(""), &out, &out)
	if err == nil || !strings.Contains(out.String()+err.Error(), "MISSING_API_KEY") {
		t.Fatalf("room create without a key = %v: %s", err, out.String())
	}
	out.Reset()
	if err := run([]string{"room", "create", "--addr", addr, "--backend-key", key, "--player", "u1:Ann", "--bots", "--rules", "tonpuu"}, strings.NewReader(""), &out, &out); err != nil {
		t.Fatalf("room create: %v: %s", err, out.String())
	}
	var ticket string
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Split(l, "\t"); len(f) == 3 && f[0] == "seat 0" && f[1] == "u1" {
			ticket = f[2]
		}
	}
	if ticket == "" {
		t.Fatalf("no ticket for seat 0 in %q", out.String())
	}
	text, err := playWith(t, "play", "--addr", addr, "--ticket", ticket)
	if err != nil {
		t.Fatalf("play --ticket: %v\n%s", err, tail(text, 2000))
	}
	if !strings.Contains(text, "=== Game over ===") {
		t.Fatalf("play --ticket did not play to the end:\n%s", tail(text, 2000))
	}
	if strings.Contains(text, ticket) || strings.Contains(text, key) {
		t.Fatal("play printed the ticket or the key")
	}
}
