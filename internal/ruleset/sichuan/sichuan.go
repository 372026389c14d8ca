package sichuan

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// Host is the host instantiated for Sichuan tables.
type Host = host.Host[sc.Action, sc.View, sc.Body]

// Game is a hosted Sichuan game.
type Game = host.Game[sc.Action, sc.View, sc.Body]

// Tables are Sichuan's tables as the server sees them; Host gives the host
// under them to in-process tools and tests.
type Tables = ruleset.Hosted[sc.Action, sc.View, sc.Body]

// Config configures the Sichuan rule set. NewEngine and NewWall are
// required; Standard has the real ones.
type Config struct {
	NewEngine NewEngine
	NewWall   NewWall
	// RestoreEngine makes an engine from its snapshot; default sc.Restore.
	RestoreEngine RestoreEngine
	// Store keeps the tables; default in memory.
	Store host.Store[sc.Action]
	Bot   func() host.Bot[sc.Action, sc.View] // default: the timeout action
}

// Standard is the configuration of Sichuan with the real parts: the
// engine, walls shuffled as wall.New108 shuffles them (sc.NewWall, which
// also draws the exchange direction), and the bot of package bot/sichuan.
func Standard() Config {
	return Config{
		NewEngine: func(cfg sc.Config) (Engine, error) {
			t, err := sc.New(cfg)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
		NewWall: sc.NewWall,
		Bot:     func() host.Bot[sc.Action, sc.View] { return TableBot{Bot: botsc.Efficient{}} },
	}
}

// RuleSet is Sichuan as the server hosts it (ruleset.RuleSet).
type RuleSet struct{ cfg Config }

// New returns the Sichuan rule set.
func New(cfg Config) *RuleSet {
	if cfg.RestoreEngine == nil {
		cfg.RestoreEngine = func(c sc.Config, s sc.Snapshot) (Engine, error) { return sc.Restore(c, s) }
	}
	return &RuleSet{cfg: cfg}
}

// ID is RULE_SET_SICHUAN.
func (*RuleSet) ID() pb.RuleSet { return pb.RuleSet_RULE_SET_SICHUAN }

// Check completes Sichuan's settings (the package's Check).
func (*RuleSet) Check(set *pb.TableSettings) error { return Check(set) }

// Open starts the Sichuan host.
func (r *RuleSet) Open(hs ruleset.Hosting) (ruleset.Tables, error) {
	if r.cfg.NewEngine == nil || r.cfg.NewWall == nil {
		return nil, fmt.Errorf("sichuan: NewEngine and NewWall are required")
	}
	return ruleset.NewHosted("sichuan", &parts{cfg: r.cfg, obs: hs.Observer}, hs,
		host.Config[sc.Action, sc.View, sc.Body]{Store: r.cfg.Store, Bot: r.cfg.Bot, Codec: Codec{}}), nil
}

// Parts are Sichuan's ruleset.Parts.
func (r *RuleSet) Parts() ruleset.Parts[sc.Action, sc.View, sc.Body] { return &parts{cfg: r.cfg} }

type parts struct {
	cfg Config
	obs ruleset.Observer // nil: none
}

// ActionKind names an action's type for the host's observer.
func (*parts) ActionKind(a sc.Action) string { return spec.ActionKind(a) }

// Seats is 4.
func (*parts) Seats() int { return sc.NumSeats }

// Game makes the games of a table: the engine of its options, and walls
// from its seed.
func (p *parts) Game(m ruleset.Meta) (host.NewGame[sc.Action, sc.View, sc.Body], error) {
	set, err := m.TableSettings()
	if err != nil {
		return nil, err
	}
	if err := Check(set); err != nil {
		return nil, err
	}
	rules, err := FromPB(set.GetSichuan())
	if err != nil {
		return nil, err
	}
	newEngine, restore, newWall, seed, obs := p.cfg.NewEngine, p.cfg.RestoreEngine, p.cfg.NewWall, m.Seed, p.obs
	return func() (Game, error) {
		eng, err := newEngine(sc.Config{Rules: rules})
		if err != nil {
			return nil, err
		}
		return makeGame(eng, restore, newWall, rules, seed, obs), nil
	}, nil
}
