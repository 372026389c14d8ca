package mcr

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
)

// Defaults are the rules of the MCR preset: the rule book's 16 hands.
var Defaults = tbl.Default

// Check checks and completes the MCR part of a table's settings (what
// RuleSet.Check does): the rule set, the preset (RULE_PRESET_MCR when
// unset) and the options, every unset one set to its default. Another rule
// set's preset or options, and an option out of range, wrap
// ruleset.ErrBadOption; a preset the API does not define is
// ruleset.ErrMalformed. Checking completed settings changes nothing.
func Check(set *pb.TableSettings) error {
	if set.GetRuleSet() != pb.RuleSet_RULE_SET_MCR {
		return fmt.Errorf("settings.rule_set: %v is not mcr: %w", set.GetRuleSet(), ruleset.ErrBadOption)
	}
	switch p := set.GetRules(); p {
	case pb.RulePreset_RULE_PRESET_UNSPECIFIED:
		set.Rules = pb.RulePreset_RULE_PRESET_MCR
	case pb.RulePreset_RULE_PRESET_MCR:
	default:
		if _, defined := pb.RulePreset_name[int32(p)]; defined {
			return fmt.Errorf("settings.rules: %v is not an mcr preset: %w", p, ruleset.ErrBadOption)
		}
		return fmt.Errorf("settings.rules: %v: %w", p, ruleset.ErrMalformed)
	}
	var o *pb.McrOptions
	switch opts := set.GetOptions().(type) {
	case nil:
	case *pb.TableSettings_Mcr:
		o = opts.Mcr
	default:
		return fmt.Errorf("settings.options: %T for an mcr table: %w", opts, ruleset.ErrBadOption)
	}
	r, err := FromPB(o)
	if err != nil {
		return err
	}
	set.Options = &pb.TableSettings_Mcr{Mcr: PB(r)}
	return nil
}

// FromPB reads options into the engine's rules; unset fields take
// Defaults'.
func FromPB(o *pb.McrOptions) (tbl.Rules, error) {
	out := Defaults
	switch h := o.GetHands(); {
	case h == 0:
	case h > tbl.MaxHands:
		return out, fmt.Errorf("settings.mcr.hands: %d, want 1 to %d: %w", h, tbl.MaxHands, ruleset.ErrBadOption)
	case h == 1:
		out = tbl.OneHand
	default:
		out.Hands = int(h)
	}
	return out, nil
}

// PB is the options of rules, every field set.
func PB(r tbl.Rules) *pb.McrOptions { return &pb.McrOptions{Hands: uint32(r.Hands)} }
