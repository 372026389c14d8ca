package classical

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// EventToPB is the wire form of an event body numbered seq in its viewer's
// stream and logged at at. Every body type of the engine has a form: a
// missing one is a programming error, reported as such.
func EventToPB(seq uint64, at time.Time, body ct.Body) (*pb.Event, error) {
	out := &pb.Event{Seq: seq, Time: timestamppb.New(at)}
	switch b := body.(type) {
	case ct.HandStarted:
		out.Body = &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{
			Index: uint32(b.Index), RoundWind: WindToPB(b.Round), Number: int32(b.Dealer) + 1, Dealer: uint32(b.Dealer),
			Scores: ints(b.Scores), WallLeft: int32(b.WallLeft), Commitment: hash(b.Commitment),
		}}
	case ct.Dealt:
		out.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: tilesStr(b.Hand)}}
	case ct.BonusSetAside:
		out.Body = &pb.Event_ClassicalBonusSetAside{ClassicalBonusSetAside: &pb.ClassicalBonusSetAside{Seat: uint32(b.Seat), Tile: tileStr(b.Tile)}}
	case ct.Drew:
		d := &pb.Drew{Seat: uint32(b.Seat), Rinshan: b.Replacement, WallLeft: int32(b.WallLeft)}
		if b.Known {
			d.Tile = tileStr(b.Tile)
		}
		out.Body = &pb.Event_Drew{Drew: d}
	case ct.Discarded:
		out.Body = &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: uint32(b.Seat), Tile: tileStr(b.Tile)}}
	case ct.Fishing:
		out.Body = &pb.Event_ClassicalFishing{ClassicalFishing: &pb.ClassicalFishing{Seat: uint32(b.Seat), OriginalCall: b.Original}}
	case ct.ClaimOffer:
		out.Body = &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options, true)}}
	case ct.TurnOffer:
		out.Body = &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options, false)}}
	case ct.Called:
		out.Body = &pb.Event_Called{Called: &pb.Called{Seat: uint32(b.Seat), Meld: MeldToPB(b.Meld)}}
	case ct.Won:
		out.Body = &pb.Event_ClassicalWon{ClassicalWon: &pb.ClassicalWon{
			Seat: uint32(b.Seat), FromSeat: uint32(b.From), SelfDrawn: b.SelfDrawn, RobbedKong: b.RobbedKong,
			Hand: tilesStr(b.Hand), Melds: meldsToPB(b.Melds), WinTile: tileStr(b.WinTile),
		}}
	case ct.HandEnded:
		e := &pb.ClassicalHandEnded{
			Kind: pb.ClassicalHandEndKind(b.Kind), Winner: uint32(b.Winner), Deltas: ints(b.Deltas), Scores: ints(b.Scores),
			WallSeed: hash(b.WallSeed), NextDealer: uint32(b.NextDealer), NextRound: WindToPB(b.NextRound), GameOver: b.GameOver,
		}
		for _, l := range b.Lines {
			e.Lines = append(e.Lines, &pb.ClassicalScoreLine{Score: int32(l.Score), Points: int32(l.Base), Doubles: int32(l.Doubles),
				Special: l.Special.String(), Fishing: l.Fishing})
		}
		for _, h := range b.Hands {
			e.Hands = append(e.Hands, tilesStr(h))
		}
		out.Body = &pb.Event_ClassicalHandEnded{ClassicalHandEnded: e}
	case ct.GameEnded:
		out.Body = &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: ints(b.Scores), Ranks: ints(b.Ranks)}}
	default:
		return nil, fmt.Errorf("event %d: no wire form for %T", seq, body)
	}
	return out, nil
}

// specialOf reads a special hand's name.
func specialOf(field, s string) (jc.Special, error) {
	for sp := jc.NoSpecial; int(sp) <= jc.NumSpecials; sp++ {
		if sp.String() == s {
			return sp, nil
		}
	}
	return 0, malformed(field, "special hand %q", s)
}

