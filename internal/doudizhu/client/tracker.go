package client

import (
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// Tracker keeps a seat's view (the engine's table.View, so that the bot of
// package bot plays it) from the seat's snapshot and events. For a
// spectator the hand stays empty. Legal holds the bidding actions of the
// seat's offer while it is to bid; a seat's legal plays are the judge's
// (judge.AppendLegal of its hand against Last), which TestTrackerMatchesEngine
// holds against the engine's views. Bids is the engine's for points
// bidding; at a call-and-rob table (where the engine leaves it at -1) a
// pass shows as 0 there.
type Tracker struct {
	v table.View
}

// NewTracker returns the tracker of seat before the first deal.
func NewTracker(seat table.Seat) *Tracker {
	t := &Tracker{}
	t.v = table.View{Seat: seat, Phase: table.BetweenDeals, Index: -1}
	return t
}

// View is the seat's view.
func (t *Tracker) View() *table.View { return &t.v }

// Answered records that the seat acted on its offer.
func (t *Tracker) Answered() { t.v.Legal = nil }

func cards(field, s string) (card.Counts, error) {
	c, err := card.Parse(s)
	if err != nil {
		return c, fmt.Errorf("%s: %w: %w", field, ErrDecode, err)
	}
	return c, nil
}

func seat(field string, s uint32) (table.Seat, error) {
	if s >= table.NumSeats {
		return 0, fmt.Errorf("%s: seat %d: %w", field, s, ErrDecode)
	}
	return table.Seat(s), nil
}

func scores(v []int64) (out [table.NumSeats]int) {
	for i := range min(len(v), len(out)) {
		out[i] = int(v[i])
	}
	return out
}

// PlayFromPB reads a play.
func PlayFromPB(p *pb.Play) (judge.Play, error) {
	c, err := cards("play.cards", p.GetCards())
	if err != nil {
		return judge.Play{}, err
	}
	out := judge.Classify(&c)
	if out.Type == judge.Invalid {
		return out, fmt.Errorf("play %q: no play: %w", p.GetCards(), ErrDecode)
	}
	// Cards with two readings are read as the server read them.
	if out.Type != judge.Type(p.GetType()) || out.Len != uint8(p.GetLength()) {
		out.Type, out.Len = judge.Type(p.GetType()), uint8(p.GetLength())
		if rk := p.GetRank(); len(rk) == 1 {
			if r, ok := card.ParseRank(rk[0]); ok {
				out.Rank = r
			}
		}
	}
	return out, nil
}

// ViewFromPB reads a seat's snapshot.
func ViewFromPB(v *pb.View, seq uint64) (table.View, error) {
	var out table.View
	var err error
	if out.Seat, err = seat("view.seat", v.GetSeat()); err != nil {
		return out, err
	}
	out.Phase = table.Phase(v.GetPhase())
	if out.Phase < table.BetweenDeals || out.Phase > table.MatchOver {
		return out, fmt.Errorf("view.phase %v: %w", v.GetPhase(), ErrDecode)
	}
	out.Index, out.Number, out.Scores = int(v.GetIndex()), int(v.GetNumber()), scores(v.GetScores())
	if out.Hand, err = cards("view.hand", v.GetHand()); err != nil {
		return out, err
	}
	for i := range min(len(v.GetLeft()), table.NumSeats) {
		out.Left[i] = int(v.GetLeft()[i])
	}
	for i := range min(len(v.GetBids()), table.NumSeats) {
		out.Bids[i] = int8(v.GetBids()[i])
	}
	out.First, out.ToAct = table.Seat(v.GetFirst()%table.NumSeats), table.Seat(v.GetToAct()%table.NumSeats)
	out.Base, out.HasBid, out.Bidder, out.Robs = int(v.GetBase()), v.GetHasBid(), table.Seat(v.GetBidder()%table.NumSeats), int(v.GetRobs())
	out.HasLandlord, out.Landlord = v.GetHasLandlord(), table.Seat(v.GetLandlord()%table.NumSeats)
	if out.Kitty, err = cards("view.kitty", v.GetKitty()); err != nil {
		return out, err
	}
	if v.GetLast() != nil {
		if out.Last, err = PlayFromPB(v.GetLast()); err != nil {
			return out, err
		}
		out.HasLast, out.LastBy = true, table.Seat(v.GetLastBy()%table.NumSeats)
	}
	out.MustLead, out.Bombs = v.GetMustLead(), int(v.GetBombs())
	if out.Played, err = cards("view.played", v.GetPlayed()); err != nil {
		return out, err
	}
	out.Seq = seq
	if o := v.GetOffer(); o != nil && o.GetSeat() == v.GetSeat() && out.Phase == table.Bidding {
		out.Legal = bidding(out.Seat, o)
	}
	return out, nil
}

// bidding is the bidding actions an offer allows.
func bidding(s table.Seat, o *pb.Offer) []table.Action {
	var acts []table.Action
	for _, b := range o.GetBids() {
		acts = append(acts, table.Action{Seat: s, Type: table.Bid, Bid: int(b)})
	}
	if o.GetCall() {
		acts = append(acts, table.Action{Seat: s, Type: table.Call})
	}
	if o.GetRob() {
		acts = append(acts, table.Action{Seat: s, Type: table.Rob})
	}
	if o.GetPass() {
		acts = append(acts, table.Action{Seat: s, Type: table.Pass})
	}
	return acts
}

// Reset sets the view from a snapshot.
func (t *Tracker) Reset(v table.View) { t.v = v }

// Apply applies an event to the view.
func (t *Tracker) Apply(e *pb.Event) error {
	v := &t.v
	switch b := e.GetBody().(type) {
	case *pb.Event_DealStarted:
		d := b.DealStarted
		first, err := seat("deal_started.first", d.GetFirst())
		if err != nil {
			return err
		}
		*v = table.View{Seat: v.Seat, Phase: table.Bidding, Index: int(d.GetIndex()), Number: int(d.GetNumber()),
			Scores: scores(d.GetScores()), First: first, ToAct: first, Bids: [table.NumSeats]int8{-1, -1, -1},
			Left: [table.NumSeats]int{17, 17, 17}}
	case *pb.Event_Dealt:
		if b.Dealt.GetSeat() != uint32(v.Seat) {
			return fmt.Errorf("dealt: seat %d's cards on seat %d's stream: %w", b.Dealt.GetSeat(), v.Seat, ErrInconsistent)
		}
		h, err := cards("dealt.hand", b.Dealt.GetHand())
		if err != nil {
			return err
		}
		v.Hand = h
	case *pb.Event_BidMade:
		m := b.BidMade
		s, err := seat("bid_made.seat", m.GetSeat())
		if err != nil {
			return err
		}
		switch m.GetType() {
		case pb.ActionType_ACTION_TYPE_PASS:
			if v.Bids[s] < 0 {
				v.Bids[s] = 0
			}
		case pb.ActionType_ACTION_TYPE_BID:
			v.Bids[s] = int8(m.GetBid())
			v.HasBid, v.Bidder = true, s
		case pb.ActionType_ACTION_TYPE_CALL:
			v.HasBid, v.Bidder = true, s
		case pb.ActionType_ACTION_TYPE_ROB:
			v.HasBid, v.Bidder = true, s
			v.Robs++
		}
		v.Base = int(m.GetBase())
		v.ToAct = s.Next()
		if s == v.Seat {
			v.Legal = nil
		}
	case *pb.Event_ThrownIn:
		v.Phase = table.BetweenDeals
	case *pb.Event_LandlordChosen:
		l := b.LandlordChosen
		s, err := seat("landlord_chosen.seat", l.GetSeat())
		if err != nil {
			return err
		}
		k, err := cards("landlord_chosen.kitty", l.GetKitty())
		if err != nil {
			return err
		}
		v.Phase, v.Landlord, v.HasLandlord, v.Kitty, v.Base = table.Playing, s, true, k, int(l.GetBase())
		v.Left[s] += k.Len()
		if s == v.Seat {
			v.Hand.Add(&k)
		}
		v.ToAct, v.MustLead, v.HasLast, v.Legal = s, true, false, nil
	case *pb.Event_Played:
		p := b.Played
		s, err := seat("played.seat", p.GetSeat())
		if err != nil {
			return err
		}
		play, err := PlayFromPB(p.GetPlay())
		if err != nil {
			return err
		}
		if s == v.Seat {
			if !v.Hand.Contains(&play.Cards) {
				return fmt.Errorf("played %s, not in the hand %s: %w", play.Cards.String(), v.Hand.String(), ErrInconsistent)
			}
			v.Hand.Sub(&play.Cards)
		}
		v.Last, v.LastBy, v.HasLast, v.MustLead = play, s, true, false
		v.Left[s], v.Bombs = int(p.GetLeft()), int(p.GetBombs())
		v.Played.Add(&play.Cards)
		v.ToAct = s.Next()
	case *pb.Event_Passed:
		s, err := seat("passed.seat", b.Passed.GetSeat())
		if err != nil {
			return err
		}
		v.ToAct = s.Next()
		if b.Passed.GetLead() {
			v.HasLast, v.MustLead, v.ToAct = false, true, v.LastBy
		}
	case *pb.Event_DealEnded:
		v.Scores = scores(b.DealEnded.GetScores())
		v.Phase = table.BetweenDeals
		if b.DealEnded.GetMatchOver() {
			v.Phase = table.MatchOver
		}
	case *pb.Event_MatchEnded:
		v.Phase = table.MatchOver
		v.Scores = scores(b.MatchEnded.GetScores())
	case *pb.Event_Offer:
		o := b.Offer
		s, err := seat("offer.seat", o.GetSeat())
		if err != nil {
			return err
		}
		v.ToAct = s
		if s == v.Seat && v.Phase == table.Bidding {
			v.Legal = bidding(s, o)
		}
		if s == v.Seat && v.Phase == table.Playing {
			v.MustLead = o.GetMustLead()
		}
	case *pb.Event_SeatNotice:
	default:
		return fmt.Errorf("event %d: no body: %w", e.GetSeq(), ErrDecode)
	}
	return nil
}
