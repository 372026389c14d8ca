// Package sichuan is the Sichuan bloody battle (xuezhan daodi) rule set of
// the authority: the engine of package table/sichuan hosted through
// package ruleset. It brings the table settings (options.go: the preset
// and options, checked, completed and read into the engine's rules), the
// engine adapter (game.go: whose turn, timeouts, walls from the table's
// seed, claim-window marks, snapshots), the store codec (codec.go), the
// checks of a client's actions on top of their wire form (convert.go,
// package wire/sichuan), the record (export.go, package record/sichuan)
// and the bot for empty and abandoned seats (bot.go, package bot/sichuan).
package sichuan

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	tsichuan "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// Defaults are the rules of the bloody battle preset, as the big Chinese
// platforms play it: the engine's default.
var Defaults = tsichuan.Default

// The ranges of the numeric options, the engine's.
const (
	MinFanCap = 3
	MaxFanCap = 5
	MaxHands  = tsichuan.MaxHands
)

// Check checks and completes the Sichuan part of a table's settings (what
// the rule set's ruleset.RuleSet.Check does): the rule set, the preset
// (bloody battle when unset) and the options, every unset one set to its
// default. Another rule set's preset or options, and an option out of
// range, wrap ruleset.ErrBadOption; a preset the API does not define is
// ruleset.ErrMalformed. Checking completed settings changes nothing.
func Check(set *pb.TableSettings) error {
	if set.GetRuleSet() != pb.RuleSet_RULE_SET_SICHUAN {
		return fmt.Errorf("settings.rule_set: %v is not sichuan: %w", set.GetRuleSet(), ruleset.ErrBadOption)
	}
	switch p := set.GetRules(); p {
	case pb.RulePreset_RULE_PRESET_UNSPECIFIED:
		set.Rules = pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE
	case pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE:
	default:
		if _, defined := pb.RulePreset_name[int32(p)]; defined {
			return fmt.Errorf("settings.rules: %v is not a sichuan preset: %w", p, ruleset.ErrBadOption)
		}
		return fmt.Errorf("settings.rules: %v: %w", p, ruleset.ErrMalformed)
	}
	var o *pb.SichuanOptions
	switch opts := set.GetOptions().(type) {
	case nil:
	case *pb.TableSettings_Sichuan:
		o = opts.Sichuan
	default:
		return fmt.Errorf("settings.options: %T for a sichuan table: %w", opts, ruleset.ErrBadOption)
	}
	r, err := FromPB(o)
	if err != nil {
		return err
	}
	set.Options = &pb.TableSettings_Sichuan{Sichuan: PB(r)}
	return nil
}

// FromPB reads options into the engine's rules; unset fields take
// Defaults'.
func FromPB(o *pb.SichuanOptions) (tsichuan.Rules, error) {
	out := Defaults
	if o == nil {
		return out, nil
	}
	for _, f := range []struct {
		in  *bool
		out *bool
	}{
		{o.ExchangeThree, &out.Exchange},
		{o.VoidFirstDiscard, &out.VoidFirst},
		{o.PassedWinLock, &out.PassLock},
		{o.BloodyRiver, &out.BloodyRiver},
	} {
		if f.in != nil {
			*f.out = *f.in
		}
	}
	if c := o.GetFanCap(); c != 0 {
		if c < MinFanCap || c > MaxFanCap {
			return out, fmt.Errorf("settings.sichuan.fan_cap: %d, want %d to %d: %w", c, MinFanCap, MaxFanCap, ruleset.ErrBadOption)
		}
		out.FanCap = int(c)
	}
	if h := o.GetHands(); h != 0 {
		if h > MaxHands {
			return out, fmt.Errorf("settings.sichuan.hands: %d, want 1 to %d: %w", h, MaxHands, ruleset.ErrBadOption)
		}
		out.Hands = int(h)
	}
	return out, nil
}

// PB is the options of rules r, every field set.
func PB(r tsichuan.Rules) *pb.SichuanOptions {
	return &pb.SichuanOptions{
		ExchangeThree: &r.Exchange, VoidFirstDiscard: &r.VoidFirst,
		PassedWinLock: &r.PassLock, BloodyRiver: &r.BloodyRiver,
		FanCap: uint32(r.FanCap), Hands: uint32(r.Hands),
	}
}
