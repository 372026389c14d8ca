package classical

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
)

// BenchmarkGame plays seeded one-round games through the adapter.
func BenchmarkGame(b *testing.B) {
	rules := Defaults
	rules.Rounds = 1
	raw, err := proto.Marshal(&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: PB(rules)}})
	if err != nil {
		b.Fatal(err)
	}
	newGame, err := New(Standard()).Parts().Game(ruleset.Meta{Settings: raw, Seed: [32]byte{4, 2}})
	if err != nil {
		b.Fatal(err)
	}
	mahjongtest.Bench(b, newGame)
}
