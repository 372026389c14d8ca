package wire_test

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/wire"
)

// A client's play, checked and read for seat 1; cards in any order.
func ExampleActionFromPB() {
	a, err := wire.ActionFromPB(&pb.Action{Type: pb.ActionType_ACTION_TYPE_PLAY, Cards: "4433X3"}, 1)
	fmt.Println(a, err)
	_, err = wire.ActionFromPB(&pb.Action{Type: pb.ActionType_ACTION_TYPE_BID, Bid: 4}, 1)
	fmt.Println(err)
	// Output:
	// 1 play 33344X <nil>
	// action.bid: 4, want 1, 2 or 3: malformed action
}
