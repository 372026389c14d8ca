package server

import (
	"fmt"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Conversions between the wire and the table's types. Tiles are MPSZ
// strings on the wire; every string from a client is parsed and checked
// here, so nothing malformed reaches a table.

// parseOne reads exactly one riichi tile.
func parseOne(field, s string) (tile.Tile, error) {
	t, err := tile.ParseTile(s)
	if err != nil {
		return 0, tileError(field, s, err)
	}
	if t.Kind().IsFlower() {
		return 0, tileError(field, s, fmt.Errorf("riichi has no flowers"))
	}
	return t, nil
}

// parseTiles reads riichi tiles.
func parseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, t := range ts {
		if t.Kind().IsFlower() {
			return nil, tileError(field, s, fmt.Errorf("riichi has no flowers"))
		}
	}
	return ts, nil
}

var actionTypes = map[pb.ActionType]table.ActionType{
	pb.ActionType_ACTION_TYPE_DISCARD:        table.Discard,
	pb.ActionType_ACTION_TYPE_RIICHI:         table.Riichi,
	pb.ActionType_ACTION_TYPE_CHI:            table.Chi,
	pb.ActionType_ACTION_TYPE_PON:            table.Pon,
	pb.ActionType_ACTION_TYPE_OPEN_KAN:       table.OpenKan,
	pb.ActionType_ACTION_TYPE_CLOSED_KAN:     table.ClosedKan,
	pb.ActionType_ACTION_TYPE_ADDED_KAN:      table.AddedKan,
	pb.ActionType_ACTION_TYPE_TSUMO:          table.Tsumo,
	pb.ActionType_ACTION_TYPE_RON:            table.Ron,
	pb.ActionType_ACTION_TYPE_PASS:           table.Pass,
	pb.ActionType_ACTION_TYPE_NINE_TERMINALS: table.NineTerminals,
}

var pbActionTypes = func() map[table.ActionType]pb.ActionType {
	m := map[table.ActionType]pb.ActionType{}
	for k, v := range actionTypes {
		m[v] = k
	}
	return m
}()

// actionFromPB checks a client's action and returns it for seat. The fields
// an action type does not use must be empty, so that a retried request with
// another payload is never mistaken for the same one.
func actionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	if a == nil {
		return table.Action{}, fieldError("action", ErrMalformed)
	}
	typ, ok := actionTypes[a.GetType()]
	if !ok {
		return table.Action{}, fieldError("action.type", fmt.Errorf("%v: %w", a.GetType(), ErrMalformed))
	}
	out := table.Action{Seat: seat, Type: typ}
	if a.GetTsumogiri() && typ != table.Discard && typ != table.Riichi {
		return table.Action{}, fieldError("action.tsumogiri", fmt.Errorf("unused by %v: %w", typ, ErrMalformed))
	}
	out.Tsumogiri = a.GetTsumogiri()
	switch typ {
	case table.Discard, table.Riichi, table.ClosedKan, table.AddedKan:
		t, err := parseOne("action.tile", a.GetTile())
		if err != nil {
			return table.Action{}, err
		}
		out.Tile = t
		if a.GetTiles() != "" {
			return table.Action{}, fieldError("action.tiles", fmt.Errorf("unused by %v: %w", typ, ErrMalformed))
		}
	case table.Chi, table.Pon:
		ts, err := parseTiles("action.tiles", a.GetTiles())
		if err != nil {
			return table.Action{}, err
		}
		if len(ts) != 2 {
			return table.Action{}, tileError("action.tiles", a.GetTiles(), fmt.Errorf("want the 2 own tiles, have %d", len(ts)))
		}
		out.Tiles = [2]tile.Tile{ts[0], ts[1]}
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

func actionToPB(a table.Action) *pb.Action {
	out := &pb.Action{Type: pbActionTypes[a.Type]}
	switch a.Type {
	case table.Discard, table.Riichi:
		out.Tile, out.Tsumogiri = a.Tile.String(), a.Tsumogiri
	case table.ClosedKan, table.AddedKan:
		out.Tile = a.Tile.String()
	case table.Chi, table.Pon:
		out.Tiles = tile.FormatInOrder(a.Tiles[:])
	}
	return out
}

func actionsToPB(as []table.Action) []*pb.Action {
	out := make([]*pb.Action, len(as))
	for i, a := range as {
		out[i] = actionToPB(a)
	}
	return out
}

func tileStr(t tile.Tile) string { return t.String() }

// tilesStr formats tiles sorted and grouped ("" for none).
func tilesStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.Format(ts)
}

