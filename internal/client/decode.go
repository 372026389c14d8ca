package client

import (
	"errors"
	"fmt"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Conversions from the wire to the table's types: a client decides and
// renders with the same types the engine uses (bots take a *table.View).
// Everything the server sends is checked; a malformed message is an error
// wrapping ErrDecode, never a panic.

// ErrDecode is wrapped by every error of a message the client cannot read.
var ErrDecode = errors.New("client: malformed message")

func decodeErr(field string, err error) error {
	return fmt.Errorf("%s: %w: %w", field, ErrDecode, err)
}

// Event is one decoded event of a seat's or a spectator's stream: a game
// event (Body) or a notice about a seat's player (Notice).
type Event struct {
	Seq    uint64
	Time   time.Time // when the server logged it
	Body   table.Body
	Notice *pb.SeatNotice
}

func parseTile(field, s string) (tile.Tile, error) {
	t, err := tile.ParseTile(s)
	if err != nil {
		return 0, decodeErr(field, err)
	}
	if t.Kind() >= tile.NumKinds {
		return 0, decodeErr(field, fmt.Errorf("%v: riichi has no flowers", t))
	}
	return t, nil
}

// parseTiles reads riichi tiles; "" is none (nil).
func parseTiles(field, s string) ([]tile.Tile, error) {
	if s == "" {
		return nil, nil
	}
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, decodeErr(field, err)
	}
	for _, t := range ts {
		if t.Kind() >= tile.NumKinds {
			return nil, decodeErr(field, fmt.Errorf("%v: riichi has no flowers", t))
		}
	}
	return ts, nil
}

// optTile reads a tile that may be absent ("").
func optTile(field, s string) (tile.Tile, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	t, err := parseTile(field, s)
	return t, err == nil, err
}

func seatOf(field string, s uint32) (table.Seat, error) {
	if s >= table.NumSeats {
		return 0, decodeErr(field, fmt.Errorf("seat %d", s))
	}
	return table.Seat(s), nil
}

func windOf(field string, w pb.Wind) (tile.Wind, error) {
	if w < pb.Wind_WIND_EAST || w > pb.Wind_WIND_NORTH {
		return 0, decodeErr(field, fmt.Errorf("wind %v", w))
	}
	return tile.Wind(w - 1), nil
}

