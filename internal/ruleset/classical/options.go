// Package classical is the classical mahjong rule set of the authority
// (the British Mah-Jong Association's game): the engine of package
// table/classical hosted through package ruleset. It brings the table
// settings (options.go: the preset and options, checked, completed and
// read into the engine's rules), the engine adapter (game.go: whose turn,
// timeouts, walls from the table's seed, claim-window marks, snapshots),
// the store codec (codec.go), the checks of a client's actions on top of
// their wire form (convert.go, package wire/classical), the record
// (export.go, package record/classical) and the bot for empty and
// abandoned seats (bot.go, package bot/classical).
package classical

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// Defaults are the rules of the BMJA preset: the engine's default.
var Defaults = ct.Default

// Check checks and completes the classical part of a table's settings:
// the rule set, the preset (BMJA when unset) and the options, every unset
// one set to its default. Another rule set's preset or options, and an
// option out of range, wrap ruleset.ErrBadOption; a preset the API does
// not define is ruleset.ErrMalformed. Checking completed settings changes
// nothing.
func Check(set *pb.TableSettings) error {
	if set.GetRuleSet() != pb.RuleSet_RULE_SET_CLASSICAL {
		return fmt.Errorf("settings.rule_set: %v is not classical: %w", set.GetRuleSet(), ruleset.ErrBadOption)
	}
	switch p := set.GetRules(); p {
	case pb.RulePreset_RULE_PRESET_UNSPECIFIED:
		set.Rules = pb.RulePreset_RULE_PRESET_CLASSICAL_BMJA
	case pb.RulePreset_RULE_PRESET_CLASSICAL_BMJA:
	default:
		if _, defined := pb.RulePreset_name[int32(p)]; defined {
			return fmt.Errorf("settings.rules: %v is not a classical preset: %w", p, ruleset.ErrBadOption)
		}
		return fmt.Errorf("settings.rules: %v: %w", p, ruleset.ErrMalformed)
	}
	var o *pb.ClassicalOptions
	switch opts := set.GetOptions().(type) {
	case nil:
	case *pb.TableSettings_Classical:
		o = opts.Classical
	default:
		return fmt.Errorf("settings.options: %T for a classical table: %w", opts, ruleset.ErrBadOption)
	}
	r, err := FromPB(o)
	if err != nil {
		return err
	}
	set.Options = &pb.TableSettings_Classical{Classical: PB(r)}
	return nil
}

// FromPB reads options into the engine's rules; unset fields take
// Defaults'.
func FromPB(o *pb.ClassicalOptions) (ct.Rules, error) {
	out := Defaults
	if o == nil {
		return out, nil
	}
	if l := o.GetLimit(); l != 0 {
		if l > 1<<20 || !jc.ValidLimit(int(l)) {
			return out, fmt.Errorf("settings.classical.limit: %d, want one of %v: %w", l, jc.Limits, ruleset.ErrBadOption)
		}
		out.Limit = int(l)
	}
	if o.FishingBeforeMahJong != nil {
		out.FishingFirst = *o.FishingBeforeMahJong
	}
	if n := o.GetRounds(); n != 0 {
		if n > 4 {
			return out, fmt.Errorf("settings.classical.rounds: %d, want 1 to 4: %w", n, ruleset.ErrBadOption)
		}
		out.Rounds = int(n)
	}
	return out, nil
}

// PB is the options of rules r, every field set.
func PB(r ct.Rules) *pb.ClassicalOptions {
	return &pb.ClassicalOptions{Limit: uint32(r.Limit), FishingBeforeMahJong: &r.FishingFirst, Rounds: uint32(r.Rounds)}
}
