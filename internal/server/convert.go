package server

import (
	"fmt"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wire"
)

// The wire forms of the table's types are package wire's, shared with the
// Go client; what is the server's own is here: the checks of a client's
// action beyond its conversion, and the host's seat notices.

// actionFromPB checks a client's action and returns it for seat. The fields
// an action type does not use must be empty, so that a retried request with
// another payload is never mistaken for the same one.
func actionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	if a == nil {
		return table.Action{}, fieldError("action", ErrMalformed)
	}
	typ, ok := wire.ActionType(a.GetType())
	if !ok {
		return table.Action{}, fieldError("action.type", fmt.Errorf("%v: %w", a.GetType(), ErrMalformed))
	}
	if a.GetTsumogiri() && typ != table.Discard && typ != table.Riichi {
		return table.Action{}, fieldError("action.tsumogiri", fmt.Errorf("unused by %v: %w", typ, ErrMalformed))
	}
	out, err := wire.ActionFromPB(a, seat) // bad tiles wrap ErrBadTile, which is wire.ErrBadTile
	if err != nil {
		return table.Action{}, err
	}
	switch typ {
	case table.Discard, table.Riichi, table.ClosedKan, table.AddedKan:
		if a.GetTiles() != "" {
			return table.Action{}, fieldError("action.tiles", fmt.Errorf("unused by %v: %w", typ, ErrMalformed))
		}
	case table.Chi, table.Pon:
		if a.GetTile() != "" {
			return table.Action{}, fieldError("action.tile", fmt.Errorf("unused by %v: %w", typ, ErrMalformed))
		}
	default:
		if a.GetTile() != "" || a.GetTiles() != "" {
			return table.Action{}, fieldError("action", fmt.Errorf("%v takes no tiles: %w", typ, ErrMalformed))
		}
	}
	return out, nil
}

// eventToPB converts an event of the log: a seat notice here, a game event
// by package wire.
func eventToPB(e *host.Event[table.Body]) (*pb.Event, error) {
	if n := e.Notice; n != nil {
		return &pb.Event{Seq: e.Seq, Time: timestamppb.New(e.At), Body: &pb.Event_SeatNotice{SeatNotice: noticeToPB(n)}}, nil
	}
	return wire.EventToPB(e.Seq, e.At, e.Body)
}

var noticeKinds = map[host.NoticeKind]pb.SeatNotice_Kind{
	host.NoticeJoined:         pb.SeatNotice_KIND_JOINED,
	host.NoticeLeft:           pb.SeatNotice_KIND_LEFT,
	host.NoticeBotTookOver:    pb.SeatNotice_KIND_BOT_TOOK_OVER,
	host.NoticePlayerReturned: pb.SeatNotice_KIND_PLAYER_RETURNED,
	host.NoticeTimedOut:       pb.SeatNotice_KIND_TIMED_OUT,
	host.NoticeStarted:        pb.SeatNotice_KIND_TABLE_STARTED,
}

func noticeToPB(n *host.Notice) *pb.SeatNotice {
	out := &pb.SeatNotice{Kind: noticeKinds[n.Kind], Name: n.Name}
	if n.Seat >= 0 {
		out.Seat = uint32(n.Seat)
	}
	return out
}
