package wire

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// EventToPB is the wire form of an event body numbered seq in its viewer's
// stream and logged at at. Every body type of package table has a form: a
// missing one is a programming error, reported as such.
func EventToPB(seq uint64, at time.Time, body table.Body) (*pb.Event, error) {
	// The frequent bodies are made in one allocation with their event,
	// time and oneof wrapper: the server converts every event it sends.
	switch b := body.(type) {
	case table.Drew:
		x := newEvent[pb.Event_Drew, pb.Drew](seq, at)
		x.m.Seat, x.m.Rinshan, x.m.WallLeft = uint32(b.Seat), b.Rinshan, int32(b.WallLeft)
		if b.Known {
			x.m.Tile = b.Tile.String()
		}
		x.w.Drew, x.ev.Body = &x.m, &x.w
		return &x.ev, nil
	case table.Discarded:
		x := newEvent[pb.Event_Discarded, pb.Discarded](seq, at)
		x.m.Seat, x.m.Tile, x.m.Tsumogiri, x.m.Riichi = uint32(b.Seat), b.Tile.String(), b.Tsumogiri, b.Riichi
		x.w.Discarded, x.ev.Body = &x.m, &x.w
		return &x.ev, nil
	case table.Fishing:
		x := newEvent[pb.Event_Fishing, pb.Fishing](seq, at)
		x.m.Seat, x.m.Shanten, x.m.Waits, x.m.Furiten = uint32(b.Seat), int32(b.Shanten), kindsStr(b.Waits), b.Furiten
		x.w.Fishing, x.ev.Body = &x.m, &x.w
		return &x.ev, nil
	case table.ClaimOffer:
		x := newEvent[pb.Event_ClaimOffer, pb.ClaimOffer](seq, at)
		x.m.Seat, x.m.Options = uint32(b.Seat), ActionsToPB(b.Options)
		x.w.ClaimOffer, x.ev.Body = &x.m, &x.w
		return &x.ev, nil
	case table.TurnOffer:
		x := newEvent[pb.Event_TurnOffer, pb.TurnOffer](seq, at)
		x.m.Seat, x.m.Options = uint32(b.Seat), ActionsToPB(b.Options)
		x.w.TurnOffer, x.ev.Body = &x.m, &x.w
		return &x.ev, nil
	}
	out := &newEvent[struct{}, struct{}](seq, at).ev
	switch b := body.(type) {
	case table.RoundStarted:
		out.Body = &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{
			RoundWind: windToPB(b.RoundWind), Number: int32(b.Number), Dealer: uint32(b.Dealer),
			Honba: int32(b.Honba), RiichiSticks: int32(b.RiichiSticks), Scores: ints(b.Scores),
			Dora: b.Dora.String(), WallLeft: int32(b.WallLeft), Commitment: hash(b.Commitment),
			Index: uint32(b.Index),
		}}
	case table.Dealt:
		out.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: tilesStr(b.Hand)}}
	case table.RiichiAccepted:
		out.Body = &pb.Event_RiichiAccepted{RiichiAccepted: &pb.RiichiAccepted{Seat: uint32(b.Seat), Scores: ints(b.Scores), RiichiSticks: int32(b.RiichiSticks)}}
	case table.Called:
		out.Body = &pb.Event_Called{Called: &pb.Called{Seat: uint32(b.Seat), Meld: MeldToPB(b.Meld), Scores: ints(b.Scores)}}
	case table.DoraRevealed:
		out.Body = &pb.Event_DoraRevealed{DoraRevealed: &pb.DoraRevealed{Indicator: b.Indicator.String()}}
	case table.Won:
		out.Body = &pb.Event_Won{Won: &pb.Won{
			Seat: uint32(b.Seat), FromSeat: uint32(b.From), Tsumo: b.Tsumo, Hand: tilesStr(b.Hand),
			Melds: meldsToPB(b.Melds), WinTile: b.WinTile.String(), Ura: tile.FormatInOrder(b.Ura),
			Han: int32(b.Han), Fu: int32(b.Fu), Yakuman: int32(b.Yakuman), Yaku: YakuToPB(b.Yaku),
			Limit: b.Limit.String(), Points: int32(b.Points), Deltas: ints(b.Deltas),
			PaoSeat: uint32(b.Pao), HasPao: b.PaoSet,
		}}
	case table.RoundEnded:
		r := &pb.RoundEnded{
			Kind: pb.RoundEndKind(b.Kind), Deltas: ints(b.Deltas), Scores: ints(b.Scores),
			RiichiSticks: int32(b.RiichiSticks), Honba: int32(b.Honba), WallSeed: hash(b.WallSeed), GameOver: b.GameOver,
		}
		for s := range table.NumSeats {
			r.Tenpai = append(r.Tenpai, b.Tenpai[s])
			r.Hands = append(r.Hands, tilesStr(b.Hands[s]))
		}
		out.Body = &pb.Event_RoundEnded{RoundEnded: r}
	case table.GameEnded:
		out.Body = &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: ints(b.Scores), Ranks: ints(b.Ranks)}}
	default:
		return nil, fmt.Errorf("event %d: no wire form for %T", seq, body)
	}
	return out, nil
}

