package riichi

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
)

// BenchmarkGame plays seeded east-only games through the adapter.
func BenchmarkGame(b *testing.B) {
	raw, err := proto.Marshal(&pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU})
	if err != nil {
		b.Fatal(err)
	}
	newGame, err := New(Standard()).Parts().Game(ruleset.Meta{Settings: raw, Seed: [32]byte{4, 2}})
	if err != nil {
		b.Fatal(err)
	}
	mahjongtest.Bench(b, newGame)
}
