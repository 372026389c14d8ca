package mcr

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

var endKinds = map[tbl.HandEndKind]pb.RoundEndKind{
	tbl.EndWon:       pb.RoundEndKind_ROUND_END_KIND_WIN,
	tbl.EndWallEmpty: pb.RoundEndKind_ROUND_END_KIND_EXHAUSTIVE,
}

var tableEnds = invert(endKinds)

// EventToPB is the wire form of an event body numbered seq in its viewer's
// stream and logged at at. Every body type of package table/mcr has a
// form; a missing one is a programming error, reported as such.
func EventToPB(seq uint64, at time.Time, body tbl.Body) (*pb.Event, error) {
	out := &pb.Event{Seq: seq, Time: timestamppb.New(at)}
	switch b := body.(type) {
	case tbl.HandStarted:
		out.Body = &pb.Event_McrHandStarted{McrHandStarted: &pb.McrHandStarted{
			Index: uint32(b.Index), RoundWind: windToPB(b.Round), Dealer: uint32(b.Dealer),
			Winds: windsToPB(b.Winds), Scores: ints(b.Scores), WallLeft: int32(b.WallLeft),
			Commitment: hash(b.Commitment),
		}}
	case tbl.Dealt:
		out.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: tilesStr(b.Hand)}}
	case tbl.FlowerSetAside:
		out.Body = &pb.Event_McrFlowerSetAside{McrFlowerSetAside: &pb.McrFlowerSetAside{Seat: uint32(b.Seat), Flower: b.Flower.String()}}
	case tbl.Drew:
		d := &pb.Drew{Seat: uint32(b.Seat), Rinshan: b.Replacement, WallLeft: int32(b.WallLeft)}
		if b.Known {
			d.Tile = b.Tile.String()
		}
		out.Body = &pb.Event_Drew{Drew: d}
	case tbl.Discarded:
		out.Body = &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: uint32(b.Seat), Tile: b.Tile.String()}}
	case tbl.ClaimOffer:
		out.Body = &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options)}}
	case tbl.TurnOffer:
		out.Body = &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: uint32(b.Seat), Options: ActionsToPB(b.Options)}}
	case tbl.Called:
		out.Body = &pb.Event_Called{Called: &pb.Called{Seat: uint32(b.Seat), Meld: MeldToPB(b.Meld)}}
	case tbl.Won:
		w := &pb.McrWon{
			Seat: uint32(b.Seat), FromSeat: uint32(b.From), Tsumo: b.Tsumo, RobbedKong: b.Chankan,
			Hand: tilesStr(b.Hand), Melds: meldsToPB(b.Melds), WinTile: b.WinTile.String(),
			Flowers: int32(b.Flowers), Total: int32(b.Total), Deltas: ints(b.Deltas), Scores: ints(b.Scores),
		}
		for _, f := range b.Fans {
			w.Fans = append(w.Fans, &pb.McrFan{Name: f.Name, Count: int32(f.Count), Points: int32(f.Points)})
		}
		out.Body = &pb.Event_McrWon{McrWon: w}
	case tbl.HandEnded:
		out.Body = &pb.Event_RoundEnded{RoundEnded: &pb.RoundEnded{
			Kind: endKinds[b.Kind], Deltas: ints(b.Deltas), Scores: ints(b.Scores),
			WallSeed: hash(b.WallSeed), GameOver: b.GameOver,
		}}
	case tbl.GameEnded:
		out.Body = &pb.Event_McrGameEnded{McrGameEnded: &pb.McrGameEnded{Scores: ints(b.Scores), TablePoints: b.TablePoints[:]}}
	default:
		return nil, fmt.Errorf("wire/mcr: no wire form for %T", body)
	}
	return out, nil
}

