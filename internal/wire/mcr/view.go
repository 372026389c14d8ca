package mcr

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
)

var phases = map[tbl.Phase]pb.Phase{
	tbl.BetweenHands: pb.Phase_PHASE_BETWEEN_ROUNDS,
	tbl.Turn:         pb.Phase_PHASE_TURN,
	tbl.ClaimWindow:  pb.Phase_PHASE_CLAIM_WINDOW,
	tbl.GameOver:     pb.Phase_PHASE_GAME_OVER,
}

var tablePhases = invert(phases)

// ViewToPB is the wire form of a seat's view: View.number is the hand's
// index in the game, and View.mcr has each seat's wind and flowers.
func ViewToPB(v tbl.View) *pb.View {
	out := &pb.View{
		Seat: uint32(v.Seat), Phase: phases[v.Phase], RoundWind: windToPB(v.Round),
		Number: int32(v.Hand), Dealer: uint32(v.Dealer), Scores: ints(v.Scores),
		WallLeft: int32(v.WallLeft), ToAct: uint32(v.ToAct), Hand: tilesStr(v.Tiles),
		Legal: ActionsToPB(v.Legal), Mcr: &pb.McrView{Winds: windsToPB(v.Winds)},
	}
	if v.HasDrawn {
		out.Drawn = v.Drawn.String()
	}
	for _, s := range v.Seats {
		sv := &pb.SeatView{Melds: meldsToPB(s.Melds), HandSize: int32(s.HandSize), Score: int32(s.Score)}
		for _, d := range s.Discards {
			sv.Discards = append(sv.Discards, &pb.DiscardView{Tile: d.Tile.String(), Called: d.Called})
		}
		out.Seats = append(out.Seats, sv)
		out.Mcr.Flowers = append(out.Mcr.Flowers, flowersStr(s.Flowers))
	}
	return out
}

// ViewFromPB reads a seat's view as of seq (the snapshot's).
func ViewFromPB(v *pb.View, seq uint64) (tbl.View, error) {
	var out tbl.View
	var err error
	if out.Seat, err = seatOf("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	var ok bool
	if out.Phase, ok = tablePhases[v.GetPhase()]; !ok {
		return out, malformed("view.phase", "%v", v.GetPhase())
	}
	if out.Round, err = windOf("view.round_wind", v.GetRoundWind()); err != nil {
		return out, err
	}
	if out.Dealer, err = seatOf("view.dealer", v.GetDealer()); err != nil {
		return out, err
	}
	if out.ToAct, err = seatOf("view.to_act", v.GetToAct()); err != nil {
		return out, err
	}
	if v.GetNumber() < 0 || v.GetNumber() >= tbl.MaxHands {
		return out, malformed("view.number", "%d", v.GetNumber())
	}
	out.Hand, out.WallLeft, out.Seq = int(v.GetNumber()), int(v.GetWallLeft()), seq
	if out.Scores, err = four("view.scores", v.GetScores()); err != nil {
		return out, err
	}
	if out.Tiles, err = parseTiles("view.hand", v.GetHand(), false); err != nil {
		return out, err
	}
	if v.GetDrawn() != "" {
		if out.Drawn, err = ParseTile("view.drawn", v.GetDrawn()); err != nil {
			return out, err
		}
		out.HasDrawn = true
	}
	if out.Legal, err = actionsFromPB("view.legal", v.GetLegal(), out.Seat); err != nil {
		return out, err
	}
	if out.Winds, err = windsOf("view.mcr.winds", v.GetMcr().GetWinds()); err != nil {
		return out, err
	}
	if len(v.GetSeats()) != tbl.NumSeats {
		return out, malformed("view.seats", "%d seats, want %d", len(v.GetSeats()), tbl.NumSeats)
	}
	if len(v.GetMcr().GetFlowers()) != tbl.NumSeats {
		return out, malformed("view.mcr.flowers", "%d seats, want %d", len(v.GetMcr().GetFlowers()), tbl.NumSeats)
	}
	for i, sv := range v.GetSeats() {
		s := &out.Seats[i]
		s.HandSize, s.Score = int(sv.GetHandSize()), int(sv.GetScore())
		if s.Melds, err = meldsFromPB("view.seats.melds", sv.GetMelds()); err != nil {
			return out, err
		}
		for _, d := range sv.GetDiscards() {
			x, err := ParseTile("view.seats.discards", d.GetTile())
			if err != nil {
				return out, err
			}
			s.Discards = append(s.Discards, tbl.DiscardView{Tile: x, Called: d.GetCalled()})
		}
		if s.Flowers, err = parseTiles("view.mcr.flowers", v.GetMcr().GetFlowers()[i], true); err != nil {
			return out, err
		}
		for _, f := range s.Flowers {
			if !f.Kind().IsFlower() {
				return out, malformed("view.mcr.flowers", "%v is not a flower", f)
			}
		}
	}
	return out, nil
}
