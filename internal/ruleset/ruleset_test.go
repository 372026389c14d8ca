package ruleset_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

func TestMetaRoundTrip(t *testing.T) {
	set := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{FanCap: 4}}}
	raw, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	m := ruleset.Meta{Settings: raw, RuleSet: "sichuan", Seeded: true}
	m.Seed[0], m.Commitment[31] = 1, 2
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ruleset.DecodeMeta(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.TableSettings()
	if err != nil || back.RuleSet != "sichuan" || back.Seed != m.Seed || back.Commitment != m.Commitment || !back.Seeded || !proto.Equal(got, set) {
		t.Fatalf("meta %+v came back as %+v (settings %v, %v)", m, back, got, err)
	}
	if _, err := ruleset.DecodeMeta([]byte("{")); err == nil {
		t.Fatal("DecodeMeta of a broken meta: no error")
	}
	if _, err := (ruleset.Meta{Settings: []byte{0xff}}).TableSettings(); err == nil {
		t.Fatal("TableSettings of broken settings: no error")
	}
}

func TestName(t *testing.T) {
	for id, want := range map[pb.RuleSet]string{
		pb.RuleSet_RULE_SET_UNSPECIFIED: "riichi",
		pb.RuleSet_RULE_SET_RIICHI:      "riichi",
		pb.RuleSet_RULE_SET_SICHUAN:     "sichuan",
		pb.RuleSet_RULE_SET_MCR:         "mcr",
		pb.RuleSet(99):                  "99",
	} {
		if got := ruleset.Name(id); got != want {
			t.Errorf("Name(%v) = %q, want %q", id, got, want)
		}
	}
}
