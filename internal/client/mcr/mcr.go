// Package mcr is the Go client's side of Chinese Official (MCR) tables:
// the client.Game that reads their views and events from the wire
// (package wire/mcr) and a Tracker that keeps a seat's view from its
// events, so that a bot or a board decides and renders with the engine's
// own View. client.GameSession does the rest (streams, resume, sequence
// checks, retries).
package mcr

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	wmcr "github.com/mahjong-authority/authority/internal/wire/mcr"
)

// Session is an MCR session.
type Session = client.GameSession[tbl.Action, tbl.View, tbl.Body, *Tracker]

// Update is an MCR session's update.
type Update = client.GameUpdate[tbl.Body]

// Game is MCR's client.Game.
type Game struct{}

var _ client.Game[tbl.Action, tbl.View, tbl.Body, *Tracker] = Game{}

// NewTracker returns the tracker of a seat, or of a spectator
// (client.Spectator).
func (Game) NewTracker(seat table.Seat) *Tracker { return NewTracker(tbl.Seat(seat)) }

// ViewFromPB reads an MCR view.
func (Game) ViewFromPB(v *pb.View, seq uint64) (tbl.View, error) {
	out, err := wmcr.ViewFromPB(v, seq)
	if err != nil {
		return out, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	return out, nil
}

// BodyFromPB reads an MCR event body.
func (Game) BodyFromPB(e *pb.Event) (tbl.Body, error) {
	b, err := wmcr.BodyFromPB(e)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", client.ErrDecode, err)
	}
	return b, nil
}

// ActionToPB writes an MCR action.
func (Game) ActionToPB(a tbl.Action) *pb.Action { return wmcr.ActionToPB(a) }

// SeatOf is the view's seat.
func (Game) SeatOf(v *tbl.View) table.Seat { return table.Seat(v.Seat) }

// RoundStarts reports whether b starts a hand.
func (Game) RoundStarts(b tbl.Body) bool {
	_, ok := b.(tbl.HandStarted)
	return ok
}

// GameEnds reports whether b ends the game.
func (Game) GameEnds(b tbl.Body) bool {
	_, ok := b.(tbl.GameEnded)
	return ok
}

// Follow returns the session of a seat of an MCR table.
func Follow(c *client.Client, seat client.Seat, opts client.Options) *Session {
	return client.FollowGame[tbl.Action, tbl.View, tbl.Body, *Tracker](c, Game{}, seat, opts)
}

// Watch returns a spectator's session of an MCR table.
func Watch(c *client.Client, tableID string, opts client.Options) *Session {
	return client.WatchGame[tbl.Action, tbl.View, tbl.Body, *Tracker](c, Game{}, tableID, opts)
}
