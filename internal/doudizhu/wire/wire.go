// Package wire converts between the Dou Dizhu engine's types (package
// table) and the API's (doudizhu.authority.v1): actions from clients,
// views, events and offers to them. The server and the Go client share
// it, so that both read the API the same way.
package wire

import (
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// ErrMalformed is what every refused action matches: a field out of its
// range, or cards that are not cards.
var ErrMalformed = errors.New("malformed action")

// maxCardsLen bounds the cards of an action before they are parsed: no
// hand holds more than 20 cards.
const maxCardsLen = 20

var actionTypes = map[pb.ActionType]table.ActionType{
	pb.ActionType_ACTION_TYPE_BID:  table.Bid,
	pb.ActionType_ACTION_TYPE_CALL: table.Call,
	pb.ActionType_ACTION_TYPE_ROB:  table.Rob,
	pb.ActionType_ACTION_TYPE_PASS: table.Pass,
	pb.ActionType_ACTION_TYPE_PLAY: table.Play,
}

// ActionFromPB checks a client's action and returns it for seat. The
// engine decides whether it is legal now; this only checks its form.
func ActionFromPB(a *pb.Action, seat table.Seat) (table.Action, error) {
	if a == nil {
		return table.Action{}, fmt.Errorf("action: missing: %w", ErrMalformed)
	}
	t, ok := actionTypes[a.GetType()]
	if !ok {
		return table.Action{}, fmt.Errorf("action.type: %v: %w", a.GetType(), ErrMalformed)
	}
	out := table.Action{Seat: seat, Type: t}
	if t == table.Bid {
		if b := a.GetBid(); b < 1 || b > 3 {
			return table.Action{}, fmt.Errorf("action.bid: %d, want 1, 2 or 3: %w", b, ErrMalformed)
		}
		out.Bid = int(a.GetBid())
	} else if a.GetBid() != 0 {
		return table.Action{}, fmt.Errorf("action.bid: set for %v: %w", a.GetType(), ErrMalformed)
	}
	if t == table.Play {
		s := a.GetCards()
		if s == "" || len(s) > maxCardsLen {
			return table.Action{}, fmt.Errorf("action.cards: want 1 to %d cards, have %d: %w", maxCardsLen, len(s), ErrMalformed)
		}
		c, err := card.Parse(s)
		if err != nil {
			return table.Action{}, fmt.Errorf("action.cards: %w: %w", ErrMalformed, err)
		}
		out.Cards = c
	} else if a.GetCards() != "" {
		return table.Action{}, fmt.Errorf("action.cards: set for %v: %w", a.GetType(), ErrMalformed)
	}
	return out, nil
}

// ActionToPB is an engine action in the API (a Deal has none: nil).
func ActionToPB(a table.Action) *pb.Action {
	for k, v := range actionTypes {
		if v == a.Type {
			out := &pb.Action{Type: k}
			switch a.Type {
			case table.Bid:
				out.Bid = uint32(a.Bid)
			case table.Play:
				out.Cards = a.Cards.String()
			}
			return out
		}
	}
	return nil
}

func actionTypeToPB(t table.ActionType) pb.ActionType {
	for k, v := range actionTypes {
		if v == t {
			return k
		}
	}
	return pb.ActionType_ACTION_TYPE_UNSPECIFIED
}

// PlayToPB is a play as the judge read it. The judge's types are numbered
// as the API's.
func PlayToPB(p *judge.Play) *pb.Play {
	out := &pb.Play{Type: pb.PlayType(p.Type), Length: uint32(p.Len), Cards: p.Cards.String()}
	if p.Type != judge.Rocket {
		out.Rank = p.Rank.String()
	}
	return out
}

// OfferToPB is what the seat to act may do.
func OfferToPB(o *table.Offer) *pb.Offer {
	out := &pb.Offer{Seat: uint32(o.Seat), Call: o.Call, Rob: o.Rob, Pass: o.Pass, Play: o.Play, MustLead: o.MustLead}
	for v := uint32(1); v <= 3; v++ {
		if o.Bids&(1<<v) != 0 {
			out.Bids = append(out.Bids, v)
		}
	}
	if o.ToBeat.Type != judge.Invalid {
		out.ToBeat = PlayToPB(&o.ToBeat)
	}
	return out
}

var phases = map[table.Phase]pb.Phase{
	table.BetweenDeals: pb.Phase_PHASE_BETWEEN_DEALS,
	table.Bidding:      pb.Phase_PHASE_BIDDING,
	table.Playing:      pb.Phase_PHASE_PLAYING,
	table.MatchOver:    pb.Phase_PHASE_MATCH_OVER,
}

func scores(v [table.NumSeats]int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func hands(h *[table.NumSeats]card.Counts) []string {
	out := make([]string, len(h))
	for i := range h {
		out[i] = h[i].String()
	}
	return out
}

// ViewToPB is a seat's view; offer, when not nil, is what it may do now.
func ViewToPB(v *table.View, offer *table.Offer) *pb.View {
	out := &pb.View{
		Seat: uint32(v.Seat), Phase: phases[v.Phase], Index: int32(v.Index), Number: uint32(v.Number),
		Scores: scores(v.Scores), Hand: v.Hand.String(), First: uint32(v.First), ToAct: uint32(v.ToAct),
		Base: uint32(v.Base), HasBid: v.HasBid, Bidder: uint32(v.Bidder), Robs: uint32(v.Robs),
		HasLandlord: v.HasLandlord, Landlord: uint32(v.Landlord), Kitty: v.Kitty.String(),
		LastBy: uint32(v.LastBy), MustLead: v.MustLead, Bombs: uint32(v.Bombs), Played: v.Played.String(),
	}
	for _, n := range v.Left {
		out.Left = append(out.Left, uint32(n))
	}
	for _, b := range v.Bids {
		out.Bids = append(out.Bids, int32(b))
	}
	if v.HasLast {
		out.Last = PlayToPB(&v.Last)
	}
	if offer != nil {
		out.Offer = OfferToPB(offer)
	}
	return out
}

// EventToPB is an engine event (or a host's offer) in the API.
func EventToPB(seq uint64, at time.Time, b table.Body) (*pb.Event, error) {
	e := &pb.Event{Seq: seq, Time: timestamppb.New(at)}
	switch b := b.(type) {
	case table.DealStarted:
		e.Body = &pb.Event_DealStarted{DealStarted: &pb.DealStarted{Index: uint32(b.Index), Number: uint32(b.Number),
			First: uint32(b.First), Commitment: b.Commitment[:], Scores: scores(b.Scores)}}
	case table.Dealt:
		e.Body = &pb.Event_Dealt{Dealt: &pb.Dealt{Seat: uint32(b.Seat), Hand: b.Hand.String()}}
	case table.BidMade:
		e.Body = &pb.Event_BidMade{BidMade: &pb.BidMade{Seat: uint32(b.Seat), Type: actionTypeToPB(b.Type), Bid: uint32(b.Bid), Base: uint32(b.Base)}}
	case table.ThrownIn:
		e.Body = &pb.Event_ThrownIn{ThrownIn: &pb.ThrownIn{Index: uint32(b.Index), Seed: b.Seed[:], Hands: hands(&b.Hands), Kitty: b.Kitty.String()}}
	case table.LandlordChosen:
		e.Body = &pb.Event_LandlordChosen{LandlordChosen: &pb.LandlordChosen{Seat: uint32(b.Seat), Kitty: b.Kitty.String(), Base: uint32(b.Base)}}
	case table.Played:
		e.Body = &pb.Event_Played{Played: &pb.Played{Seat: uint32(b.Seat), Play: PlayToPB(&b.Play), Left: uint32(b.Left), Bombs: uint32(b.Bombs)}}
	case table.Passed:
		e.Body = &pb.Event_Passed{Passed: &pb.Passed{Seat: uint32(b.Seat), Lead: b.Lead}}
	case table.DealEnded:
		e.Body = &pb.Event_DealEnded{DealEnded: &pb.DealEnded{
			Winner: uint32(b.Winner), Landlord: uint32(b.Landlord), LandlordWon: b.LandlordWon, Base: uint32(b.Base),
			Bombs: uint32(b.Bombs), Doublings: uint32(b.Doublings), Spring: b.Spring, AntiSpring: b.AntiSpring,
			Stake: int64(b.Stake), Deltas: scores(b.Deltas), Scores: scores(b.Scores), Hands: hands(&b.Hands),
			Seed: b.Seed[:], MatchOver: b.MatchOver,
		}}
	case table.MatchEnded:
		m := &pb.MatchEnded{Scores: scores(b.Scores)}
		for _, r := range b.Ranks {
			m.Ranks = append(m.Ranks, uint32(r))
		}
		e.Body = &pb.Event_MatchEnded{MatchEnded: m}
	case table.Offer:
		e.Body = &pb.Event_Offer{Offer: OfferToPB(&b)}
	default:
		return nil, fmt.Errorf("event %d: body %T not in the API", seq, b)
	}
	return e, nil
}
