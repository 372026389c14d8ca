package sichuan

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

func TestCheck(t *testing.T) {
	on, off := proto.Bool(true), proto.Bool(false)
	sc := pb.RuleSet_RULE_SET_SICHUAN
	full := func(o Options) *pb.TableSettings {
		return &pb.TableSettings{RuleSet: sc, Rules: pb.RulePreset_RULE_PRESET_SICHUAN_BLOODY_BATTLE, Options: &pb.TableSettings_Sichuan{Sichuan: o.PB()}}
	}
	with := func(f func(*Options)) *pb.TableSettings {
		o := Defaults
		f(&o)
		return full(o)
	}
	for _, tc := range []struct {
		name string
		in   *pb.TableSettings
		want *pb.TableSettings
		err  error
	}{
		{"defaults", &pb.TableSettings{RuleSet: sc}, full(Defaults), nil},
		{"empty options", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{}}}, full(Defaults), nil},
		{"each option", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{
			ExchangeThree: off, VoidFirstDiscard: off, PassedWinLock: off, BloodyRiver: on, FanCap: 5, Hands: 4,
		}}}, full(Options{FanCap: 5, Hands: 4, BloodyRiver: true}), nil},
		{"fan cap 4", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 4}}},
			with(func(o *Options) { o.FanCap = 4 }), nil},
		{"exchange off only", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{ExchangeThree: off}}},
			with(func(o *Options) { o.ExchangeThree = false }), nil},
		{"fan cap 2", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 2}}}, nil, ruleset.ErrBadOption},
		{"fan cap 6", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 6}}}, nil, ruleset.ErrBadOption},
		{"65 hands", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: 65}}}, nil, ruleset.ErrBadOption},
		{"riichi options", &pb.TableSettings{RuleSet: sc, Options: &pb.TableSettings_Riichi{Riichi: &pb.RiichiOptions{}}}, nil, ruleset.ErrBadOption},
		{"riichi preset", &pb.TableSettings{RuleSet: sc, Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}, nil, ruleset.ErrBadOption},
		{"undefined preset", &pb.TableSettings{RuleSet: sc, Rules: 77}, nil, ruleset.ErrMalformed},
		{"riichi table", &pb.TableSettings{}, nil, ruleset.ErrBadOption},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := proto.Clone(tc.in).(*pb.TableSettings)
			err := Check(got)
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("Check = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if !proto.Equal(got, tc.want) {
				t.Fatalf("Check made %v, want %v", got, tc.want)
			}
			again := proto.Clone(got).(*pb.TableSettings)
			if err := Check(again); err != nil || !proto.Equal(again, got) {
				t.Fatalf("Check of completed settings = %v, %v; want them unchanged", again, err)
			}
		})
	}
}
