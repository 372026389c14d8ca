package riichi_test

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
)

// A rule set as the server uses it: Check completes a table's settings,
// Open starts its host, and its Tables take the table in the API's terms.
// The authority binary hands server.New a list of such rule sets.
func Example() {
	rs := riichi.New(riichi.Standard())
	set := &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}
	if err := rs.Check(set); err != nil {
		panic(err)
	}
	fmt.Println(set.GetRuleSet(), set.GetRules(), set.GetRiichi() != nil)

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
	// RULE_SET_RIICHI RULE_PRESET_TENHOU_TONPUU true
	// 4 seats, stored as riichi
}
