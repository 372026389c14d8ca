// Package ruleset is the seam between the gRPC adapter (package server)
// and the games it hosts. A rule set - riichi, Sichuan, ... - is a sibling
// package under this one that brings its engine adapter, its wire form,
// its store codec, its record and its bot, and offers them to the server
// as a RuleSet: the server checks requests, calls a rule set's Tables and
// maps errors, and never sees a game's own types.
//
// Each rule set runs its tables on a host of its own (package host),
// instantiated with the rule set's action, view and event types, so that
// the engines, the walls and the store codecs of one rule set are exactly
// what they would be if it were the only one: riichi's hot path and its
// stored bytes do not change when another rule set is compiled in. The
// server sees all tables at once by asking every rule set's Tables
// (ListTables merges their pages, a table id goes to the host that holds
// it), and the hosts share one count of open tables (host.Count), so
// MaxTables bounds the whole server. Hosted turns a host and a rule set's
// Parts into Tables, so a rule set writes no hosting code.
//
// Rule sets are wired explicitly: cmd/authority hands the server the list
// of the rule sets it is built with; there is no registry.
package ruleset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// RuleSet is a rule set as the server hosts it.
type RuleSet interface {
	// ID is the rule set's value of TableSettings.rule_set.
	ID() pb.RuleSet
	// Check validates the rule set's part of a table's settings - the
	// preset (rules) and the options - and completes it in place: the
	// preset and every option set to what the table plays, so that the
	// settings stored with the table say all of it. Errors wrap
	// ErrBadOption (or ErrMalformed for a value that is not in the API).
	// Check of completed settings changes nothing.
	Check(set *pb.TableSettings) error
	// Open starts hosting the rule set's tables; the server calls it once
	// per Server, in server.New.
	Open(h Hosting) (Tables, error)
}

// Hosting is what every rule set's host shares: the server's clock, log,
// limits and lifetimes (see host.Config for each).
type Hosting struct {
	Clock                           clock.Clock
	Log                             *zap.Logger
	SeatRate                        host.Rate
	MaxTables                       int
	Count                           *host.Count // the open tables of all rule sets
	MaxSeatStreams                  int
	FinishedTTL, IdleTTL, KeepGames time.Duration
	Observer                        Observer // default none
	// Lifecycle, when set, hears of each step of every table's life
	// (host.Config.Lifecycle), with the game's last event converted.
	Lifecycle func(Life)
	// Owner, in a cluster (package cluster), returns the lease keeper of
	// a rule set's host (host.Config.Owner), named by the rule set's
	// name, and learns the Adopter that takes the rule set's tables over
	// on this node. Nil outside a cluster.
	Owner func(ruleSet string, a Adopter) host.Owner
}

// Adopter is a host as a cluster sees it: it takes a table over from the
// shared store (host.Host.Adopt) and gives one up (host.Host.Release).
type Adopter interface {
	Adopt(ctx context.Context, id string) error
	Release(id string, why error) bool
}

// Life is a step of a table's life (host.Life) in the API's terms: Final
// is the game's last public event when the game is over (its GameEnded
// for riichi), nil otherwise.
type Life struct {
	Kind  host.LifeKind
	At    time.Time
	Info  host.Info
	Final *pb.Event
}

// Observer is told what the rule sets' hosts and game adapters do, for an
// operator's metrics (package metrics implements it): the host's hooks,
// and what only an adapter knows. Like the host's, its methods run on
// the hot path: quick, safe for concurrent use, without allocation.
type Observer interface {
	host.Observer
	// Judged is told how long the engine's step of a discard took: the
	// judge's work on it (waits, furiten, claim offers, the next turn's
	// options) is most of it. An adapter tells it also for the steps a
	// recovery replays (the round in progress, after a snapshot).
	Judged(d time.Duration)
	// RoundEnded is told of every round that ended, as Judged.
	RoundEnded()
}

// NopObserver observes nothing.
type NopObserver struct{ host.NopObserver }

func (NopObserver) Judged(time.Duration) {}
func (NopObserver) RoundEnded()          {}

