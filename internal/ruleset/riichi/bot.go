package riichi

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
)

// TableBot lets a bot of package bot play a seat on the host.
type TableBot struct {
	Bot bot.Bot
}

// Act asks the bot for the seat's action.
func (b TableBot) Act(seat int, v table.View) (table.Action, error) {
	a, ok := b.Bot.Act(&v)
	if !ok {
		return table.Action{}, fmt.Errorf("bot: seat %d has nothing to do", seat)
	}
	return a, nil
}
