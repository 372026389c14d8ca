package sichuan

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

var phases = map[sc.Phase]pb.Phase{
	sc.BetweenHands: pb.Phase_PHASE_BETWEEN_ROUNDS,
	sc.Exchanging:   pb.Phase_PHASE_SICHUAN_EXCHANGING,
	sc.ChoosingVoid: pb.Phase_PHASE_SICHUAN_CHOOSING_VOID,
	sc.Turn:         pb.Phase_PHASE_TURN,
	sc.ClaimWindow:  pb.Phase_PHASE_CLAIM_WINDOW,
	sc.MatchOver:    pb.Phase_PHASE_GAME_OVER,
}

var scPhases = invert(phases)

// ViewToPB is the wire form of a seat's view (the snapshot that starts its
// stream): View's common fields, and the Sichuan ones in View.sichuan. Its
// Seq is not part of it: the snapshot carries the viewer's own.
func ViewToPB(v sc.View) *pb.View {
	out := &pb.View{
		Seat: uint32(v.Seat), Phase: phases[v.Phase], Dealer: uint32(v.Dealer), Scores: ints(v.Scores),
		WallLeft: int32(v.WallLeft), ToAct: uint32(v.ToAct), Hand: tilesStr(v.Tiles), Legal: ActionsToPB(v.Legal),
	}
	if v.HasDrawn {
		out.Drawn = v.Drawn.String()
	}
	s := &pb.SichuanView{Index: uint32(v.Index), Direction: pb.SichuanDirection(v.Direction), Revealed: v.Revealed}
	if v.Chose {
		s.Gave = tilesStr(v.Gave[:])
		if v.Direction != 0 {
			s.Got = tilesStr(v.Got[:])
		}
	}
	if v.VoidSet {
		s.Void = SuitToPB(v.Void)
	}
	for _, sv := range v.Seats {
		p := &pb.SeatView{Melds: meldsToPB(sv.Melds), HandSize: int32(sv.HandSize), Score: int32(sv.Score)}
		for _, d := range sv.Discards {
			p.Discards = append(p.Discards, &pb.DiscardView{Tile: d.Tile.String(), Called: d.Called})
		}
		out.Seats = append(out.Seats, p)
		ss := &pb.SichuanSeatView{Won: tilesStr(sv.Won), Left: sv.Left, KanMoney: int32(sv.KanMoney)}
		if v.Revealed {
			ss.Void = SuitToPB(sv.Void)
		}
		s.Seats = append(s.Seats, ss)
	}
	out.Sichuan = s
	return out
}

// ViewFromPB reads a seat's view as of seq (the snapshot's).
func ViewFromPB(v *pb.View, seq uint64) (sc.View, error) {
	var out sc.View
	var err error
	if out.Seat, err = seatOf("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	var ok bool
	if out.Phase, ok = scPhases[v.GetPhase()]; !ok {
		return out, malformed("view.phase", "%v", v.GetPhase())
	}
	if out.Dealer, err = seatOf("view.dealer", v.GetDealer()); err != nil {
		return out, err
	}
	if out.ToAct, err = seatOf("view.to_act", v.GetToAct()); err != nil {
		return out, err
	}
	out.WallLeft, out.Seq = int(v.GetWallLeft()), seq
	if out.Scores, err = four("view.scores", v.GetScores()); err != nil {
		return out, err
	}
	if out.Tiles, err = ParseTiles("view.hand", v.GetHand()); err != nil {
		return out, err
	}
	if out.Drawn, out.HasDrawn, err = optTile("view.drawn", v.GetDrawn()); err != nil {
		return out, err
	}
	if out.Legal, err = actionsFromPB("view.legal", v.GetLegal(), out.Seat); err != nil {
		return out, err
	}
	s := v.GetSichuan()
	if s == nil {
		return out, malformed("view.sichuan", "missing")
	}
	out.Index, out.Revealed = int(s.GetIndex()), s.GetRevealed()
	if s.GetDirection() != pb.SichuanDirection_SICHUAN_DIRECTION_UNSPECIFIED {
		if out.Direction, err = directionOf("view.sichuan.direction", s.GetDirection()); err != nil {
			return out, err
		}
	}
	if s.GetGave() != "" {
		out.Chose = true
		if out.Gave, err = three("view.sichuan.gave", s.GetGave()); err != nil {
			return out, err
		}
	}
	if s.GetGot() != "" {
		if out.Got, err = three("view.sichuan.got", s.GetGot()); err != nil {
			return out, err
		}
	}
	if s.GetVoid() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED {
		out.VoidSet = true
		if out.Void, err = SuitFromPB("view.sichuan.void", s.GetVoid()); err != nil {
			return out, err
		}
	}
	if len(v.GetSeats()) != sc.NumSeats || len(s.GetSeats()) != sc.NumSeats {
		return out, malformed("view.seats", "%d and %d seats, want %d", len(v.GetSeats()), len(s.GetSeats()), sc.NumSeats)
	}
	for i, sv := range v.GetSeats() {
		o := &out.Seats[i]
		o.HandSize, o.Score = int(sv.GetHandSize()), int(sv.GetScore())
		if o.Melds, err = meldsFromPB("view.seats.melds", sv.GetMelds()); err != nil {
			return out, err
		}
		for _, d := range sv.GetDiscards() {
			x, err := ParseTile("view.seats.discards", d.GetTile())
			if err != nil {
				return out, err
			}
			o.Discards = append(o.Discards, sc.DiscardView{Tile: x, Called: d.GetCalled()})
		}
		ss := s.GetSeats()[i]
		o.Left, o.KanMoney = ss.GetLeft(), int(ss.GetKanMoney())
		if o.Won, err = ParseTiles("view.sichuan.seats.won", ss.GetWon()); err != nil {
			return out, err
		}
		if out.Revealed {
			if o.Void, err = SuitFromPB("view.sichuan.seats.void", ss.GetVoid()); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}