// BodyFromPB reads a game event's body. A seat notice is not a game event:
// the caller handles it before.
func BodyFromPB(e *pb.Event) (tbl.Body, error) {
	switch b := e.GetBody().(type) {
	case *pb.Event_McrHandStarted:
		h := b.McrHandStarted
		out := tbl.HandStarted{Index: int(h.GetIndex()), WallLeft: int(h.GetWallLeft())}
		if h.GetIndex() >= tbl.MaxHands {
			return nil, malformed("mcr_hand_started.index", "%d", h.GetIndex())
		}
		var err error
		if out.Round, err = windOf("mcr_hand_started.round_wind", h.GetRoundWind()); err != nil {
			return nil, err
		}
		if out.Dealer, err = seatOf("mcr_hand_started.dealer", h.GetDealer()); err != nil {
			return nil, err
		}
		if out.Winds, err = windsOf("mcr_hand_started.winds", h.GetWinds()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("mcr_hand_started.scores", h.GetScores()); err != nil {
			return nil, err
		}
		if out.Commitment, err = hashOf("mcr_hand_started.commitment", h.GetCommitment()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Dealt:
		s, err := seatOf("dealt.seat", b.Dealt.GetSeat())
		if err != nil {
			return nil, err
		}
		hand, err := parseTiles("dealt.hand", b.Dealt.GetHand(), true)
		if err != nil {
			return nil, err
		}
		return tbl.Dealt{Seat: s, Hand: hand}, nil
	case *pb.Event_McrFlowerSetAside:
		s, err := seatOf("mcr_flower_set_aside.seat", b.McrFlowerSetAside.GetSeat())
		if err != nil {
			return nil, err
		}
		f, err := parseTile("mcr_flower_set_aside.flower", b.McrFlowerSetAside.GetFlower(), true)
		if err != nil {
			return nil, err
		}
		if !f.Kind().IsFlower() {
			return nil, malformed("mcr_flower_set_aside.flower", "%v is not a flower", f)
		}
		return tbl.FlowerSetAside{Seat: s, Flower: f}, nil
	case *pb.Event_Drew:
		d := b.Drew
		s, err := seatOf("drew.seat", d.GetSeat())
		if err != nil {
			return nil, err
		}
		out := tbl.Drew{Seat: s, Replacement: d.GetRinshan(), WallLeft: int(d.GetWallLeft())}
		if d.GetTile() != "" {
			if out.Tile, err = parseTile("drew.tile", d.GetTile(), true); err != nil {
				return nil, err
			}
			out.Known = true
		}
		return out, nil
	case *pb.Event_Discarded:
		s, err := seatOf("discarded.seat", b.Discarded.GetSeat())
		if err != nil {
			return nil, err
		}
		x, err := ParseTile("discarded.tile", b.Discarded.GetTile())
		if err != nil {
			return nil, err
		}
		return tbl.Discarded{Seat: s, Tile: x}, nil
	case *pb.Event_ClaimOffer:
		s, err := seatOf("claim_offer.seat", b.ClaimOffer.GetSeat())
		if err != nil {
			return nil, err
		}
		opts, err := actionsFromPB("claim_offer.options", b.ClaimOffer.GetOptions(), s)
		if err != nil {
			return nil, err
		}
		return tbl.ClaimOffer{Seat: s, Options: opts}, nil
	case *pb.Event_TurnOffer:
		s, err := seatOf("turn_offer.seat", b.TurnOffer.GetSeat())
		if err != nil {
			return nil, err
		}
		opts, err := actionsFromPB("turn_offer.options", b.TurnOffer.GetOptions(), s)
		if err != nil {
			return nil, err
		}
		return tbl.TurnOffer{Seat: s, Options: opts}, nil
	case *pb.Event_Called:
		s, err := seatOf("called.seat", b.Called.GetSeat())
		if err != nil {
			return nil, err
		}
		m, err := MeldFromPB(b.Called.GetMeld())
		if err != nil {
			return nil, prefix("called", err)
		}
		return tbl.Called{Seat: s, Meld: m}, nil
	case *pb.Event_McrWon:
		return wonFromPB(b.McrWon)
	case *pb.Event_RoundEnded:
		r := b.RoundEnded
		kind, ok := tableEnds[r.GetKind()]
		if !ok {
			return nil, malformed("round_ended.kind", "%v", r.GetKind())
		}
		out := tbl.HandEnded{Kind: kind, GameOver: r.GetGameOver()}
		var err error
		if out.Deltas, err = four("round_ended.deltas", r.GetDeltas()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("round_ended.scores", r.GetScores()); err != nil {
			return nil, err
		}
		if out.WallSeed, err = hashOf("round_ended.wall_seed", r.GetWallSeed()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_McrGameEnded:
		g := b.McrGameEnded
		out := tbl.GameEnded{}
		var err error
		if out.Scores, err = four("mcr_game_ended.scores", g.GetScores()); err != nil {
			return nil, err
		}
		if len(g.GetTablePoints()) != tbl.NumSeats {
			return nil, malformed("mcr_game_ended.table_points", "%d values, want %d", len(g.GetTablePoints()), tbl.NumSeats)
		}
		copy(out.TablePoints[:], g.GetTablePoints())
		return out, nil
	case nil:
		return nil, malformed("event.body", "none")
	default:
		return nil, malformed("event.body", "%T is not an MCR event", b)
	}
}

func wonFromPB(w *pb.McrWon) (tbl.Won, error) {
	out := tbl.Won{Tsumo: w.GetTsumo(), Chankan: w.GetRobbedKong(), Flowers: int(w.GetFlowers()), Total: int(w.GetTotal())}
	var err error
	if out.Seat, err = seatOf("mcr_won.seat", w.GetSeat()); err != nil {
		return out, err
	}
	if out.From, err = seatOf("mcr_won.from_seat", w.GetFromSeat()); err != nil {
		return out, err
	}
	if w.GetFlowers() < 0 || w.GetFlowers() > 8 {
		return out, malformed("mcr_won.flowers", "%d", w.GetFlowers())
	}
	if out.Hand, err = parseTiles("mcr_won.hand", w.GetHand(), false); err != nil {
		return out, err
	}
	if out.Melds, err = meldsFromPB("mcr_won.melds", w.GetMelds()); err != nil {
		return out, err
	}
	if out.WinTile, err = ParseTile("mcr_won.win_tile", w.GetWinTile()); err != nil {
		return out, err
	}
	for _, f := range w.GetFans() {
		out.Fans = append(out.Fans, tbl.Fan{Name: f.GetName(), Count: int(f.GetCount()), Points: int(f.GetPoints())})
	}
	if out.Deltas, err = four("mcr_won.deltas", w.GetDeltas()); err != nil {
		return out, err
	}
	if out.Scores, err = four("mcr_won.scores", w.GetScores()); err != nil {
		return out, err
	}
	return out, nil
}

// flowersStr formats flowers in the order they were set aside.
func flowersStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.FormatInOrder(ts)
}
