package backend

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Signed join tickets: the room service may mint a player's ticket itself,
// without a call to the authority, as a JWT signed with HS256 (a shared
// secret) or EdDSA (Ed25519; the authority holds only the public key).
// The header names the key (kid); the claims are
//
//	tid   the table id
//	seat  the seat (0-based)
//	sub   the room service's player id
//	name  the name shown to the other seats
//	jti   the ticket's id, unique: a ticket id is taken once per table
//	exp   when it expires (seconds since 1970)
//
// The authority checks the signature here, and the seat, the single use
// and the expiry with the table (package host, Pass).

// TicketClaims are a signed ticket's claims.
type TicketClaims struct {
	TableID string `json:"tid"`
	Seat    *int   `json:"seat"`
	Name    string `json:"name"`
	jwt.RegisteredClaims
}

// ErrTicketSignature is a signed ticket that does not verify: malformed,
// signed by a key the server does not hold (or no longer), or with
// claims missing.
var ErrTicketSignature = errors.New("ticket signature not valid")

// Signed reports whether a ticket looks like a JWT rather than one the
// server issued.
func Signed(ticket string) bool {
	return strings.Count(ticket, ".") == 2 && !strings.HasPrefix(ticket, "tkt1.")
}

// VerifyTicket checks a signed ticket's signature and returns its claims.
// It checks no time: the table does, with its own clock.
func (k *Keys) VerifyTicket(ticket string) (TicketClaims, error) {
	var c TicketClaims
	var set *keySet
	if k != nil {
		set = k.cur.Load()
	}
	if set == nil || len(set.tickets) == 0 {
		return c, fmt.Errorf("%w: the server holds no ticket keys", ErrTicketSignature)
	}
	_, err := jwt.ParseWithClaims(ticket, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		key := set.tickets[kid]
		switch key.(type) {
		case []byte:
			if t.Method != jwt.SigningMethodHS256 {
				return nil, errors.New("key is HS256")
			}
		case ed25519.PublicKey:
			if t.Method != jwt.SigningMethodEdDSA {
				return nil, errors.New("key is EdDSA")
			}
		default:
			return nil, errors.New("unknown key id")
		}
		return key, nil
	}, jwt.WithValidMethods([]string{"HS256", "EdDSA"}), jwt.WithoutClaimsValidation())
	if err != nil {
		// The library's text can quote the token's parts: leave it out.
		return TicketClaims{}, ErrTicketSignature
	}
	if c.TableID == "" || c.Seat == nil || c.Subject == "" || c.ID == "" || c.ExpiresAt == nil {
		return TicketClaims{}, fmt.Errorf("%w: tid, seat, sub, jti and exp are required", ErrTicketSignature)
	}
	return c, nil
}

// SignTicket mints a signed ticket with an HS256 secret or an Ed25519
// private key: what a room service does (tablectl and tests use it).
func SignTicket(kid string, key any, tableID string, seat int, playerID, name, id string, exp time.Time) (string, error) {
	c := TicketClaims{TableID: tableID, Seat: &seat, Name: name, RegisteredClaims: jwt.RegisteredClaims{
		Subject: playerID, ID: id, ExpiresAt: jwt.NewNumericDate(exp),
	}}
	var m jwt.SigningMethod
	switch key.(type) {
	case []byte:
		m = jwt.SigningMethodHS256
	case ed25519.PrivateKey:
		m = jwt.SigningMethodEdDSA
	default:
		return "", fmt.Errorf("sign ticket: key of type %T", key)
	}
	t := jwt.NewWithClaims(m, c)
	t.Header["kid"] = kid
	return t.SignedString(key)
}
