package servertest

import pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"

// Take decides a riichi seat's action from what its stream brought, as
// the simplest legal player does knowing only its events: it discards the
// tile it drew when its turn is offered (always legal), wins by ron when
// offered and passes every other claim. *drawn keeps the seat's last drawn
// tile between calls, a snapshot's included (a standing offer comes again
// as the event after a snapshot). It returns the action, nil when the
// seat has nothing to do, and the seq of r: the last_seq to act with.
//
// The tests and benchmarks of the server play seats with it on every
// transport (StreamEvents, Multiplex), so that what they measure or check
// is the server's part, the same decisions every time.
func Take(seat uint32, drawn *string, r *pb.StreamEventsResponse) (*pb.Action, uint64) {
	if s := r.GetSnapshot(); s != nil {
		if d := s.GetView().GetDrawn(); d != "" {
			*drawn = d
		}
		return nil, s.GetSeq()
	}
	ev := r.GetEvent()
	if d := ev.GetDrew(); d.GetTile() != "" && d.GetSeat() == seat {
		*drawn = d.GetTile()
	}
	var act *pb.Action
	if o := ev.GetTurnOffer(); o != nil && o.GetSeat() == seat {
		act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: *drawn}
	}
	if o := ev.GetClaimOffer(); o != nil && o.GetSeat() == seat {
		act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
		for _, opt := range o.GetOptions() {
			if opt.GetType() == pb.ActionType_ACTION_TYPE_RON {
				act = opt
			}
		}
	}
	return act, ev.GetSeq()
}
