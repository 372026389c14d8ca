package server

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
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

// Riichi is the configuration of a riichi server with the real parts: the
// table engine, walls shuffled by package wall, and the tile-efficiency
// bot for empty and abandoned seats. The authority binary and the tests
// start from it and set the rest.
func Riichi() Config {
	return Config{
		NewEngine: func(cfg table.Config) (Engine, error) {
			t, err := table.New(cfg)
			if err != nil {
				return nil, err // a nil *table.Table is not a nil Engine
			}
			return t, nil
		},
		NewWall: wall.New,
		Bot:     func() host.Bot[table.Action, table.View] { return TableBot{Bot: bot.Efficient{}} },
	}
}
