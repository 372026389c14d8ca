package sichuan

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// EventToPB is the wire form of an event body numbered seq in its viewer's
// stream and logged at at. Every body type of the engine has a form: a
// missing one is a programming error, reported as such. The public copies
// of a seat's exchange and void choice carry no tiles and no suit.
func EventToPB(seq uint64, at time.Time, body sc.Body) (*pb.Event, error) {
	out := &pb.Event{Seq: seq, Time: timestamppb.New(at)}
	switch b := body.(type) {
	case sc.HandStarted:
		out.Body = &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{
			Index: uint32(b.Index), Dealer: uint32(b.Dealer), Scores: ints(b.Scores),
			WallLeft: int32(b.WallLeft), Commitment: hash(b.Commitment),
		}}
	case sc.Dealt:
		out.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: tilesStr(b.Hand)}}
	case sc.ExchangeChosen:
		e := &pb.SichuanExchangeChosen{Seat: uint32(b.Seat)}
		if b.Known {
			e.Tiles = tilesStr(b.Tiles[:])
		}
		out.Body = &pb.Event_SichuanExchangeChosen{SichuanExchangeChosen: e}
	case sc.Exchanged:
		out.Body = &pb.Event_SichuanExchanged{SichuanExchanged: &pb.SichuanExchanged{Direction: pb.SichuanDirection(b.Direction)}}
	case sc.ExchangeReceived:
		out.Body = &pb.Event_SichuanExchangeReceived{SichuanExchangeReceived: &pb.SichuanExchangeReceived{
			Seat: uint32(b.Seat), Gave: tilesStr(b.Gave[:]), Got: tilesStr(b.Got[:]), FromSeat: uint32(b.From),
		}}
	case sc.VoidChosen:
		e := &pb.SichuanVoidChosen{Seat: uint32(b.Seat)}
		if b.Known {
			e.Suit = SuitToPB(b.Suit)
		}
		out.Body = &pb.Event_SichuanVoidChosen{SichuanVoidChosen: e}
	case sc.VoidsRevealed:
		e := &pb.SichuanVoidsRevealed{}
		for _, v := range b.Voids {
			e.Voids = append(e.Voids, SuitToPB(v))
		}
		out.Body = &pb.Event_SichuanVoidsRevealed{SichuanVoidsRevealed: e}
	case sc.Drew:
		d := &pb.Drew{Seat: uint32(b.Seat), Rinshan: b.Replacement, WallLeft: int32(b.WallLeft)}
		if b.Known {
			d.Tile = b.Tile.String()
		}
		out.Body = &pb.Event_Drew{Drew: d}
	case sc.Discarded:
		out.Body = &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: uint32(b.Seat), Tile: b.Tile.String()}}
	case sc.ClaimOffer:
		out.Body = &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options)}}
	case sc.TurnOffer:
		out.Body = &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options)}}
	case sc.Called:
		out.Body = &pb.Event_Called{Called: &pb.Called{Seat: uint32(b.Seat), Meld: MeldToPB(b.Meld)}}
	case sc.KanPaid:
		out.Body = &pb.Event_SichuanKanPaid{SichuanKanPaid: &pb.SichuanKanPaid{
			Seat: uint32(b.Seat), Type: meldTypes[b.Type], Deltas: ints(b.Deltas), Scores: ints(b.Scores),
		}}
	case sc.KanTransferred:
		out.Body = &pb.Event_SichuanKanTransferred{SichuanKanTransferred: &pb.SichuanKanTransferred{
			Seat: uint32(b.Seat), ToSeat: uint32(b.To), Units: int32(b.Units), Scores: ints(b.Scores),
		}}
	case sc.Won:
		w := &pb.SichuanWon{
			Seat: uint32(b.Seat), FromSeat: uint32(b.From), Tsumo: b.Tsumo, Chankan: b.Chankan,
			Hand: tilesStr(b.Hand), Melds: meldsToPB(b.Melds), WinTile: b.WinTile.String(),
			Fan: int32(b.Fan), Value: int32(b.Value), Deltas: ints(b.Deltas), Scores: ints(b.Scores), Left: b.Left,
		}
		for _, f := range b.Fans {
			w.Fans = append(w.Fans, &pb.SichuanFan{Name: f.Name, Fan: int32(f.Fan)})
		}
		out.Body = &pb.Event_SichuanWon{SichuanWon: w}
	case sc.HandEnded:
		e := &pb.SichuanHandEnded{
			Kind: pb.SichuanHandEndKind(b.Kind), HuaZhu: b.HuaZhu[:], Ready: b.Ready[:],
			HuaZhuPay: ints(b.HuaZhuPay), ReadyPay: ints(b.ReadyPay), Refunds: ints(b.Refunds),
			Deltas: ints(b.Deltas), Scores: ints(b.Scores), WallSeed: hash(b.WallSeed),
			NextDealer: uint32(b.NextDealer), MatchOver: b.MatchOver,
		}
		for _, h := range b.Hands {
			e.Hands = append(e.Hands, tilesStr(h))
		}
		out.Body = &pb.Event_SichuanHandEnded{SichuanHandEnded: e}
	case sc.MatchEnded:
		out.Body = &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: ints(b.Scores), Ranks: ints(b.Ranks)}}
	default:
		return nil, fmt.Errorf("event %d: no wire form for %T", seq, body)
	}
	return out, nil
}

