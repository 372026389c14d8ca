package sichuan

import (
	"fmt"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// TableBot lets the bot of package bot/sichuan play a seat on the host.
type TableBot struct {
	Bot botsc.Efficient
}

// Act asks the bot for the seat's action.
func (b TableBot) Act(seat int, v sc.View) (sc.Action, error) {
	a, ok := b.Bot.Act(&v)
	if !ok {
		return sc.Action{}, fmt.Errorf("bot: seat %d has nothing to do", seat)
	}
	return a, nil
}
