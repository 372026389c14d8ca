package classical

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Host is the host instantiated for classical tables.
type Host = host.Host[ct.Action, ct.View, ct.Body]

// Game is a hosted classical game.
type Game = host.Game[ct.Action, ct.View, ct.Body]

// Tables are the classical tables as the server sees them; Host gives the
// host under them to in-process tools and tests.
type Tables = ruleset.Hosted[ct.Action, ct.View, ct.Body]

// Config configures the classical rule set. NewEngine and NewWall are
// required; Standard has the real ones.
type Config struct {
	NewEngine NewEngine
	NewWall   NewWall
	// RestoreEngine makes an engine from its snapshot; default ct.Restore.
	RestoreEngine RestoreEngine
	// Store keeps the tables; default in memory.
	Store host.Store[ct.Action]
	Bot   func() host.Bot[ct.Action, ct.View] // default: the timeout action
}

// Standard is the configuration of classical tables with the real parts:
// the engine, walls from wall.New144, and the bot of package
// bot/classical.
func Standard() Config {
	return Config{
		NewEngine: func(cfg ct.Config) (Engine, error) {
			t, err := ct.New(cfg)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
		NewWall: wall.New144,
		Bot:     func() host.Bot[ct.Action, ct.View] { return TableBot{} },
	}
}

// RuleSet is classical mahjong as the server hosts it (ruleset.RuleSet).
type RuleSet struct{ cfg Config }

// New returns the classical rule set.
func New(cfg Config) *RuleSet {
	if cfg.RestoreEngine == nil {
		cfg.RestoreEngine = func(c ct.Config, s ct.Snapshot) (Engine, error) { return ct.Restore(c, s) }
	}
	return &RuleSet{cfg: cfg}
}

// ID is RULE_SET_CLASSICAL.
func (*RuleSet) ID() pb.RuleSet { return pb.RuleSet_RULE_SET_CLASSICAL }

// Check completes the classical settings (the package's Check).
func (*RuleSet) Check(set *pb.TableSettings) error { return Check(set) }

// Open starts the classical host.
func (r *RuleSet) Open(hs ruleset.Hosting) (ruleset.Tables, error) {
	if r.cfg.NewEngine == nil || r.cfg.NewWall == nil {
		return nil, fmt.Errorf("classical: NewEngine and NewWall are required")
	}
	return ruleset.NewHosted("classical", &parts{cfg: r.cfg, obs: hs.Observer}, hs,
		host.Config[ct.Action, ct.View, ct.Body]{Store: r.cfg.Store, Bot: r.cfg.Bot, Codec: Codec{}}), nil
}

// Parts are the classical ruleset.Parts.
func (r *RuleSet) Parts() ruleset.Parts[ct.Action, ct.View, ct.Body] { return &parts{cfg: r.cfg} }

type parts struct {
	cfg Config
	obs ruleset.Observer // nil: none
}

// ActionKind names an action's type for the host's observer.
func (*parts) ActionKind(a ct.Action) string { return spec.ActionKind(a) }

// Seats is 4.
func (*parts) Seats() int { return ct.NumSeats }

// Game makes the games of a table: the engine of its options, and walls
// from its seed.
func (p *parts) Game(m ruleset.Meta) (host.NewGame[ct.Action, ct.View, ct.Body], error) {
	set, err := m.TableSettings()
	if err != nil {
		return nil, err
	}
	if err := Check(set); err != nil {
		return nil, err
	}
	rules, err := FromPB(set.GetClassical())
	if err != nil {
		return nil, err
	}
	newEngine, restore, newWall, seed, obs := p.cfg.NewEngine, p.cfg.RestoreEngine, p.cfg.NewWall, m.Seed, p.obs
	return func() (Game, error) {
		eng, err := newEngine(ct.Config{Rules: rules})
		if err != nil {
			return nil, err
		}
		return makeGame(eng, restore, newWall, rules, seed, obs), nil
	}, nil
}

// TableBot lets the bot of package bot/classical play a seat on the host.
type TableBot struct {
	Bot botc.Efficient
}

// Act asks the bot for the seat's action.
func (b TableBot) Act(seat int, v ct.View) (ct.Action, error) {
	a, ok := b.Bot.Act(&v)
	if !ok {
		return ct.Action{}, fmt.Errorf("bot: seat %d has nothing to do", seat)
	}
	return a, nil
}