// Tables are one rule set's tables in the API's terms: the host's calls,
// with actions, views, events and records converted to and from package
// authorityv1. Every error is a domain error for the server's mapping.
type Tables interface {
	// Create opens a table described by m (settings checked by Check);
	// the seats are the rule set's.
	Create(ctx context.Context, s host.Settings, m Meta) (host.Info, string, error)
	// CreateReserved is Create with seats reserved (host.Host.CreateReserved).
	CreateReserved(ctx context.Context, s host.Settings, m Meta, rs func(id string) []host.Reservation) (host.Info, string, error)
	// Holds reports whether the rule set's host knows the table without
	// reading its store (host.Host.Holds).
	Holds(id string) bool
	Get(ctx context.Context, id string) (host.Info, error)
	List(q host.ListQuery) ([]host.Info, bool)
	Join(ctx context.Context, id, name string, entropy []byte) (int, string, error)
	// Reserve, JoinPass, CloseWaiting and Abandon are the host's (package host,
	// reserve.go).
	Reserve(ctx context.Context, id string, r host.Reservation) error
	JoinPass(ctx context.Context, id string, p host.Pass, entropy []byte) (string, error)
	CloseWaiting(ctx context.Context, id string) error
	Abandon(ctx context.Context, id string) error
	Leave(ctx context.Context, id, token string) error
	Start(ctx context.Context, id, token string) error
	// Act checks and plays a client's action.
	Act(ctx context.Context, id string, r ActRequest) (uint64, error)
	// Follow streams a seat's snapshot and events (host.Host.Follow):
	// each message a *pb.StreamEventsResponse or an *encoded.Message of
	// one, which gRPC's codec sends as it is.
	Follow(ctx context.Context, id, token string, afterSeq uint64, send func(proto.Message) error) error
	// Subscribe opens a seat's follow to be drained (host.Host.Subscribe):
	// Follow without a goroutine, its messages Follow's.
	Subscribe(ctx context.Context, id, token string, afterSeq uint64, notify func()) (Feed, error)
	// Watch streams the public events (host.Host.Watch): each message a
	// *pb.SpectateResponse or an *encoded.Message of one.
	Watch(ctx context.Context, id string, afterSeq uint64, send func(proto.Message) error) error
	// Export writes the table's game record in a format.
	Export(ctx context.Context, id string, format pb.RecordFormat) (*pb.ExportGameResponse, error)
	// Recover resumes the tables of the rule set's store.
	Recover(ctx context.Context) (int, error)
	// Each describes every table in memory (host.Host.Each).
	Each(f func(host.Info))
	Close()
}

// Feed is a seat's follow opened by Subscribe: a host.Feed whose items
// are sent as Follow's messages.
type Feed interface {
	// Drain sends every message ready now (host.Feed.Drain); a send that
	// returns host.ErrNoRoom leaves its message for the next Drain. A
	// message is send's only until it returns (an encoded event's
	// *encoded.Message is reused for the next): send copies what it
	// keeps.
	Drain(send func(proto.Message) error) (host.Drained, error)
	// Fetch reads the events Drain asked for with host.DrainFetch from
	// the store; it blocks.
	Fetch(ctx context.Context) error
	// Close ends the follow (host.Feed.Close).
	Close()
}

// ActRequest is an Act call as the server checked it.
type ActRequest struct {
	Token, RequestID string
	LastSeq          uint64
	Action           *pb.Action
}

// The errors the server maps to status codes and reasons: rule sets wrap
// them (with the engine's error in the chain, if any).
var (
	ErrMalformed      = errors.New("malformed request")
	ErrBadTile        = errors.New("bad tile")
	ErrNotYourTurn    = errors.New("not this seat's turn")
	ErrClaimClosed    = errors.New("no claim window open for this seat")
	ErrIllegal        = errors.New("action not allowed now")
	ErrUnknownRuleSet = errors.New("rule set not hosted here")
	ErrBadOption      = errors.New("bad rule option")
)

// Meta is what the server keeps of a table beside the host's record,
// stored with it (host.TableRecord.Meta): enough to make its game again
// after a restart. Its JSON is the stored form.
type Meta struct {
	Settings   []byte   `json:"settings"`           // pb.TableSettings as checked, without the seed
	RuleSet    string   `json:"rule_set,omitempty"` // the rule set's name (pb.RuleSet); empty in tables stored before rule sets: riichi
	Seed       [32]byte `json:"seed"`               // the server seed, chosen or drawn; secret until the game is over
	Seeded     bool     `json:"seeded"`             // the creator chose the seed
	Commitment [32]byte `json:"commitment"`         // fair.SeedCommitment of Seed, published
	Creator    string   `json:"creator,omitempty"`  // the name of the room service's API key that created it (docs/rooms.md)
}

// DecodeMeta reads a table's Meta.
func DecodeMeta(b []byte) (Meta, error) {
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("table meta: %w", err)
	}
	return m, nil
}

// Encode returns m's stored form.
func (m Meta) Encode() ([]byte, error) { return json.Marshal(m) }

// TableSettings decodes the table's settings.
func (m Meta) TableSettings() (*pb.TableSettings, error) {
	set := &pb.TableSettings{}
	if err := proto.Unmarshal(m.Settings, set); err != nil {
		return nil, fmt.Errorf("table settings: %w", err)
	}
	return set, nil
}

// Name is a rule set's name in metas and logs: "riichi", "sichuan", "mcr".
func Name(id pb.RuleSet) string {
	if id == pb.RuleSet_RULE_SET_UNSPECIFIED {
		id = pb.RuleSet_RULE_SET_RIICHI
	}
	switch id {
	case pb.RuleSet_RULE_SET_RIICHI:
		return "riichi"
	case pb.RuleSet_RULE_SET_SICHUAN:
		return "sichuan"
	case pb.RuleSet_RULE_SET_MCR:
		return "mcr"
	}
	return id.String()
}