// eventWith is an event with its time, and a body M in its oneof
// wrapper W, in one allocation.
type eventWith[W, M any] struct {
	ev pb.Event
	at timestamppb.Timestamp
	w  W
	m  M
}

// newEvent is an event numbered seq at at, its body to be set.
func newEvent[W, M any](seq uint64, at time.Time) *eventWith[W, M] {
	x := &eventWith[W, M]{}
	x.ev.Seq = seq
	x.at.Seconds, x.at.Nanos = at.Unix(), int32(at.Nanosecond())
	x.ev.Time = &x.at
	return x
}

// YakuToPB is the wire form of a win's yaku, by their canonical names.
func YakuToPB(ys []judge.YakuHan) []*pb.Yaku {
	out := make([]*pb.Yaku, len(ys))
	for i, y := range ys {
		out[i] = &pb.Yaku{Name: y.Yaku.String(), Han: int32(y.Han)}
	}
	return out
}

// yakuByName and limitByName invert the judge's names.
var (
	yakuByName = func() map[string]judge.Yaku {
		m := map[string]judge.Yaku{}
		for y := judge.Yaku(1); y.String() != "invalid"; y++ {
			m[y.String()] = y
		}
		return m
	}()
	limitByName = func() map[string]judge.Limit {
		m := map[string]judge.Limit{}
		for l := judge.LimitNone; l.String() != "invalid"; l++ {
			m[l.String()] = l
		}
		return m
	}()
)

