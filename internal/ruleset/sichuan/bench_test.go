package sichuan

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
)

// BenchmarkGame plays seeded two-hand matches through the adapter.
func BenchmarkGame(b *testing.B) {
	rules := Defaults
	rules.Hands = 2
	raw, err := proto.Marshal(&pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: PB(rules)}})
	if err != nil {
		b.Fatal(err)
	}
	newGame, err := New(Standard()).Parts().Game(ruleset.Meta{Settings: raw, Seed: [32]byte{4, 2}})
	if err != nil {
		b.Fatal(err)
	}
	mahjongtest.Bench(b, newGame)
}