// four reads a per-seat list of numbers.
func four(field string, xs []int32) ([table.NumSeats]int, error) {
	var out [table.NumSeats]int
	if len(xs) != table.NumSeats {
		return out, decodeErr(field, fmt.Errorf("%d values, want %d", len(xs), table.NumSeats))
	}
	for i, x := range xs {
		out[i] = int(x)
	}
	return out, nil
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

// ActionToPB is the wire form of a seat's action. Ron and open kan carry
// no tile: the server knows the tile its claim window is about.
func ActionToPB(a table.Action) *pb.Action {
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

// ActionFromPB reads an action offered to seat.
func ActionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	typ, ok := actionTypes[a.GetType()]
	if !ok {
		return table.Action{}, decodeErr("action.type", fmt.Errorf("%v", a.GetType()))
	}
	out := table.Action{Seat: seat, Type: typ, Tsumogiri: a.GetTsumogiri()}
	var err error
	switch typ {
	case table.Chi, table.Pon:
		ts, err := parseTiles("action.tiles", a.GetTiles())
		if err != nil {
			return table.Action{}, err
		}
		if len(ts) != 2 {
			return table.Action{}, decodeErr("action.tiles", fmt.Errorf("%d tiles, want 2", len(ts)))
		}
		out.Tiles = [2]tile.Tile{ts[0], ts[1]}
	default:
		if out.Tile, _, err = optTile("action.tile", a.GetTile()); err != nil {
			return table.Action{}, err
		}
	}
	return out, nil
}

func actionsFromPB(as []*pb.Action, seat table.Seat) ([]table.Action, error) {
	if len(as) == 0 {
		return nil, nil
	}
	out := make([]table.Action, len(as))
	for i, a := range as {
		var err error
		if out[i], err = ActionFromPB(a, seat); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var meldTypes = map[pb.MeldType]judge.MeldType{
	pb.MeldType_MELD_TYPE_CHI:        judge.Chi,
	pb.MeldType_MELD_TYPE_PON:        judge.Pon,
	pb.MeldType_MELD_TYPE_OPEN_KAN:   judge.OpenKan,
	pb.MeldType_MELD_TYPE_ADDED_KAN:  judge.AddedKan,
	pb.MeldType_MELD_TYPE_CLOSED_KAN: judge.ClosedKan,
}

// MeldFromPB reads a declared meld.
func MeldFromPB(m *pb.Meld) (table.Meld, error) {
	var out table.Meld
	typ, ok := meldTypes[m.GetType()]
	if !ok {
		return out, decodeErr("meld.type", fmt.Errorf("%v", m.GetType()))
	}
	out.Type = typ
	ts, err := parseTiles("meld.tiles", m.GetTiles())
	if err != nil {
		return out, err
	}
	if len(ts) != out.Len() {
		return out, decodeErr("meld.tiles", fmt.Errorf("%d tiles for a %v", len(ts), typ))
	}
	copy(out.Tiles[:], ts)
	if out.From, err = seatOf("meld.from_seat", m.GetFromSeat()); err != nil {
		return out, err
	}
	if typ == judge.ClosedKan {
		// No tile was called; the engine keeps the last one there.
		out.Called = ts[len(ts)-1]
	} else if out.Called, err = parseTile("meld.called_tile", m.GetCalledTile()); err != nil {
		return out, err
	}
	if typ == judge.AddedKan {
		if out.Added, err = parseTile("meld.added_tile", m.GetAddedTile()); err != nil {
			return out, err
		}
	}
	return out, nil
}

func meldsFromPB(ms []*pb.Meld) ([]table.Meld, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	out := make([]table.Meld, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = MeldFromPB(m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var phases = map[pb.Phase]table.Phase{
	pb.Phase_PHASE_BETWEEN_ROUNDS: table.BetweenRounds,
	pb.Phase_PHASE_TURN:           table.Turn,
	pb.Phase_PHASE_CLAIM_WINDOW:   table.ClaimWindow,
	pb.Phase_PHASE_GAME_OVER:      table.GameOver,
}

// ViewFromPB reads a seat's view (the snapshot of its stream) as of seq.
func ViewFromPB(v *pb.View, seq uint64) (table.View, error) {
	var out table.View
	var err error
	if out.Seat, err = seatOf("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	var ok bool
	if out.Phase, ok = phases[v.GetPhase()]; !ok {
		return out, decodeErr("view.phase", fmt.Errorf("%v", v.GetPhase()))
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
	if out.Dora, err = parseTiles("view.dora", v.GetDora()); err != nil {
		return out, err
	}
	if out.Hand, err = parseTiles("view.hand", v.GetHand()); err != nil {
		return out, err
	}
	if out.Drawn, out.HasDrawn, err = optTile("view.drawn", v.GetDrawn()); err != nil {
		return out, err
	}
	if out.Legal, err = actionsFromPB(v.GetLegal(), out.Seat); err != nil {
		return out, err
	}
	if len(v.GetSeats()) != table.NumSeats {
		return out, decodeErr("view.seats", fmt.Errorf("%d seats", len(v.GetSeats())))
	}
	for i, sv := range v.GetSeats() {
		s := &out.Seats[i]
		s.HandSize, s.Riichi, s.Score = int(sv.GetHandSize()), sv.GetRiichi(), int(sv.GetScore())
		if s.Melds, err = meldsFromPB(sv.GetMelds()); err != nil {
			return out, err
		}
		for _, d := range sv.GetDiscards() {
			x, err := parseTile("view.seats.discards", d.GetTile())
			if err != nil {
				return out, err
			}
			s.Discards = append(s.Discards, table.DiscardView{Tile: x, Tsumogiri: d.GetTsumogiri(), Riichi: d.GetRiichi(), Called: d.GetCalled()})
		}
	}
	return out, nil
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

// EventFromPB decodes one event of a stream.
func EventFromPB(e *pb.Event) (Event, error) {
	out := Event{Seq: e.GetSeq(), Time: e.GetTime().AsTime()}
	body, err := bodyFromPB(e)
	if err != nil {
		return out, fmt.Errorf("event %d: %w", e.GetSeq(), err)
	}
	if n := e.GetSeatNotice(); n != nil {
		out.Notice = n
		return out, nil
	}
	out.Body = body
	return out, nil
}

func bodyFromPB(e *pb.Event) (table.Body, error) {
	var err error
	switch b := e.GetBody().(type) {
	case *pb.Event_SeatNotice:
		return nil, nil
	case *pb.Event_RoundStarted:
		r := b.RoundStarted
		out := table.RoundStarted{Number: int(r.GetNumber()), Honba: int(r.GetHonba()), RiichiSticks: int(r.GetRiichiSticks()), WallLeft: int(r.GetWallLeft())}
		if out.RoundWind, err = windOf("round_started.round_wind", r.GetRoundWind()); err != nil {
			return nil, err
		}
		if out.Dealer, err = seatOf("round_started.dealer", r.GetDealer()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("round_started.scores", r.GetScores()); err != nil {
			return nil, err
		}
		if out.Dora, err = parseTile("round_started.dora", r.GetDora()); err != nil {
			return nil, err
		}
		copy(out.Commitment[:], r.GetCommitment())
		out.Index = int(r.GetIndex())
		return out, nil
	case *pb.Event_Dealt:
		out := table.Dealt{}
		if out.Seat, err = seatOf("dealt.seat", b.Dealt.GetSeat()); err != nil {
			return nil, err
		}
		if out.Hand, err = parseTiles("dealt.hand", b.Dealt.GetHand()); err != nil {
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
		if out.Tile, err = parseTile("discarded.tile", d.GetTile()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_Fishing:
		f := b.Fishing
		out := table.Fishing{Shanten: int(f.GetShanten()), Furiten: f.GetFuriten()}
		if out.Seat, err = seatOf("fishing.seat", f.GetSeat()); err != nil {
			return nil, err
		}
		ws, err := parseTiles("fishing.waits", f.GetWaits())
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
		if out.Options, err = actionsFromPB(b.ClaimOffer.GetOptions(), out.Seat); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_TurnOffer:
		out := table.TurnOffer{}
		if out.Seat, err = seatOf("turn_offer.seat", b.TurnOffer.GetSeat()); err != nil {
			return nil, err
		}
		if out.Options, err = actionsFromPB(b.TurnOffer.GetOptions(), out.Seat); err != nil {
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
			return nil, err
		}
		if out.Scores, err = four("called.scores", c.GetScores()); err != nil {
			return nil, err
		}
		return out, nil
	case *pb.Event_DoraRevealed:
		x, err := parseTile("dora_revealed.indicator", b.DoraRevealed.GetIndicator())
		if err != nil {
			return nil, err
		}
		return table.DoraRevealed{Indicator: x}, nil
	case *pb.Event_Won:
		return wonFromPB(b.Won)
	case *pb.Event_RoundEnded:
		r := b.RoundEnded
		out := table.RoundEnded{Kind: table.RoundEndKind(r.GetKind()), RiichiSticks: int(r.GetRiichiSticks()), Honba: int(r.GetHonba()), GameOver: r.GetGameOver()}
		if out.Kind.String() == "invalid" {
			return nil, decodeErr("round_ended.kind", fmt.Errorf("%v", r.GetKind()))
		}
		if out.Deltas, err = four("round_ended.deltas", r.GetDeltas()); err != nil {
			return nil, err
		}
		if out.Scores, err = four("round_ended.scores", r.GetScores()); err != nil {
			return nil, err
		}
		if len(r.GetTenpai()) != table.NumSeats || len(r.GetHands()) != table.NumSeats {
			return nil, decodeErr("round_ended", fmt.Errorf("%d tenpai flags and %d hands", len(r.GetTenpai()), len(r.GetHands())))
		}
		for s := range table.NumSeats {
			out.Tenpai[s] = r.GetTenpai()[s]
			if out.Hands[s], err = parseTiles("round_ended.hands", r.GetHands()[s]); err != nil {
				return nil, err
			}
		}
		copy(out.WallSeed[:], r.GetWallSeed())
		return out, nil
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
	return nil, decodeErr("body", fmt.Errorf("unknown event body %T", e.GetBody()))
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
	if out.Hand, err = parseTiles("won.hand", w.GetHand()); err != nil {
		return out, err
	}
	if out.Melds, err = meldsFromPB(w.GetMelds()); err != nil {
		return out, err
	}
	if out.WinTile, err = parseTile("won.win_tile", w.GetWinTile()); err != nil {
		return out, err
	}
	if out.Ura, err = parseTiles("won.ura", w.GetUra()); err != nil {
		return out, err
	}
	for _, y := range w.GetYaku() {
		yk, ok := yakuByName[y.GetName()]
		if !ok {
			return out, decodeErr("won.yaku", fmt.Errorf("unknown yaku %q", y.GetName()))
		}
		out.Yaku = append(out.Yaku, judge.YakuHan{Yaku: yk, Han: int(y.GetHan())})
	}
	var ok bool
	if out.Limit, ok = limitByName[w.GetLimit()]; !ok {
		return out, decodeErr("won.limit", fmt.Errorf("unknown limit %q", w.GetLimit()))
	}
	if out.Deltas, err = four("won.deltas", w.GetDeltas()); err != nil {
		return out, err
	}
	return out, nil
}