func windToPB(w tile.Wind) pb.Wind { return pb.Wind(w + 1) }

func ints(xs [table.NumSeats]int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

var meldTypes = map[judge.MeldType]pb.MeldType{
	judge.Chi:       pb.MeldType_MELD_TYPE_CHI,
	judge.Pon:       pb.MeldType_MELD_TYPE_PON,
	judge.OpenKan:   pb.MeldType_MELD_TYPE_OPEN_KAN,
	judge.AddedKan:  pb.MeldType_MELD_TYPE_ADDED_KAN,
	judge.ClosedKan: pb.MeldType_MELD_TYPE_CLOSED_KAN,
}

func meldToPB(m table.Meld) *pb.Meld {
	out := &pb.Meld{
		Type:     meldTypes[m.Type],
		Tiles:    tile.Format(m.Tiles[:m.Len()]),
		FromSeat: uint32(m.From),
	}
	if m.Type != judge.ClosedKan {
		out.CalledTile = tileStr(m.Called)
	}
	if m.Type == judge.AddedKan {
		out.AddedTile = tileStr(m.Added)
	}
	return out
}

func meldsToPB(ms []table.Meld) []*pb.Meld {
	out := make([]*pb.Meld, len(ms))
	for i, m := range ms {
		out[i] = meldToPB(m)
	}
	return out
}

var phases = map[table.Phase]pb.Phase{
	table.BetweenRounds: pb.Phase_PHASE_BETWEEN_ROUNDS,
	table.Turn:          pb.Phase_PHASE_TURN,
	table.ClaimWindow:   pb.Phase_PHASE_CLAIM_WINDOW,
	table.GameOver:      pb.Phase_PHASE_GAME_OVER,
}

func viewToPB(v table.View) *pb.View {
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
		Legal:        actionsToPB(v.Legal),
	}
	if v.HasDrawn {
		out.Drawn = tileStr(v.Drawn)
	}
	for _, s := range v.Seats {
		sv := &pb.SeatView{Melds: meldsToPB(s.Melds), HandSize: int32(s.HandSize), Riichi: s.Riichi, Score: int32(s.Score)}
		for _, d := range s.Discards {
			sv.Discards = append(sv.Discards, &pb.DiscardView{Tile: tileStr(d.Tile), Tsumogiri: d.Tsumogiri, Riichi: d.Riichi, Called: d.Called})
		}
		out.Seats = append(out.Seats, sv)
	}
	return out
}

func yakuToPB(ys []judge.YakuHan) []*pb.Yaku {
	out := make([]*pb.Yaku, len(ys))
	for i, y := range ys {
		out[i] = &pb.Yaku{Name: y.Yaku.String(), Han: int32(y.Han)}
	}
	return out
}