// BodyFromPB reads the game event of e. A seat notice is not a game event:
// the caller reads it from e itself.
func BodyFromPB(e *pb.Event) (table.Body, error) {
	var err error
	switch b := e.GetBody().(type) {
	case *pb.Event_RoundStarted:
		r := b.RoundStarted
		out := table.RoundStarted{Number: int(r.GetNumber()), Honba: int(r.GetHonba()), RiichiSticks: int(r.GetRiichiSticks()), WallLeft: int(r.GetWallLeft()), Index: int(r.GetIndex())}
		if out.RoundWind, err = windOf("round_started.round_wind", r.GetRoundWind()); err != nil {
			return nil, err
		}
		if out.Dealer, err = seatOf("round_started.dealer", r.GetDealer()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("round_started.scores", r.GetScores()); err != nil {
			return nil, err
		}
		if out.Dora, err = ParseTile("round_started.dora", r.GetDora()); err != nil {
			return nil, err
		}
		if out.Commitment, err = hashOf("round_started.commitment", r.GetCommitment()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Dealt:
		out := table.Dealt{}
		if out.Seat, err = seatOf("dealt.seat", b.Dealt.GetSeat()); err != nil {
			return nil, err
		}
		if out.Hand, err = ParseTiles("dealt.hand", b.Dealt.GetHand()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Drew:
		d := b.Drew
		out := table.Drew{Rinshan: d.GetRinshan(), WallLeft: int(d.GetWallLeft())}
		if out.Seat, err = seatOf("drew.seat", d.GetSeat()); err != nil {
			return nil, err
		}
		if out.Tile, out.Known, err = optTile("drew.tile", d.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Discarded:
		d := b.Discarded
		out := table.Discarded{Tsumogiri: d.GetTsumogiri(), Riichi: d.GetRiichi()}
		if out.Seat, err = seatOf("discarded.seat", d.GetSeat()); err != nil {
			return nil, err
		}
		if out.Tile, err = ParseTile("discarded.tile", d.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Fishing:
		f := b.Fishing
		out := table.Fishing{Shanten: int(f.GetShanten()), Furiten: f.GetFuriten()}
		if out.Seat, err = seatOf("fishing.seat", f.GetSeat()); err != nil {
			return nil, err
		}
		ws, err := ParseTiles("fishing.waits", f.GetWaits())
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			out.Waits = out.Waits.With(w.Kind())
		}
		return out, nil
	case *pb.Event_ClaimOffer:
		out := table.ClaimOffer{}
		if out.Seat, err = seatOf("claim_offer.seat", b.ClaimOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("claim_offer.options", b.ClaimOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_TurnOffer:
		out := table.TurnOffer{}
		if out.Seat, err = seatOf("turn_offer.seat", b.TurnOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB("turn_offer.options", b.TurnOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_RiichiAccepted:
		r := b.RiichiAccepted
		out := table.RiichiAccepted{RiichiSticks: int(r.GetRiichiSticks())}
		if out.Seat, err = seatOf("riichi_accepted.seat", r.GetSeat()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("riichi_accepted.scores", r.GetScores()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Called:
		c := b.Called
		out := table.Called{}
		if out.Seat, err = seatOf("called.seat", c.GetSeat()); err != nil {
			return nil, err
		}
		if out.Meld, err = MeldFromPB(c.GetMeld()); err != nil {
			return nil, prefix("called", err)
		}
		if out.Scores, err = four("called.scores", c.GetScores()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_DoraRevealed:
		x, err := ParseTile("dora_revealed.indicator", b.DoraRevealed.GetIndicator())
		if err != nil {
			return nil, err
		}
		return table.DoraRevealed{Indicator: x}, nil
	case *pb.Event_Won:
		w, err := wonFromPB(b.Won)
		if err != nil {
			return nil, err
		}
		return w, nil
	case *pb.Event_RoundEnded:
		r, err := roundEndedFromPB(b.RoundEnded)
		if err != nil {
			return nil, err
		}
		return r, nil
	case *pb.Event_GameEnded:
		out := table.GameEnded{}
		if out.Scores, err = four("game_ended.scores", b.GameEnded.GetScores()); err != nil {
			return nil, err
		}
		if out.Ranks, err = four("game_ended.ranks", b.GameEnded.GetRanks()); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, malformed("body", "no game event in %T", e.GetBody())
}

func wonFromPB(w *pb.Won) (table.Won, error) {
	out := table.Won{Tsumo: w.GetTsumo(), Han: int(w.GetHan()), Fu: int(w.GetFu()), Yakuman: int(w.GetYakuman()), Points: int(w.GetPoints()), PaoSet: w.GetHasPao()}
	var err error
	if out.Seat, err = seatOf("won.seat", w.GetSeat()); err != nil {
		return out, err
	}
	if out.From, err = seatOf("won.from_seat", w.GetFromSeat()); err != nil {
		return out, err
	}
	if out.PaoSet {
		if out.Pao, err = seatOf("won.pao_seat", w.GetPaoSeat()); err != nil {
			return out, err
		}
	}
	if out.Hand, err = ParseTiles("won.hand", w.GetHand()); err != nil {
		return out, err
	}
	if out.Melds, err = meldsFromPB("won.melds", w.GetMelds()); err != nil {
		return out, err
	}
	if out.WinTile, err = ParseTile("won.win_tile", w.GetWinTile()); err != nil {
		return out, err
	}
	if out.Ura, err = ParseTiles("won.ura", w.GetUra()); err != nil {
		return out, err
	}
	for _, y := range w.GetYaku() {
		yk, ok := yakuByName[y.GetName()]
		if !ok {
			return out, malformed("won.yaku", "unknown yaku %q", y.GetName())
		}
		out.Yaku = append(out.Yaku, judge.YakuHan{Yaku: yk, Han: int(y.GetHan())})
	}
	var ok bool
	if out.Limit, ok = limitByName[w.GetLimit()]; !ok {
		return out, malformed("won.limit", "unknown limit %q", w.GetLimit())
	}
	if out.Deltas, err = four("won.deltas", w.GetDeltas()); err != nil {
		return out, err
	}
	return out, nil
}

func roundEndedFromPB(r *pb.RoundEnded) (table.RoundEnded, error) {
	out := table.RoundEnded{RiichiSticks: int(r.GetRiichiSticks()), Honba: int(r.GetHonba()), GameOver: r.GetGameOver()}
	k := r.GetKind()
	if k < 0 || k > 255 || table.RoundEndKind(k).String() == "invalid" {
		return out, malformed("round_ended.kind", "%v", k)
	}
	out.Kind = table.RoundEndKind(k)
	var err error
	if out.Deltas, err = four("round_ended.deltas", r.GetDeltas()); err != nil {
		return out, err
	}
	if out.Scores, err = four("round_ended.scores", r.GetScores()); err != nil {
		return out, err
	}
	if len(r.GetTenpai()) != table.NumSeats || len(r.GetHands()) != table.NumSeats {
		return out, malformed("round_ended", "%d tenpai flags and %d hands, want %d", len(r.GetTenpai()), len(r.GetHands()), table.NumSeats)
	}
	for s := range table.NumSeats {
		out.Tenpai[s] = r.GetTenpai()[s]
		if out.Hands[s], err = ParseTiles("round_ended.hands", r.GetHands()[s]); err != nil {
			return out, err
		}
	}
	if out.WallSeed, err = hashOf("round_ended.wall_seed", r.GetWallSeed()); err != nil {
		return out, err
	}
	return out, nil
}
