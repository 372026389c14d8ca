package classical

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

var phases = [...]pb.Phase{
	ct.BetweenHands: pb.Phase_PHASE_BETWEEN_ROUNDS,
	ct.Turn:         pb.Phase_PHASE_TURN,
	ct.ClaimWindow:  pb.Phase_PHASE_CLAIM_WINDOW,
	ct.GameOver:     pb.Phase_PHASE_GAME_OVER,
}

// PhaseToPB is the wire form of a phase.
func PhaseToPB(p ct.Phase) pb.Phase {
	if int(p) < len(phases) {
		return phases[p]
	}
	return pb.Phase_PHASE_UNSPECIFIED
}

func phaseOf(field string, p pb.Phase) (ct.Phase, error) {
	for i, x := range phases {
		if x == p && i != 0 {
			return ct.Phase(i), nil
		}
	}
	return 0, malformed(field, "phase %v", p)
}

// ViewToPB is the wire form of a seat's view: View's common fields, and
// the classical part (bonus tiles, fishing, the claim window's tile) in
// View.classical.
func ViewToPB(v ct.View) *pb.View {
	out := &pb.View{
		Seat: uint32(v.Seat), Phase: PhaseToPB(v.Phase), RoundWind: WindToPB(v.Round), Number: int32(v.Dealer) + 1,
		Dealer: uint32(v.Dealer), Scores: ints(v.Scores), WallLeft: int32(v.WallLeft), ToAct: uint32(v.ToAct),
		Hand: tilesStr(v.Tiles), Legal: ActionsToPB(v.Legal, v.Phase == ct.ClaimWindow),
	}
	if v.HasDrawn {
		out.Drawn = tileStr(v.Drawn)
	}
	c := &pb.ClassicalView{Index: uint32(v.Index)}
	if v.Phase == ct.ClaimWindow {
		c.ClaimTile, c.ClaimFrom = tileStr(v.ClaimTile), uint32(v.ClaimFrom)
	}
	for _, s := range v.Seats {
		sv := &pb.SeatView{Melds: meldsToPB(s.Melds), HandSize: int32(s.HandSize), Score: int32(s.Score)}
		for _, d := range s.Discards {
			sv.Discards = append(sv.Discards, &pb.DiscardView{Tile: tileStr(d.Tile), Called: d.Claimed})
		}
		out.Seats = append(out.Seats, sv)
		c.Seats = append(c.Seats, &pb.ClassicalSeatView{Bonus: tilesStr(s.Bonus), Fishing: s.Fishing})
	}
	out.Classical = c
	return out
}

// ViewFromPB reads a seat's view (the Go client's side of ViewToPB).
func ViewFromPB(v *pb.View) (ct.View, error) {
	var out ct.View
	var err error
	if out.Seat, err = seatOf("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	if out.Phase, err = phaseOf("view.phase", v.GetPhase()); err != nil {
		return out, err
	}
	if out.Round, err = windOf("view.round_wind", v.GetRoundWind()); err != nil {
		return out, err
	}
	if out.Dealer, err = seatOf("view.dealer", v.GetDealer()); err != nil {
		return out, err
	}
	if out.Scores, err = four("view.scores", v.GetScores()); err != nil {
		return out, err
	}
	out.WallLeft = int(v.GetWallLeft())
	if out.ToAct, err = seatOf("view.to_act", v.GetToAct()); err != nil {
		return out, err
	}
	if out.Tiles, err = ParseTiles("view.hand", v.GetHand()); err != nil {
		return out, err
	}
	if v.GetDrawn() != "" {
		out.HasDrawn = true
		if out.Drawn, err = ParseTile("view.drawn", v.GetDrawn()); err != nil {
			return out, err
		}
	}
	if out.Legal, err = actionsFromPB("view.legal", v.GetLegal(), out.Seat); err != nil {
		return out, err
	}
	c := v.GetClassical()
	if c == nil {
		return out, malformed("view.classical", "missing")
	}
	out.Index = int(c.GetIndex())
	if out.ClaimTile, err = optTile("view.classical.claim_tile", c.GetClaimTile()); err != nil {
		return out, err
	}
	if out.ClaimFrom, err = seatOf("view.classical.claim_from", c.GetClaimFrom()); err != nil {
		return out, err
	}
	if len(v.GetSeats()) != ct.NumSeats || len(c.GetSeats()) != ct.NumSeats {
		return out, malformed("view.seats", "%d and %d seats", len(v.GetSeats()), len(c.GetSeats()))
	}
	for i, s := range v.GetSeats() {
		sv := &out.Seats[i]
		sv.HandSize, sv.Score = int(s.GetHandSize()), int(s.GetScore())
		if sv.Melds, err = meldsFromPB("view.seats.melds", s.GetMelds()); err != nil {
			return out, err
		}
		for _, d := range s.GetDiscards() {
			x, err := ParseTile("view.seats.discards.tile", d.GetTile())
			if err != nil {
				return out, err
			}
			sv.Discards = append(sv.Discards, ct.DiscardView{Tile: x, Claimed: d.GetCalled()})
		}
		cs := c.GetSeats()[i]
		sv.Fishing = cs.GetFishing()
		if sv.Bonus, err = parseBonus("view.classical.seats.bonus", cs.GetBonus()); err != nil {
			return out, err
		}
	}
	return out, nil
}