// eventToPB converts an event of the log. Every body type of package table
// must have a case: a missing one is a programming error, reported as such.
func eventToPB(e *host.Event[table.Body]) (*pb.Event, error) {
	out := &pb.Event{Seq: e.Seq, Time: timestamppb.New(e.At)}
	if n := e.Notice; n != nil {
		out.Body = &pb.Event_SeatNotice{SeatNotice: noticeToPB(n)}
		return out, nil
	}
	switch b := e.Body.(type) {
	case table.RoundStarted:
		out.Body = &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{
			RoundWind: windToPB(b.RoundWind), Number: int32(b.Number), Dealer: uint32(b.Dealer),
			Honba: int32(b.Honba), RiichiSticks: int32(b.RiichiSticks), Scores: ints(b.Scores),
			Dora: tileStr(b.Dora), WallLeft: int32(b.WallLeft), Commitment: commitment(b.Commitment),
			Index: uint32(b.Index),
		}}
	case table.Dealt:
		out.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: tilesStr(b.Hand)}}
	case table.Drew:
		d := &pb.Drew{Seat: uint32(b.Seat), Rinshan: b.Rinshan, WallLeft: int32(b.WallLeft)}
		if b.Known {
			d.Tile = tileStr(b.Tile)
		}
		out.Body = &pb.Event_Drew{Drew: d}
	case table.Discarded:
		out.Body = &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: uint32(b.Seat), Tile: tileStr(b.Tile), Tsumogiri: b.Tsumogiri, Riichi: b.Riichi}}
	case table.Fishing:
		out.Body = &pb.Event_Fishing{Fishing: &pb.Fishing{Seat: uint32(b.Seat), Shanten: int32(b.Shanten), Waits: kindsStr(b.Waits), Furiten: b.Furiten}}
	case table.ClaimOffer:
		out.Body = &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: uint32(b.Seat), Options: actionsToPB(b.Options)}}
	case table.TurnOffer:
		out.Body = &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: uint32(b.Seat), Options: actionsToPB(b.Options)}}
	case table.RiichiAccepted:
		out.Body = &pb.Event_RiichiAccepted{RiichiAccepted: &pb.RiichiAccepted{Seat: uint32(b.Seat), Scores: ints(b.Scores), RiichiSticks: int32(b.RiichiSticks)}}
	case table.Called:
		out.Body = &pb.Event_Called{Called: &pb.Called{Seat: uint32(b.Seat), Meld: meldToPB(b.Meld), Scores: ints(b.Scores)}}
	case table.DoraRevealed:
		out.Body = &pb.Event_DoraRevealed{DoraRevealed: &pb.DoraRevealed{Indicator: tileStr(b.Indicator)}}
	case table.Won:
		w := &pb.Won{
			Seat: uint32(b.Seat), FromSeat: uint32(b.From), Tsumo: b.Tsumo, Hand: tilesStr(b.Hand),
			Melds: meldsToPB(b.Melds), WinTile: tileStr(b.WinTile), Ura: tile.FormatInOrder(b.Ura),
			Han: int32(b.Han), Fu: int32(b.Fu), Yakuman: int32(b.Yakuman), Yaku: yakuToPB(b.Yaku),
			Limit: b.Limit.String(), Points: int32(b.Points), Deltas: ints(b.Deltas),
			PaoSeat: uint32(b.Pao), HasPao: b.PaoSet,
		}
		out.Body = &pb.Event_Won{Won: w}
	case table.RoundEnded:
		r := &pb.RoundEnded{
			Kind: pb.RoundEndKind(b.Kind), Deltas: ints(b.Deltas), Scores: ints(b.Scores),
			RiichiSticks: int32(b.RiichiSticks), Honba: int32(b.Honba), WallSeed: commitment(b.WallSeed), GameOver: b.GameOver,
		}
		for s := range table.NumSeats {
			r.Tenpai = append(r.Tenpai, b.Tenpai[s])
			r.Hands = append(r.Hands, tilesStr(b.Hands[s]))
		}
		out.Body = &pb.Event_RoundEnded{RoundEnded: r}
	case table.GameEnded:
		out.Body = &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: ints(b.Scores), Ranks: ints(b.Ranks)}}
	default:
		return nil, fmt.Errorf("event %d: no wire form for %T", e.Seq, e.Body)
	}
	return out, nil
}

// commitment returns the bytes of a hash, or nil when it is unset.
func commitment(h [32]byte) []byte {
	if h == ([32]byte{}) {
		return nil
	}
	return h[:]
}

func kindsStr(ks tile.KindSet) string {
	if ks.Len() == 0 {
		return ""
	}
	return ks.String()
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
