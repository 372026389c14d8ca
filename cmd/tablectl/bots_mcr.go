package main

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/client"
	cmcr "github.com/mahjong-authority/authority/internal/client/mcr"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
)

// mcrBots plays Chinese Official games with the MCR bot.
var mcrBots = botRules[tmcr.Action, tmcr.View, tmcr.Body, *cmcr.Tracker]{
	follow: func(c *client.Client, _ *pb.Table, st client.Seat, opts client.Options) (*cmcr.Session, error) {
		return cmcr.Follow(c, st, opts), nil
	},
	newBot: func(botsOptions, int, int, int) decider[tmcr.Action, tmcr.View] { return &bmcr.Player{} },
	tally: func(r *seatResult, b tmcr.Body) {
		switch e := b.(type) {
		case tmcr.HandEnded:
			r.rounds++
		case tmcr.GameEnded:
			r.final = e.Scores
		}
	},
	rounds: "hands", scores: "scores",
}
