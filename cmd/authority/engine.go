package main

import (
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

// The embedded defaults: the real table engine, walls shuffled by package
// wall, and the tile-efficiency bot for empty and abandoned seats.

func newEngine(cfg table.Config) (server.Engine, error) {
	t, err := table.New(cfg)
	if err != nil {
		return nil, err
	}
	return t, nil
}

var newWall server.NewWall = wall.New

func newBot() host.Bot[table.Action, table.View] { return server.TableBot{Bot: bot.Efficient{}} }