// BodyFromPB reads the game event of e. A seat notice is not a game event:
// the caller reads it from e itself. Riichi's fields a Sichuan body does
// not have (round wind, honba, dora, the riichi flags) are ignored.
func BodyFromPB(e *pb.Event) (sc.Body, error) {
	var err error
	switch b := e.GetBody().(type) {
	case *pb.Event_RoundStarted:
		r := b.RoundStarted
		out := sc.HandStarted{Index: int(r.GetIndex()), WallLeft: int(r.GetWallLeft())}
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
		out := sc.Dealt{}
		if out.Seat, err = seatOf("dealt.seat", b.Dealt.GetSeat()); err != nil {
			return nil, err
		}
		if out.Hand, err = ParseTiles("dealt.hand", b.Dealt.GetHand()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_SichuanExchangeChosen:
		c := b.SichuanExchangeChosen
		out := sc.ExchangeChosen{}
		if out.Seat, err = seatOf("sichuan_exchange_chosen.seat", c.GetSeat()); err != nil {
			return nil, err
		}
		if c.GetTiles() != "" {
			out.Known = true
			if out.Tiles, err = three("sichuan_exchange_chosen.tiles", c.GetTiles()); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *pb.Event_SichuanExchanged:
		d, err := directionOf("sichuan_exchanged.direction", b.SichuanExchanged.GetDirection())
		if err != nil {
			return nil, err
		}
		return sc.Exchanged{Direction: d}, nil
	case *pb.Event_SichuanExchangeReceived:
		r := b.SichuanExchangeReceived
		out := sc.ExchangeReceived{}
		if out.Seat, err = seatOf("sichuan_exchange_received.seat", r.GetSeat()); err != nil {
			return nil, err
		}
		if out.From, err = seatOf("sichuan_exchange_received.from_seat", r.GetFromSeat()); err != nil {
			return nil, err
		}
		if out.Gave, err = three("sichuan_exchange_received.gave", r.GetGave()); err != nil {
			return nil, err
		}
		if out.Got, err = three("sichuan_exchange_received.got", r.GetGot()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_SichuanVoidChosen:
		c := b.SichuanVoidChosen
		out := sc.VoidChosen{}
		if out.Seat, err = seatOf("sichuan_void_chosen.seat", c.GetSeat()); err != nil {
			return nil, err
		}
		if c.GetSuit() != pb.SichuanSuit_SICHUAN_SUIT_UNSPECIFIED {
			out.Known = true
			if out.Suit, err = SuitFromPB("sichuan_void_chosen.suit", c.GetSuit()); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *pb.Event_SichuanVoidsRevealed:
		vs := b.SichuanVoidsRevealed.GetVoids()
		if len(vs) != sc.NumSeats {
			return nil, malformed("sichuan_voids_revealed.voids", "%d values, want %d", len(vs), sc.NumSeats)
		}
		out := sc.VoidsRevealed{}
		for i, v := range vs {
			if out.Voids[i], err = SuitFromPB("sichuan_voids_revealed.voids", v); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *pb.Event_Drew:
		d := b.Drew
		out := sc.Drew{Replacement: d.GetRinshan(), WallLeft: int(d.GetWallLeft())}
		if out.Seat, err = seatOf("drew.seat", d.GetSeat()); err != nil {
			return nil, err
		}
		if out.Tile, out.Known, err = optTile("drew.tile", d.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Discarded:
		d := b.Discarded
		out := sc.Discarded{}
		if out.Seat, err = seatOf("discarded.seat", d.GetSeat()); err != nil {
			return nil, err
		}
		if out.Tile, err = ParseTile("discarded.tile", d.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_ClaimOffer:
		out := sc.ClaimOffer{}
		if out.Seat, err = seatOf("claim_offer.seat", b.ClaimOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("claim_offer.options", b.ClaimOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_TurnOffer:
		out := sc.TurnOffer{}
		if out.Seat, err = seatOf("turn_offer.seat", b.TurnOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("turn_offer.options", b.TurnOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Called:
		out := sc.Called{}
		if out.Seat, err = seatOf("called.seat", b.Called.GetSeat()); err != nil {
			return nil, err
		}
		if out.Meld, err = MeldFromPB(b.Called.GetMeld()); err != nil {
			return nil, prefix("called", err)
		}
		return out, nil
	case *pb.Event_SichuanKanPaid:
		k := b.SichuanKanPaid
		out := sc.KanPaid{}
		if out.Seat, err = seatOf("sichuan_kan_paid.seat", k.GetSeat()); err != nil {
			return nil, err
		}
		typ, ok := scMeldTypes[k.GetType()]
		if !ok || typ == sc.MeldPon {
			return nil, malformed("sichuan_kan_paid.type", "%v", k.GetType())
		}
		out.Type = typ
		if out.Deltas, err = four("sichuan_kan_paid.deltas", k.GetDeltas()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("sichuan_kan_paid.scores", k.GetScores()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_SichuanKanTransferred:
		k := b.SichuanKanTransferred
		out := sc.KanTransferred{Units: int(k.GetUnits())}
		if out.Seat, err = seatOf("sichuan_kan_transferred.seat", k.GetSeat()); err != nil {
			return nil, err
		}
		if out.To, err = seatOf("sichuan_kan_transferred.to_seat", k.GetToSeat()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("sichuan_kan_transferred.scores", k.GetScores()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_SichuanWon:
		return wonFromPB(b.SichuanWon)
	case *pb.Event_SichuanHandEnded:
		return handEndedFromPB(b.SichuanHandEnded)
	case *pb.Event_GameEnded:
		out := sc.MatchEnded{}
		if out.Scores, err = four("game_ended.scores", b.GameEnded.GetScores()); err != nil {
			return nil, err
		}
		if out.Ranks, err = four("game_ended.ranks", b.GameEnded.GetRanks()); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, malformed("body", "no Sichuan game event in %T", e.GetBody())
}

func wonFromPB(w *pb.SichuanWon) (sc.Body, error) {
	out := sc.Won{Tsumo: w.GetTsumo(), Chankan: w.GetChankan(), Fan: int(w.GetFan()), Value: int(w.GetValue()), Left: w.GetLeft()}
	var err error
	if out.Seat, err = seatOf("sichuan_won.seat", w.GetSeat()); err != nil {
		return nil, err
	}
	if out.From, err = seatOf("sichuan_won.from_seat", w.GetFromSeat()); err != nil {
		return nil, err
	}
	if out.Hand, err = ParseTiles("sichuan_won.hand", w.GetHand()); err != nil {
		return nil, err
	}
	if out.Melds, err = meldsFromPB("sichuan_won.melds", w.GetMelds()); err != nil {
		return nil, err
	}
	if out.WinTile, err = ParseTile("sichuan_won.win_tile", w.GetWinTile()); err != nil {
		return nil, err
	}
	for _, f := range w.GetFans() {
		out.Fans = append(out.Fans, sc.Fan{Name: f.GetName(), Fan: int(f.GetFan())})
	}
	if out.Deltas, err = four("sichuan_won.deltas", w.GetDeltas()); err != nil {
		return nil, err
	}
	if out.Scores, err = four("sichuan_won.scores", w.GetScores()); err != nil {
		return nil, err
	}
	return out, nil
}

func handEndedFromPB(h *pb.SichuanHandEnded) (sc.Body, error) {
	out := sc.HandEnded{MatchOver: h.GetMatchOver()}
	k := h.GetKind()
	if k != pb.SichuanHandEndKind_SICHUAN_HAND_END_KIND_THREE_WON && k != pb.SichuanHandEndKind_SICHUAN_HAND_END_KIND_WALL_EMPTY {
		return nil, malformed("sichuan_hand_ended.kind", "%v", k)
	}
	out.Kind = sc.HandEndKind(k)
	var err error
	if out.HuaZhu, err = bools("sichuan_hand_ended.hua_zhu", h.GetHuaZhu()); err != nil {
		return nil, err
	}
	if out.Ready, err = bools("sichuan_hand_ended.ready", h.GetReady()); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		in   []int32
		out  *[sc.NumSeats]int
	}{
		{"hua_zhu_pay", h.GetHuaZhuPay(), &out.HuaZhuPay},
		{"ready_pay", h.GetReadyPay(), &out.ReadyPay},
		{"refunds", h.GetRefunds(), &out.Refunds},
		{"deltas", h.GetDeltas(), &out.Deltas},
		{"scores", h.GetScores(), &out.Scores},
	} {
		if *f.out, err = four("sichuan_hand_ended."+f.name, f.in); err != nil {
			return nil, err
		}
	}
	if len(h.GetHands()) != sc.NumSeats {
		return nil, malformed("sichuan_hand_ended.hands", "%d hands, want %d", len(h.GetHands()), sc.NumSeats)
	}
	for i, s := range h.GetHands() {
		if out.Hands[i], err = ParseTiles("sichuan_hand_ended.hands", s); err != nil {
			return nil, err
		}
	}
	if out.WallSeed, err = hashOf("sichuan_hand_ended.wall_seed", h.GetWallSeed()); err != nil {
		return nil, err
	}
	if out.NextDealer, err = seatOf("sichuan_hand_ended.next_dealer", h.GetNextDealer()); err != nil {
		return nil, err
	}
	return out, nil
}
