// Package sichuan is the Sichuan side of the Go client (package client):
// Game reads the wire into the engine's types (package wire/sichuan) and
// keeps a seat's view with a Tracker, so that client.FollowGame and
// client.WatchGame give Sichuan sessions whose views bots (package
// bot/sichuan) and renderers read as they read the engine's own.
package sichuan

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

// Game is Sichuan's client.Game for a table of Rules (its options, from
// the table's settings: RulesOf).
type Game struct {
	Rules sc.Rules
}

var _ client.Game[sc.Action, sc.View, sc.Body, *Tracker] = Game{}

// Session is a Sichuan session.
type Session = client.GameSession[sc.Action, sc.View, sc.Body, *Tracker]

// Update is a Sichuan session's update.
type Update = client.GameUpdate[sc.Body]

// Follow returns the Sichuan session of a seat of a table of game g.
func Follow(c *client.Client, g Game, seat client.Seat, opts client.Options) *Session {
	return client.FollowGame[sc.Action, sc.View, sc.Body, *Tracker](c, g, seat, opts)
}

// Watch returns a spectator's Sichuan session of a table of game g.
func Watch(c *client.Client, g Game, tableID string, opts client.Options) *Session {
	return client.WatchGame[sc.Action, sc.View, sc.Body, *Tracker](c, g, tableID, opts)
}

// RulesOf reads a Sichuan table's rules from its settings.
func RulesOf(set *pb.TableSettings) (sc.Rules, error) {
	if set.GetRuleSet() != pb.RuleSet_RULE_SET_SICHUAN {
		return sc.Rules{}, fmt.Errorf("%w: table of %v, not Sichuan", client.ErrDecode, set.GetRuleSet())
	}
	o := set.GetSichuan()
	r := sc.Default
	if o == nil {
		return r, nil
	}
	r.Exchange, r.VoidFirst, r.PassLock, r.BloodyRiver = o.GetExchangeThree(), o.GetVoidFirstDiscard(), o.GetPassedWinLock(), o.GetBloodyRiver()
	if o.ExchangeThree == nil {
		r.Exchange = sc.Default.Exchange
	}
	if o.VoidFirstDiscard == nil {
		r.VoidFirst = sc.Default.VoidFirst
	}
	if o.PassedWinLock == nil {
		r.PassLock = sc.Default.PassLock
	}
	if c := o.GetFanCap(); c != 0 {
		r.FanCap = int(c)
	}
	if h := o.GetHands(); h != 0 {
		r.Hands = int(h)
	}
	return r, nil
}

// NewTracker returns the tracker of a seat, or of a spectator
// (client.Spectator), before the first deal.
func (g Game) NewTracker(seat table.Seat) *Tracker { return NewTracker(sc.Seat(seat), g.Rules) }

// ViewFromPB reads a seat's snapshot.
func (Game) ViewFromPB(v *pb.View, seq uint64) (sc.View, error) {
	out, err := wsc.ViewFromPB(v, seq)
	if err != nil {
		return out, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	return out, nil
}

// BodyFromPB reads a game event body.
func (Game) BodyFromPB(e *pb.Event) (sc.Body, error) {
	b, err := wsc.BodyFromPB(e)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	return b, nil
}

// ActionToPB writes an action.
func (Game) ActionToPB(a sc.Action) *pb.Action { return wsc.ActionToPB(a) }

// SeatOf is the view's seat.
func (Game) SeatOf(v *sc.View) table.Seat { return table.Seat(v.Seat) }

// RoundStarts reports whether b starts a hand.
func (Game) RoundStarts(b sc.Body) bool {
	_, ok := b.(sc.HandStarted)
	return ok
}

// GameEnds reports whether b ends the match.
func (Game) GameEnds(b sc.Body) bool {
	_, ok := b.(sc.MatchEnded)
	return ok
}
