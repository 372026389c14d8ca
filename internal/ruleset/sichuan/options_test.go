package sichuan

import (
	"errors"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	tsichuan "github.com/mahjong-authority/authority/internal/table/sichuan"
)

func TestCheck(t *testing.T) {
	// The options say every rule of the engine's: a new rule must be an
	// option too (or this test must say why not).
	if n := reflect.TypeOf(tsichuan.Rules{}).NumField(); n != 7 {
		t.Fatalf("tsichuan.Rules has %d fields: teach SichuanOptions the new one", n)
	}
	on, off := proto.Bool(true), proto.Bool(false)
	sc := pb.RuleSet_RULE_SET_SICHUAN
	full := func(r tsichuan.Rules) *pb.TableSettings {
		return &pb.TableSettings{RuleSet: sc, Rules: pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE, Options: &pb.TableSettings_Sichuan{Sichuan: PB(r)}}
	}
	with := func(f func(*tsichuan.Rules)) *pb.TableSettings {
		o := Defaults
		f(&o)
		return full(o)
	}
	mahjongtest.CheckSettings(t, Check, []mahjongtest.Settings{
		{"defaults", &pb.TableSettings{RuleSet: sc}, full(Defaults), nil},
		{"empty options", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}}, full(Defaults), nil},
		{"each option", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{
			ExchangeThree: off, VoidFirstDiscard: off, PassedWinLock: off, BloodyRiver: on, FanCap: 5, Hands: 4,
		}}}, full(tsichuan.Rules{FanCap: 5, Hands: 4, BloodyRiver: true}), nil},
		{"fan cap 4", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 4}}},
			with(func(o *tsichuan.Rules) { o.FanCap = 4 }), nil},
		{"exchange off only", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{ExchangeThree: off}}},
			with(func(o *tsichuan.Rules) { o.Exchange = false }), nil},
		{"fan cap 2", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 2}}}, nil, ruleset.ErrBadOption},
		{"fan cap 6", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 6}}}, nil, ruleset.ErrBadOption},
		{"65 hands", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: 65}}}, nil, ruleset.ErrBadOption},
		{"riichi options", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}}, nil, ruleset.ErrBadOption},
		{"riichi preset", &pb.TableSettings{RuleSet: sc, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}, nil, ruleset.ErrBadOption},
		{"undefined preset", &pb.TableSettings{RuleSet: sc, Rules: 77}, nil, ruleset.ErrMalformed},
		{"riichi table", &pb.TableSettings{}, nil, ruleset.ErrBadOption},
	})
}

// FuzzCheck feeds arbitrary Sichuan settings to Check: it either refuses
// them with a reason the server maps, or completes them into settings with
// every option set and in range, which a second Check leaves as they are.
func FuzzCheck(f *testing.F) {
	f.Add(uint8(0), int32(0), uint32(0), uint32(0))
	f.Add(uint8(0xff), int32(3), uint32(4), uint32(8))
	f.Add(uint8(0x15), int32(1), uint32(6), uint32(65))
	f.Fuzz(func(t *testing.T, bits uint8, preset int32, fanCap, hands uint32) {
		o := &pb.SichuanOptions{FanCap: fanCap, Hands: hands}
		for i, p := range []**bool{&o.ExchangeThree, &o.VoidFirstDiscard, &o.PassedWinLock, &o.BloodyRiver} {
			if bits&(1<<(2*i)) != 0 {
				*p = proto.Bool(bits&(2<<(2*i)) != 0)
			}
		}
		set := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Rules: pb.RulePreset(preset), Options: &pb.TableSettings_Sichuan{Sichuan: o}}
		if err := Check(set); err != nil {
			if !errors.Is(err, ruleset.ErrBadOption) && !errors.Is(err, ruleset.ErrMalformed) {
				t.Fatalf("Check refused with %v: no reason", err)
			}
			return
		}
		got := set.GetSichuan()
		if got.ExchangeThree == nil || got.VoidFirstDiscard == nil || got.PassedWinLock == nil || got.BloodyRiver == nil ||
			got.GetFanCap() < MinFanCap || got.GetFanCap() > MaxFanCap || got.GetHands() < 1 || got.GetHands() > MaxHands ||
			set.GetRules() != pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE {
			t.Fatalf("Check completed %v", set)
		}
		again := proto.Clone(set).(*pb.TableSettings)
		if err := Check(again); err != nil || !proto.Equal(again, set) {
			t.Fatalf("second Check: %v, %v", again, err)
		}
		// What Check accepts, the engine takes.
		r, err := FromPB(got)
		if err != nil {
			t.Fatalf("FromPB of checked options: %v", err)
		}
		if _, err := tsichuan.New(tsichuan.Config{Rules: r}); err != nil {
			t.Fatalf("the engine refuses checked options %v: %v", got, err)
		}
	})
}
