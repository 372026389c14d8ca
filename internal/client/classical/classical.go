// Package classical is the classical side of the Go client (package
// client): Game reads the wire into the engine's types (package
// wire/classical) and keeps a seat's view with a Tracker, so that
// client.FollowGame and client.WatchGame give classical sessions whose
// views bots (package bot/classical) and renderers read as they read the
// engine's own.
package classical

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	wcl "github.com/mahjong-authority/authority/internal/wire/classical"
)

// Game is the classical client.Game.
type Game struct{}

var _ client.Game[ct.Action, ct.View, ct.Body, *Tracker] = Game{}

// Session is a classical session.
type Session = client.GameSession[ct.Action, ct.View, ct.Body, *Tracker]

// Update is a classical session's update.
type Update = client.GameUpdate[ct.Body]

// Follow returns the classical session of a seat.
func Follow(c *client.Client, seat client.Seat, opts client.Options) *Session {
	return client.FollowGame[ct.Action, ct.View, ct.Body, *Tracker](c, Game{}, seat, opts)
}

// Watch returns a spectator's classical session of a table.
func Watch(c *client.Client, tableID string, opts client.Options) *Session {
	return client.WatchGame[ct.Action, ct.View, ct.Body, *Tracker](c, Game{}, tableID, opts)
}

// NewTracker returns the tracker of a seat, or of a spectator
// (client.Spectator), before the first deal.
func (Game) NewTracker(seat table.Seat) *Tracker { return NewTracker(ct.Seat(seat)) }

// ViewFromPB reads a seat's snapshot.
func (Game) ViewFromPB(v *pb.View, seq uint64) (ct.View, error) {
	out, err := wcl.ViewFromPB(v)
	if err != nil {
		return out, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	out.Seq = seq
	return out, nil
}

// BodyFromPB reads a game event body.
func (Game) BodyFromPB(e *pb.Event) (ct.Body, error) {
	b, err := wcl.BodyFromPB(e)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	return b, nil
}

// ActionToPB writes an action; Mah Jong goes as TSUMO, which the server
// takes for a claim in a window too.
func (Game) ActionToPB(a ct.Action) *pb.Action { return wcl.ActionToPB(a, false) }

// SeatOf is the view's seat.
func (Game) SeatOf(v *ct.View) table.Seat { return table.Seat(v.Seat) }

// RoundStarts reports whether b starts a hand.
func (Game) RoundStarts(b ct.Body) bool {
	_, ok := b.(ct.HandStarted)
	return ok
}

// GameEnds reports whether b ends the game.
func (Game) GameEnds(b ct.Body) bool {
	_, ok := b.(ct.GameEnded)
	return ok
}
