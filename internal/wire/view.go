package wire

import (
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

var phases = map[table.Phase]pb.Phase{
	table.BetweenRounds: pb.Phase_PHASE_BETWEEN_ROUNDS,
	table.Turn:          pb.Phase_PHASE_TURN,
	table.ClaimWindow:   pb.Phase_PHASE_CLAIM_WINDOW,
	table.GameOver:      pb.Phase_PHASE_GAME_OVER,
}

var tablePhases = invert(phases)

// ViewToPB is the wire form of a seat's view (the snapshot that starts its
// stream). Its Seq is not part of it: the snapshot carries the viewer's own.
func ViewToPB(v table.View) *pb.View {
	out := &pb.View{
		Seat:         uint32(v.Seat),
		Phase:        phases[v.Phase],
		RoundWind:    windToPB(v.RoundWind),
		Number:       int32(v.Number),
		Dealer:       uint32(v.Dealer),
		Honba:        int32(v.Honba),
		RiichiSticks: int32(v.RiichiSticks),
		Scores:       ints(v.Scores),
		Dora:         tile.FormatInOrder(v.Dora),
		WallLeft:     int32(v.WallLeft),
		ToAct:        uint32(v.ToAct),
		Hand:         tilesStr(v.Hand),
		Legal:        ActionsToPB(v.Legal),
	}
	if v.HasDrawn {
		out.Drawn = v.Drawn.String()
	}
	for _, s := range v.Seats {
		sv := &pb.SeatView{Melds: meldsToPB(s.Melds), HandSize: int32(s.HandSize), Riichi: s.Riichi, Score: int32(s.Score)}
		for _, d := range s.Discards {
			sv.Discards = append(sv.Discards, &pb.DiscardView{Tile: d.Tile.String(), Tsumogiri: d.Tsumogiri, Riichi: d.Riichi, Called: d.Called})
		}
		out.Seats = append(out.Seats, sv)
	}
	return out
}

// ViewFromPB reads a seat's view as of seq (the snapshot's).
func ViewFromPB(v *pb.View, seq uint64) (table.View, error) {
	var out table.View
	var err error
	if out.Seat, err = seatOf("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	var ok bool
	if out.Phase, ok = tablePhases[v.GetPhase()]; !ok {
		return out, malformed("view.phase", "%v", v.GetPhase())
	}
	if out.RoundWind, err = windOf("view.round_wind", v.GetRoundWind()); err != nil {
		return out, err
	}
	if out.Dealer, err = seatOf("view.dealer", v.GetDealer()); err != nil {
		return out, err
	}
	if out.ToAct, err = seatOf("view.to_act", v.GetToAct()); err != nil {
		return out, err
	}
	out.Number, out.Honba, out.RiichiSticks = int(v.GetNumber()), int(v.GetHonba()), int(v.GetRiichiSticks())
	out.WallLeft, out.Seq = int(v.GetWallLeft()), seq
	if out.Scores, err = four("view.scores", v.GetScores()); err != nil {
		return out, err
	}
	if out.Dora, err = ParseTiles("view.dora", v.GetDora()); err != nil {
		return out, err
	}
	if out.Hand, err = ParseTiles("view.hand", v.GetHand()); err != nil {
		return out, err
	}
	if out.Drawn, out.HasDrawn, err = optTile("view.drawn", v.GetDrawn()); err != nil {
		return out, err
	}
	if out.Legal, err = actionsFromPB("view.legal", v.GetLegal(), out.Seat); err != nil {
		return out, err
	}
	if len(v.GetSeats()) != table.NumSeats {
		return out, malformed("view.seats", "%d seats, want %d", len(v.GetSeats()), table.NumSeats)
	}
	for i, sv := range v.GetSeats() {
		s := &out.Seats[i]
		s.HandSize, s.Riichi, s.Score = int(sv.GetHandSize()), sv.GetRiichi(), int(sv.GetScore())
		if s.Melds, err = meldsFromPB("view.seats.melds", sv.GetMelds()); err != nil {
			return out, err
		}
		for _, d := range sv.GetDiscards() {
			x, err := ParseTile("view.seats.discards", d.GetTile())
			if err != nil {
				return out, err
			}
			s.Discards = append(s.Discards, table.DiscardView{Tile: x, Tsumogiri: d.GetTsumogiri(), Riichi: d.GetRiichi(), Called: d.GetCalled()})
		}
	}
	return out, nil
}
