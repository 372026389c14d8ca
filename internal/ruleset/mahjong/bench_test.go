package mahjong_test

import (
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	"github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
)

// BenchmarkGame plays seeded games of every rule set through the adapter
// (one game an op): riichi east only, Sichuan two hands, MCR four hands,
// classical one round of winds. allocs/action is the hot path's figure.
func BenchmarkGame(b *testing.B) {
	sq := sichuan.Defaults
	sq.Hands = 2
	cq := classical.Defaults
	cq.Rounds = 1
	b.Run("riichi", func(b *testing.B) {
		mahjongtest.Bench(b, mahjongtest.NewGame(b, riichi.New(riichi.Standard()).Parts(), &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}))
	})
	b.Run("sichuan", func(b *testing.B) {
		mahjongtest.Bench(b, mahjongtest.NewGame(b, sichuan.New(sichuan.Standard()).Parts(), &pb.TableSettings{
			RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: sichuan.PB(sq)}}))
	})
	b.Run("mcr", func(b *testing.B) {
		mahjongtest.Bench(b, mahjongtest.NewGame(b, mcr.New(mcr.Config{}).Parts(), &pb.TableSettings{
			RuleSet: pb.RuleSet_RULE_SET_MCR, Options: &pb.TableSettings_Mcr{Mcr: &pb.McrOptions{Hands: 4}}}))
	})
	b.Run("classical", func(b *testing.B) {
		mahjongtest.Bench(b, mahjongtest.NewGame(b, classical.New(classical.Standard()).Parts(), &pb.TableSettings{
			RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Options: &pb.TableSettings_Classical{Classical: classical.PB(cq)}}))
	})
}
