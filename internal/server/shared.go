package server

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/mahjong-authority/authority/internal/ruleset"
)

// What the APIs of other games served beside this one (Dou Dizhu's,
// package internal/doudizhu/service) share with it: the request checks,
// their bounds, the one error mapping, and the hosting - clock, log,
// limits and the one count of open tables behind --max-tables.

// Request bounds, for every game's API.
const (
	MaxEntropy    = maxEntropy
	MaxTimer      = maxTimer
	MaxRoundPause = maxRoundPause
)

// ToStatus maps a domain error to its status code and ErrorInfo reason,
// as every RPC of this API does.
func ToStatus(err error) error { return toStatus(err) }

// CheckID checks a table or request id.
func CheckID(field, id string) error { return checkID(field, id) }

// CheckName checks a player's name.
func CheckName(name string) error { return checkName(name) }

// CheckToken bounds a token.
func CheckToken(field, tok string) error { return checkToken(field, tok) }

// FieldError says which request field is wrong.
func FieldError(field string, err error) error { return fieldError(field, err) }

// Duration reads an optional duration of a request, bounded by max; zero
// takes def.
func Duration(field string, d *durationpb.Duration, def, max time.Duration) (time.Duration, error) {
	return duration(field, d, def, max)
}

// RandomSeed draws a table seed.
func RandomSeed() ([32]byte, error) { return randomSeed() }

// Hosting is what the server's rule sets share - clock, log, rate and
// stream limits, lifetimes, and the count of open tables - for a game
// hosted beside them, so that --max-tables bounds its tables too.
func (s *Server) Hosting() ruleset.Hosting { return s.hs }

// Defaults are the server's timer defaults.
func (s *Server) Defaults() Defaults { return s.cfg.Defaults }
