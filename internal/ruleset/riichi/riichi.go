// Package riichi is the riichi rule set of the authority: Japanese riichi
// mahjong on the table engine (package table) with Tenhou's presets,
// hosted through package ruleset. It brings the engine adapter (game.go:
// whose turn, timeouts, walls from the table's seed, claim-window marks,
// snapshots), the store codec (codec.go), the checks of a client's actions
// on top of their wire form (convert.go, package wire), the record and its
// export formats (export.go, packages record, tenhou and mjai) and the bot
// for empty and abandoned seats (bot.go, package bot).
package riichi

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Host is the host instantiated for riichi tables.
type Host = host.Host[table.Action, table.View, table.Body]

// Game is a hosted riichi game.
type Game = host.Game[table.Action, table.View, table.Body]

// Tables are riichi's tables as the server sees them; Host gives the
// host under them to in-process tools and tests.
type Tables = ruleset.Hosted[table.Action, table.View, table.Body]

// Config configures the riichi rule set. NewEngine and NewWall are
// required; Standard has the real ones.
type Config struct {
	NewEngine NewEngine
	NewWall   NewWall
	// RestoreEngine makes an engine from its snapshot; default
	// table.Restore. Tables whose engine snapshots itself (has the
	// Snapshot method of *table.Table) are snapshotted at every round
	// boundary, so that recovery replays only the round in progress.
	RestoreEngine RestoreEngine
	// Store keeps the tables; default in memory, where a table is
	// deleted when it leaves the host's memory (see
	// ruleset.Hosting.FinishedTTL).
	Store host.Store[table.Action]
	Bot   func() host.Bot[table.Action, table.View] // default: the timeout action
}

// Standard is the configuration of riichi with the real parts: the table
// engine, walls shuffled by package wall, and the tile-efficiency bot for
// empty and abandoned seats. The authority binary and the tests start from
// it and set the rest.
func Standard() Config {
	return Config{
		NewEngine: func(cfg table.Config) (Engine, error) {
			t, err := table.New(cfg)
			if err != nil {
				return nil, err // a nil *table.Table is not a nil Engine
			}
			return t, nil
		},
		NewWall: wall.New,
		Bot:     func() host.Bot[table.Action, table.View] { return TableBot{Bot: bot.Efficient{}} },
	}
}

// RuleSet is riichi as the server hosts it (ruleset.RuleSet).
type RuleSet struct{ cfg Config }

// New returns the riichi rule set.
func New(cfg Config) *RuleSet {
	if cfg.RestoreEngine == nil {
		cfg.RestoreEngine = func(c table.Config, s table.Snapshot) (Engine, error) { return table.Restore(c, s) }
	}
	return &RuleSet{cfg: cfg}
}

// ID is RULE_SET_RIICHI.
func (*RuleSet) ID() pb.RuleSet { return pb.RuleSet_RULE_SET_RIICHI }

// presets are riichi's rule presets.
var presets = map[pb.RulePreset]table.Rules{
	pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN: table.TenhouHanchan,
	pb.RulePreset_RULE_PRESET_TENHOU_TONPUU:  table.TenhouTonpuu,
}

// Check completes riichi's settings: the preset (Tenhou hanchan when
// unset) and its options (none yet). A preset the API does not define is
// malformed, as before rule sets; another rule set's preset or options are
// a bad option.
func (*RuleSet) Check(set *pb.TableSettings) error {
	if set.GetRuleSet() != pb.RuleSet_RULE_SET_UNSPECIFIED && set.GetRuleSet() != pb.RuleSet_RULE_SET_RIICHI {
		return fmt.Errorf("settings.rule_set: %v is not riichi: %w", set.GetRuleSet(), ruleset.ErrBadOption)
	}
	set.RuleSet = pb.RuleSet_RULE_SET_RIICHI
	if set.GetRules() == pb.RulePreset_RULE_PRESET_UNSPECIFIED {
		set.Rules = pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN
	}
	if _, ok := presets[set.GetRules()]; !ok {
		if _, defined := pb.RulePreset_name[int32(set.GetRules())]; defined {
			return fmt.Errorf("settings.rules: %v is not a riichi preset: %w", set.GetRules(), ruleset.ErrBadOption)
		}
		return fmt.Errorf("settings.rules: %v: %w", set.GetRules(), ruleset.ErrMalformed)
	}
	switch set.GetOptions().(type) {
	case nil:
		set.Options = &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}
	case *pb.TableSettings_Riichi:
		if set.GetRiichi() == nil {
			set.Options = &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}
		}
	default:
		return fmt.Errorf("settings.options: %T for a riichi table: %w", set.GetOptions(), ruleset.ErrBadOption)
	}
	return nil
}

// Open starts the riichi host.
func (r *RuleSet) Open(hs ruleset.Hosting) (ruleset.Tables, error) {
	if r.cfg.NewEngine == nil || r.cfg.NewWall == nil {
		return nil, fmt.Errorf("riichi: NewEngine and NewWall are required")
	}
	return ruleset.NewHosted("riichi", &parts{cfg: r.cfg, obs: hs.Observer}, hs,
		host.Config[table.Action, table.View, table.Body]{Store: r.cfg.Store, Bot: r.cfg.Bot, Codec: Codec{}}), nil
}

// Parts are riichi's ruleset.Parts, for a host built by hand (a test that
// hosts riichi's engine under another rule set's settings).
func (r *RuleSet) Parts() ruleset.Parts[table.Action, table.View, table.Body] {
	return &parts{cfg: r.cfg}
}

// parts are riichi's ruleset.Parts.
type parts struct {
	cfg Config
	obs ruleset.Observer // nil: none
}

// ActionKind names an action's type for the host's observer.
func (*parts) ActionKind(a table.Action) string { return spec.ActionKind(a) }

// Seats is 4.
func (*parts) Seats() int { return table.NumSeats }

// Game makes the games of a table: the engine for its rule preset, and
// walls from its seed.
func (p *parts) Game(m ruleset.Meta) (host.NewGame[table.Action, table.View, table.Body], error) {
	set, err := m.TableSettings()
	if err != nil {
		return nil, err
	}
	rules, ok := presets[set.GetRules()]
	if set.GetRules() == pb.RulePreset_RULE_PRESET_UNSPECIFIED {
		rules, ok = table.TenhouHanchan, true // a table stored before Check completed the preset
	}
	if !ok {
		return nil, fmt.Errorf("settings.rules: %v: %w", set.GetRules(), ruleset.ErrMalformed)
	}
	newEngine, restore, newWall, seed, obs := p.cfg.NewEngine, p.cfg.RestoreEngine, p.cfg.NewWall, m.Seed, p.obs
	return func() (Game, error) {
		eng, err := newEngine(table.Config{Rules: rules})
		if err != nil {
			return nil, err
		}
		return makeGame(eng, restore, newWall, rules, seed, obs), nil
	}, nil
}
