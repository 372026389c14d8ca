package mcr

import (
	"fmt"

	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
)

// TableBot lets the MCR bot (package bot/mcr) play a seat on the host:
// it plays toward the fastest hand that reaches 8 fans and always answers
// with a legal action. One TableBot per table (it keeps buffers).
type TableBot struct {
	p bmcr.Player
}

// Act asks the bot for the seat's action.
func (b *TableBot) Act(seat int, v tbl.View) (tbl.Action, error) {
	a, ok := b.p.Act(&v)
	if !ok {
		return tbl.Action{}, fmt.Errorf("bot: seat %d has nothing to do", seat)
	}
	return a, nil
}
