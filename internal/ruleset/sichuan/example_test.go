package sichuan_test

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
)

// The Sichuan rule set as the server uses it: Check completes a table's
// settings with every option's default, Open starts its host.
func Example() {
	rs := sichuan.New(sichuan.Standard())
	set := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_SICHUAN}
	if err := rs.Check(set); err != nil {
		panic(err)
	}
	o := set.GetSichuan()
	fmt.Println(set.GetRules(), o.GetExchangeThree(), o.GetFanCap(), o.GetHands())

	tables, err := rs.Open(ruleset.Hosting{Count: &host.Count{}})
	if err != nil {
		panic(err)
	}
	defer tables.Close()
	raw, _ := proto.Marshal(set)
	in, _, err := tables.Create(context.Background(), host.Settings{}, ruleset.Meta{Settings: raw})
	if err != nil {
		panic(err)
	}
	m, _ := ruleset.DecodeMeta(in.Meta)
	fmt.Println(len(in.Seats), "seats, stored as", m.RuleSet)
	// Output:
	// RULE_PRESET_SICHUAN_BLOODY_BATTLE true 3 8
	// 4 seats, stored as sichuan
}
