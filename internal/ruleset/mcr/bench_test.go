package mcr

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
)

// BenchmarkGame plays seeded four-hand games through the adapter.
func BenchmarkGame(b *testing.B) {
	raw, err := proto.Marshal(&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: 4}}})
	if err != nil {
		b.Fatal(err)
	}
	newGame, err := parts{}.Game(ruleset.Meta{Settings: raw, Seed: [32]byte{4, 2}})
	if err != nil {
		b.Fatal(err)
	}
	mahjongtest.Bench(b, newGame)
}
