package server_test

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// rc is riichi's configuration, embedded in config.
type rc = riichi.Config

// config is the configuration of a server that hosts riichi alone: the
// server's fields and riichi's side by side, as the tests set them.
type config struct {
	server.Config
	rc
}

// riichiConfig is a riichi server with the real parts.
func riichiConfig() config { return config{rc: riichi.Standard()} }

// server is the server's configuration with riichi as its rule set,
// unless it names its rule sets itself.
func (c config) server() server.Config {
	if len(c.Config.RuleSets) == 0 {
		c.Config.RuleSets = []ruleset.RuleSet{riichi.New(c.rc)}
	}
	return c.Config
}

func newServer(c config) (*server.Server, error) { return server.New(c.server()) }

// riichiHost is the host of a server's riichi tables.
func riichiHost(s *server.Server) *riichi.Host {
	return s.Tables(pb.RuleSet_RULE_SET_RIICHI).(*riichi.Tables).Host()
}