// BodyFromPB reads the game event of e. A seat notice is not a game event:
// the caller reads it from e itself. Riichi's fields a classical body does
// not have (honba, dora, the riichi flags) are ignored.
func BodyFromPB(e *pb.Event) (ct.Body, error) {
	var err error
	switch b := e.GetBody().(type) {
	case *pb.Event_RoundStarted:
		r := b.RoundStarted
		out := ct.HandStarted{Index: int(r.GetIndex()), WallLeft: int(r.GetWallLeft())}
		if out.Round, err = windOf("round_started.round_wind", r.GetRoundWind()); err != nil {
			return nil, err
		}
		if out.Dealer, err = seatOf("round_started.dealer", r.GetDealer()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("round_started.scores", r.GetScores()); err != nil {
			return nil, err
		}
		if out.Commitment, err = hashOf("round_started.commitment", r.GetCommitment()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Dealt:
		out := ct.Dealt{}
		if out.Seat, err = seatOf("dealt.seat", b.Dealt.GetSeat()); err != nil {
			return nil, err
		}
		if out.Hand, err = ParseTiles("dealt.hand", b.Dealt.GetHand()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_ClassicalBonusSetAside:
		out := ct.BonusSetAside{}
		if out.Seat, err = seatOf("classical_bonus_set_aside.seat", b.ClassicalBonusSetAside.GetSeat()); err != nil {
			return nil, err
		}
		ts, err := parseBonus("classical_bonus_set_aside.tile", b.ClassicalBonusSetAside.GetTile())
		if err != nil {
			return nil, err
		}
		if len(ts) != 1 {
			return nil, malformed("classical_bonus_set_aside.tile", "%d tiles", len(ts))
		}
		out.Tile = ts[0]
		return out, nil
	case *pb.Event_Drew:
		d := b.Drew
		out := ct.Drew{Replacement: d.GetRinshan(), WallLeft: int(d.GetWallLeft())}
		if out.Seat, err = seatOf("drew.seat", d.GetSeat()); err != nil {
			return nil, err
		}
		if d.GetTile() != "" {
			out.Known = true
			if out.Tile, err = ParseTile("drew.tile", d.GetTile()); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *pb.Event_Discarded:
		out := ct.Discarded{}
		if out.Seat, err = seatOf("discarded.seat", b.Discarded.GetSeat()); err != nil {
			return nil, err
		}
		if out.Tile, err = ParseTile("discarded.tile", b.Discarded.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_ClassicalFishing:
		out := ct.Fishing{Original: b.ClassicalFishing.GetOriginalCall()}
		if out.Seat, err = seatOf("classical_fishing.seat", b.ClassicalFishing.GetSeat()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_ClaimOffer:
		out := ct.ClaimOffer{}
		if out.Seat, err = seatOf("claim_offer.seat", b.ClaimOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("claim_offer.options", b.ClaimOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_TurnOffer:
		out := ct.TurnOffer{}
		if out.Seat, err = seatOf("turn_offer.seat", b.TurnOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("turn_offer.options", b.TurnOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Called:
		out := ct.Called{}
		if out.Seat, err = seatOf("called.seat", b.Called.GetSeat()); err != nil {
			return nil, err
		}
		if b.Called.GetMeld() == nil {
			return nil, malformed("called.meld", "missing")
		}
		if out.Meld, err = MeldFromPB(b.Called.GetMeld()); err != nil {
			return nil, prefix("called", err)
		}
		return out, nil
	case *pb.Event_ClassicalWon:
		w := b.ClassicalWon
		out := ct.Won{SelfDrawn: w.GetSelfDrawn(), RobbedKong: w.GetRobbedKong()}
		if out.Seat, err = seatOf("classical_won.seat", w.GetSeat()); err != nil {
			return nil, err
		}
		if out.From, err = seatOf("classical_won.from_seat", w.GetFromSeat()); err != nil {
			return nil, err
		}
		if out.Hand, err = ParseTiles("classical_won.hand", w.GetHand()); err != nil {
			return nil, err
		}
		if out.Melds, err = meldsFromPB("classical_won.melds", w.GetMelds()); err != nil {
			return nil, err
		}
		if out.WinTile, err = ParseTile("classical_won.win_tile", w.GetWinTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_ClassicalHandEnded:
		h := b.ClassicalHandEnded
		out := ct.HandEnded{GameOver: h.GetGameOver()}
		switch h.GetKind() {
		case pb.ClassicalHandEndKind_CLASSICAL_HAND_END_KIND_MAH_JONG:
			out.Kind = ct.EndMahJong
		case pb.ClassicalHandEndKind_CLASSICAL_HAND_END_KIND_WASH:
			out.Kind = ct.EndWash
		default:
			return nil, malformed("classical_hand_ended.kind", "%v", h.GetKind())
		}
		if out.Winner, err = seatOf("classical_hand_ended.winner", h.GetWinner()); err != nil {
			return nil, err
		}
		if len(h.GetLines()) != ct.NumSeats {
			return nil, malformed("classical_hand_ended.lines", "%d lines", len(h.GetLines()))
		}
		for i, l := range h.GetLines() {
			sp, err := specialOf("classical_hand_ended.lines.special", l.GetSpecial())
			if err != nil {
				return nil, err
			}
			out.Lines[i] = ct.SeatScore{Score: int(l.GetScore()), Base: int(l.GetPoints()), Doubles: int(l.GetDoubles()), Special: sp, Fishing: l.GetFishing()}
		}
		if out.Deltas, err = four("classical_hand_ended.deltas", h.GetDeltas()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("classical_hand_ended.scores", h.GetScores()); err != nil {
			return nil, err
		}
		if len(h.GetHands()) != ct.NumSeats {
			return nil, malformed("classical_hand_ended.hands", "%d hands", len(h.GetHands()))
		}
		for i, s := range h.GetHands() {
			if out.Hands[i], err = ParseTiles("classical_hand_ended.hands", s); err != nil {
				return nil, err
			}
		}
		if out.WallSeed, err = hashOf("classical_hand_ended.wall_seed", h.GetWallSeed()); err != nil {
			return nil, err
		}
		if out.NextDealer, err = seatOf("classical_hand_ended.next_dealer", h.GetNextDealer()); err != nil {
			return nil, err
		}
		if out.NextRound, err = windOf("classical_hand_ended.next_round", h.GetNextRound()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_GameEnded:
		out := ct.GameEnded{}
		if out.Scores, err = four("game_ended.scores", b.GameEnded.GetScores()); err != nil {
			return nil, err
		}
		if out.Ranks, err = four("game_ended.ranks", b.GameEnded.GetRanks()); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, malformed("event.body", "%T is not a classical event", e.GetBody())
}
