package backend_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/backend"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheck(t *testing.T) {
	key, _ := backend.NewKey()
	other, _ := backend.NewKey()
	keys, err := backend.Load(writeFile(t, fmt.Sprintf(`{"keys":[{"name":"rooms","sha256":%q,"max_tables":3}]}`, backend.Hash(key))))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := keys.Check(key); err != nil || c.Name != "rooms" || c.MaxTables != 3 {
		t.Fatalf("Check(key) = %v, %v", c, err)
	}
	for _, tc := range []struct {
		key  string
		want error
	}{
		{"", backend.ErrMissingKey},
		{other, backend.ErrWrongKey},
		{"a-seat-token", backend.ErrNotRoomService},
		{key[:len(key)-1], backend.ErrWrongKey},
	} {
		if _, err := keys.Check(tc.key); !errors.Is(err, tc.want) {
			t.Errorf("Check(%.8s...) = %v, want %v", tc.key, err, tc.want)
		}
		if _, err := keys.Check(tc.key); err != nil && tc.key != "" && strings.Contains(err.Error(), tc.key) {
			t.Errorf("the error quotes the key: %v", err)
		}
	}
	var none *backend.Keys
	if none.Enabled() {
		t.Error("nil Keys are enabled")
	}
}

func TestLoadRefuses(t *testing.T) {
	h := backend.Hash("ak1_x")
	for name, body := range map[string]string{
		"not json":         `{`,
		"unknown field":    `{"keyz":[]}`,
		"short hash":       `{"keys":[{"name":"a","sha256":"abcd"}]}`,
		"no name":          fmt.Sprintf(`{"keys":[{"sha256":%q}]}`, h),
		"name twice":       fmt.Sprintf(`{"keys":[{"name":"a","sha256":%q},{"name":"a","sha256":%q}]}`, h, h),
		"negative limit":   fmt.Sprintf(`{"keys":[{"name":"a","sha256":%q,"max_tables":-1}]}`, h),
		"short secret":     `{"ticket_keys":[{"id":"k","hs256":"c2hvcnQ="}]}`,
		"both ticket keys": `{"ticket_keys":[{"id":"k","hs256":"x","ed25519_public":"y"}]}`,
		"no ticket key id": `{"ticket_keys":[{"hs256":"MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE="}]}`,
	} {
		if _, err := backend.Load(writeFile(t, body)); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

// TestReloadKeepsKeysOnError: a file that does not parse leaves the keys
// in force.
func TestReloadKeepsKeysOnError(t *testing.T) {
	key, _ := backend.NewKey()
	p := writeFile(t, fmt.Sprintf(`{"keys":[{"name":"a","sha256":%q}]}`, backend.Hash(key)))
	keys, err := backend.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("{"), 0o600)
	if err := keys.Reload(); err == nil {
		t.Fatal("Reload of a broken file succeeded")
	}
	if _, err := keys.Check(key); err != nil {
		t.Fatalf("after a failed reload: %v", err)
	}
}

func TestVerifyTicket(t *testing.T) {
	secret := make([]byte, 32)
	rand.Read(secret)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	keys, err := backend.Load(writeFile(t, fmt.Sprintf(`{"ticket_keys":[{"id":"h","hs256":%q},{"id":"e","ed25519_public":%q}]}`,
		base64.StdEncoding.EncodeToString(secret), base64.StdEncoding.EncodeToString(pub))))
	if err != nil {
		t.Fatal(err)
	}
	exp := time.Unix(2_000_000_000, 0)
	sign := func(kid string, key any) string {
		s, err := backend.SignTicket(kid, key, "t1", 2, "u9", "Nine", "j1", exp)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tk := range []string{sign("h", secret), sign("e", priv)} {
		c, err := keys.VerifyTicket(tk)
		if err != nil || c.TableID != "t1" || *c.Seat != 2 || c.Subject != "u9" || c.Name != "Nine" || c.ID != "j1" || !c.ExpiresAt.Time.Equal(exp) {
			t.Fatalf("VerifyTicket = %+v, %v", c, err)
		}
		if !backend.Signed(tk) {
			t.Fatal("a JWT is not Signed")
		}
	}
	// Rotated out: the file without key "h", read again.
	rotated := sign("h", secret)
	defer func() {
		os.WriteFile(keys.Path(), []byte(fmt.Sprintf(`{"ticket_keys":[{"id":"e","ed25519_public":%q}]}`, base64.StdEncoding.EncodeToString(pub))), 0o600)
		if err := keys.Reload(); err != nil {
			t.Fatal(err)
		}
		if _, err := keys.VerifyTicket(rotated); !errors.Is(err, backend.ErrTicketSignature) {
			t.Errorf("a ticket of a key rotated out: VerifyTicket = %v", err)
		}
		if _, err := keys.VerifyTicket(sign("e", priv)); err != nil {
			t.Errorf("the key that stays: %v", err)
		}
	}()
	for name, tk := range map[string]string{
		"unknown kid":       sign("x", secret),
		"wrong secret":      sign("h", []byte("0123456789abcdef0123456789abcdef")),
		"other ed25519 key": sign("e", otherPriv),
		"hs256 with ed kid": sign("e", secret),
		"garbage":           "a.b.c",
		"alg none":          "eyJhbGciOiJub25lIiwia2lkIjoiaCJ9.eyJ0aWQiOiJ0MSJ9.",
	} {
		if _, err := keys.VerifyTicket(tk); !errors.Is(err, backend.ErrTicketSignature) {
			t.Errorf("%s: VerifyTicket = %v, want ErrTicketSignature", name, err)
		}
	}
}

// Example shows what a room service does: mint a signed ticket for a
// player with a key the authority holds in its --backend-keys file.
func Example() {
	secret := []byte("0123456789abcdef0123456789abcdef") // from your secret store, base64 in the file's ticket_keys
	ticket, err := backend.SignTicket("2026-12", secret, "TABLE-ID", 0, "user-42", "Alice", "match-9-seat-0", time.Now().Add(10*time.Minute))
	if err != nil {
		panic(err)
	}
	fmt.Println(backend.Signed(ticket))
	// Output: true
}

// FuzzVerifyTicket: no input panics, and none verifies without the key.
func FuzzVerifyTicket(f *testing.F) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	keys, err := backend.Load(writeFileF(f, fmt.Sprintf(`{"ticket_keys":[{"id":"h","hs256":%q}]}`, base64.StdEncoding.EncodeToString(secret))))
	if err != nil {
		f.Fatal(err)
	}
	good, _ := backend.SignTicket("h", secret, "t", 0, "u", "n", "j", time.Unix(2e9, 0))
	f.Add(good)
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Fuzz(func(t *testing.T, s string) {
		// Only the seed was signed with the secret: whatever else
		// verifies must carry its claims (a re-encoding of it at most).
		c, err := keys.VerifyTicket(s)
		if err == nil && (c.TableID != "t" || c.Subject != "u" || c.ID != "j" || *c.Seat != 0) {
			t.Fatalf("%q verified with claims %+v", s, c)
		}
	})
}

func writeFileF(f *testing.F, body string) string {
	p := filepath.Join(f.TempDir(), "keys.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		f.Fatal(err)
	}
	return p
}
