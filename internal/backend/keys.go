// Package backend authenticates the room service, the backend of a
// platform that runs the authority behind its own accounts and
// matchmaking (docs/rooms.md). The room service sends an API key as call
// metadata (x-api-key); the server holds the keys' SHA-256 hashes in a
// file (--backend-keys) that it reads again on SIGHUP. The same file
// holds the keys that verify the join tickets the room service signs
// itself (tickets.go). Without a file the server is open: every caller
// may do what the room service does.
package backend

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// KeyPrefix starts every API key, so that a key is told from a player's
// credential (a seat token, an owner token, a ticket) at a glance.
const KeyPrefix = "ak1_"

// The errors of authentication.
var (
	ErrMissingKey     = errors.New("the call needs the room service's API key (metadata x-api-key)")
	ErrWrongKey       = errors.New("API key not known")
	ErrNotRoomService = errors.New("a player's credential cannot make a room-service call")
)

// File is the keys file, JSON:
//
//	{
//	  "keys": [{"name": "rooms-eu", "sha256": "<hex of SHA-256 of the key>", "max_tables": 500}],
//	  "ticket_keys": [
//	    {"id": "2026-12", "hs256": "<base64 of 32 or more random bytes>"},
//	    {"id": "2027-01", "ed25519_public": "<base64 of the 32-byte public key>"}
//	  ]
//	}
//
// max_tables bounds the tables not finished that the key created (0: no
// bound beyond the server's). A ticket key verifies tickets whose JWT
// header names its id (kid); taking a key out of the file rotates it out.
type File struct {
	Keys       []FileKey       `json:"keys"`
	TicketKeys []FileTicketKey `json:"ticket_keys"`
}

// FileKey is one API key of the file.
type FileKey struct {
	Name      string `json:"name"`
	SHA256    string `json:"sha256"`
	MaxTables int    `json:"max_tables"`
}

// FileTicketKey is one ticket key of the file: an HMAC secret or an
// Ed25519 public key.
type FileTicketKey struct {
	ID            string `json:"id"`
	HS256         string `json:"hs256,omitempty"`
	Ed25519Public string `json:"ed25519_public,omitempty"`
}

// Caller is an authenticated room service.
type Caller struct {
	Name      string // the key's name, for logs and limits; never the key
	MaxTables int
}

type key struct {
	hash   [32]byte
	caller Caller
}

// keySet is one reading of the file.
type keySet struct {
	keys    []key
	tickets map[string]any // kid -> []byte (HS256) or ed25519.PublicKey
}

// Keys are the keys the server holds. The zero value (and nil) holds no
// key file: the server is open.
type Keys struct {
	path string
	cur  atomic.Pointer[keySet]
}

// Load reads a keys file; Reload reads it again.
func Load(path string) (*Keys, error) {
	k := &Keys{path: path}
	if err := k.Reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// Reload reads the file again and swaps the keys at once; on an error the
// keys in force stay.
func (k *Keys) Reload() error {
	raw, err := os.ReadFile(k.path)
	if err != nil {
		return fmt.Errorf("backend keys: %w", err)
	}
	set, err := parse(raw)
	if err != nil {
		return fmt.Errorf("backend keys %s: %w", k.path, err)
	}
	k.cur.Store(set)
	return nil
}

func parse(raw []byte) (*keySet, error) {
	var f File
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	set := &keySet{tickets: map[string]any{}}
	names := map[string]bool{}
	for i, fk := range f.Keys {
		h, err := hex.DecodeString(fk.SHA256)
		if err != nil || len(h) != 32 {
			return nil, fmt.Errorf("keys[%d]: sha256: want 64 hex digits", i)
		}
		if fk.Name == "" || names[fk.Name] {
			return nil, fmt.Errorf("keys[%d]: name empty or twice", i)
		}
		if fk.MaxTables < 0 {
			return nil, fmt.Errorf("keys[%d]: max_tables %d", i, fk.MaxTables)
		}
		names[fk.Name] = true
		k := key{caller: Caller{Name: fk.Name, MaxTables: fk.MaxTables}}
		copy(k.hash[:], h)
		set.keys = append(set.keys, k)
	}
	for i, tk := range f.TicketKeys {
		if tk.ID == "" || set.tickets[tk.ID] != nil {
			return nil, fmt.Errorf("ticket_keys[%d]: id empty or twice", i)
		}
		switch {
		case tk.HS256 != "" && tk.Ed25519Public == "":
			b, err := base64.StdEncoding.DecodeString(tk.HS256)
			if err != nil || len(b) < 32 {
				return nil, fmt.Errorf("ticket_keys[%d]: hs256: want base64 of 32 bytes or more", i)
			}
			set.tickets[tk.ID] = b
		case tk.Ed25519Public != "" && tk.HS256 == "":
			b, err := base64.StdEncoding.DecodeString(tk.Ed25519Public)
			if err != nil || len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("ticket_keys[%d]: ed25519_public: want base64 of 32 bytes", i)
			}
			set.tickets[tk.ID] = ed25519.PublicKey(b)
		default:
			return nil, fmt.Errorf("ticket_keys[%d]: want one of hs256 and ed25519_public", i)
		}
	}
	return set, nil
}

// Path is the keys file.
func (k *Keys) Path() string { return k.path }

// Enabled reports whether the server holds keys: room-service calls then
// need one.
func (k *Keys) Enabled() bool { return k != nil && k.cur.Load() != nil }

// Check finds the caller of an API key. It compares the key's hash with
// every key's in constant time.
func (k *Keys) Check(apiKey string) (Caller, error) {
	if apiKey == "" {
		return Caller{}, ErrMissingKey
	}
	if !strings.HasPrefix(apiKey, KeyPrefix) {
		return Caller{}, ErrNotRoomService
	}
	set := k.cur.Load()
	if set == nil {
		return Caller{}, ErrWrongKey
	}
	h := sha256.Sum256([]byte(apiKey))
	found := -1
	for i := range set.keys {
		if subtle.ConstantTimeCompare(h[:], set.keys[i].hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return Caller{}, ErrWrongKey
	}
	return set.keys[found].caller, nil
}

// Hash is a key's line in the file: the hex SHA-256 of the key. API keys
// are 32 random bytes, so a plain hash is enough: there is nothing to
// guess.
func Hash(apiKey string) string {
	h := sha256.Sum256([]byte(apiKey))
	return hex.EncodeToString(h[:])
}

// NewKey returns a fresh API key.
func NewKey() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("new key: %w", err)
	}
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b[:]), nil
}
