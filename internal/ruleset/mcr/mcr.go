// Package mcr is the Chinese Official (MCR, 国标麻将) rule set of the
// authority: the 144-tile game with flowers and the 8-fan minimum on the
// engine of package table/mcr, hosted through package ruleset. It brings
// the table settings (options.go), the engine adapter (game.go: whose
// turn, timeouts, walls from the table's seed, claim-window marks, turn
// offers, snapshots), the store codec (codec.go), the checks of a client's
// actions on top of their wire form (convert.go, package wire/mcr), the
// record (export.go, package record/mcr) and the bot for empty and
// abandoned seats (bot.go, package bot/mcr).
package mcr

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
)

// Host is the host instantiated for MCR tables.
type Host = host.Host[tbl.Action, tbl.View, tbl.Body]

// Game is a hosted MCR game.
type Game = host.Game[tbl.Action, tbl.View, tbl.Body]

// Tables are MCR's tables as the server sees them; Host gives the host
// under them to in-process tools and tests.
type Tables = ruleset.Hosted[tbl.Action, tbl.View, tbl.Body]

// Config configures the MCR rule set.
type Config struct {
	// Store keeps the tables; default in memory (see ruleset.Hosting).
	Store host.Store[tbl.Action]
	// Bot plays empty and abandoned seats; default the bot of package
	// bot/mcr.
	Bot func() host.Bot[tbl.Action, tbl.View]
}

// RuleSet is MCR as the server hosts it (ruleset.RuleSet).
type RuleSet struct{ cfg Config }

// New returns the MCR rule set.
func New(cfg Config) *RuleSet {
	if cfg.Bot == nil {
		cfg.Bot = func() host.Bot[tbl.Action, tbl.View] { return &TableBot{} }
	}
	return &RuleSet{cfg: cfg}
}

// ID is RULE_SET_MCR.
func (*RuleSet) ID() pb.RuleSet { return pb.RuleSet_RULE_SET_MCR }

// Check completes MCR's settings (the package's Check).
func (*RuleSet) Check(set *pb.TableSettings) error { return Check(set) }

// Open starts the MCR host.
func (r *RuleSet) Open(hs ruleset.Hosting) (ruleset.Tables, error) {
	return ruleset.NewHosted("mcr", parts{obs: hs.Observer}, hs,
		host.Config[tbl.Action, tbl.View, tbl.Body]{Store: r.cfg.Store, Bot: r.cfg.Bot, Codec: Codec{}}), nil
}

// Parts are MCR's ruleset.Parts, for a host built by hand and for tests.
func (r *RuleSet) Parts() ruleset.Parts[tbl.Action, tbl.View, tbl.Body] { return parts{} }

// parts are MCR's ruleset.Parts.
type parts struct {
	obs ruleset.Observer // nil: none
}

// ActionKind names an action's type for the host's observer.
func (parts) ActionKind(a tbl.Action) string { return spec.ActionKind(a) }

// Seats is 4.
func (parts) Seats() int { return tbl.NumSeats }

// Game makes the games of a table: the engine for its options, and walls
// from its seed.
func (p parts) Game(m ruleset.Meta) (host.NewGame[tbl.Action, tbl.View, tbl.Body], error) {
	set, err := m.TableSettings()
	if err != nil {
		return nil, err
	}
	rules, err := FromPB(set.GetMcr())
	if err != nil {
		return nil, fmt.Errorf("stored settings: %w", err)
	}
	seed, obs := m.Seed, p.obs
	return func() (Game, error) {
		eng, err := tbl.New(tbl.Config{Rules: rules})
		if err != nil {
			return nil, err
		}
		return newGame(eng, rules, seed, obs), nil
	}, nil
}
