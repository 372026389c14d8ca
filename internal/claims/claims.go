// Package claims decides who may claim a discard and how simultaneous
// answers are resolved: the claim window of a table, for every rule set.
//
// After a discard (or a kan that others may rob) the table asks Offers what
// each seat may do: ron, pon, open kan, or chi (the next seat only, every
// shape and every choice of red fives). A Window then collects one answer
// per offered seat and, once every one has answered, Resolve applies the
// priorities: ron over pon and kan, pon and kan over chi. What differs
// between rule sets is a Policy: whether chi exists, whether several seats
// may win on one tile or only the nearest (head bump), whether three wins
// are an abortive draw, and whether play goes on after a win. Riichi's
// policy (Tenhou's) is the default: several rons all win, three are an
// abortive draw. Whether a seat may ron (waits, furiten, yaku, a void
// suit) is the table's verdict, passed in; everything about tile shapes,
// kuikae and priority lives here.
package claims

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

// Seat is a seat at the table, 0..3, as the table numbers them.
type Seat uint8

// Next returns the seat after s in turn order.
func (s Seat) Next() Seat { return (s + 1) % 4 }

// Call is what a seat does about a claimable tile. The order is the
// priority order, lowest first.
type Call uint8

// The calls. The zero value is invalid.
const (
	Pass Call = iota + 1
	Chi
	Pon
	OpenKan
	Ron
)

var callNames = [...]string{"", "pass", "chi", "pon", "open_kan", "ron"}

func (c Call) String() string {
	if c != 0 && int(c) < len(callNames) {
		return callNames[c]
	}
	return "invalid"
}

// priority ranks the calls: ron 3, pon and open kan 2, chi 1, pass 0.
func (c Call) priority() int {
	switch c {
	case Ron:
		return 3
	case Pon, OpenKan:
		return 2
	case Chi:
		return 1
	}
	return 0
}

// Option is one thing a seat may do: the call and the seat's own tiles it
// uses (two for chi and pon, three for an open kan, none for ron and pass),
// exactly, red fives included. Tiles are sorted.
type Option struct {
	Call  Call
	Tiles [3]tile.Tile
}

// N is how many own tiles the option uses.
func (o Option) N() int {
	switch o.Call {
	case Chi, Pon:
		return 2
	case OpenKan:
		return 3
	}
	return 0
}

func (o Option) String() string {
	if n := o.N(); n > 0 {
		return o.Call.String() + " " + tile.FormatInOrder(o.Tiles[:n])
	}
	return o.Call.String()
}

// Policy is what a rule set's claim windows allow and how they resolve.
// Its differences are data: each rule set names its policy.
type Policy struct {
	// Chi allows chi, to the seat after the discarder.
	Chi bool
	// HeadBump lets only the seat nearest the discarder in turn order win
	// when several may (atamahane); otherwise every seat that rons wins.
	HeadBump bool
	// TripleRonAborts makes three seats winning on one tile an abortive
	// draw (Tenhou's sanchahou) rather than three wins.
	TripleRonAborts bool
	// PlayOn goes on with the hand after a win on a discard (Sichuan's
	// bloody battle: winners leave play, the others play on); the
	// Resolution then says whose turn it is.
	PlayOn bool
}

// The policies of the rule sets.
var (
	// Riichi is Tenhou's: chi, every ron wins, three rons abort the round.
	Riichi = Policy{Chi: true, TripleRonAborts: true}
	// Sichuan has no chi, lets every seat that may win on a discard win,
	// and plays on after wins.
	Sichuan = Policy{PlayOn: true}
	// Official is Chinese Official (MCR): chi, and the nearest winner only.
	Official = Policy{Chi: true, HeadBump: true}
)

// Source is what opened the window.
type Source uint8

// The sources. A kan can only be robbed by ron.
const (
	Discard   Source = iota + 1
	AddedKan         // chankan
	ClosedKan        // thirteen orphans only, which the table's CanRon says
)

// Context is the claimable tile and what the rules allow on it.
type Context struct {
	Source Source
	From   Seat      // the discarder or the kan's owner
	Tile   tile.Tile // exactly, red or not
	// Calls allows pon, chi and open kan at all. The table clears it on the
	// last discard of the round and whenever the round must end unless
	// someone rons (the discard after a fourth kan, a fourth riichi).
	Calls bool
	// Kan allows an open kan: fewer than four kans so far.
	Kan bool
	// Policy is the rule set's; nil is Riichi.
	Policy *Policy
}

// policy returns the context's policy.
func (ctx *Context) policy() *Policy {
	if ctx.Policy == nil {
		return &Riichi
	}
	return ctx.Policy
}

// Claimant is what the window needs to know about one seat.
type Claimant struct {
	Hand   []tile.Tile // concealed tiles
	CanRon bool        // the table's verdict on a ron: waits, furiten, yaku
	Riichi bool        // a riichi hand may only ron
	// Counts, when set, are Hand's tiles by kind, which a table keeps
	// anyway: Offers then passes over a hand that holds neither two of the
	// tile's kind nor (the next seat) a chi shape without reading Hand.
	Counts *tile.Counts
	// Out is a seat that has left play (a winner when play goes on after
	// a win): it claims nothing.
	Out bool
}

// mayCall reports whether counts c could make any call on a discard of
// kind k: two of it for a pon (or three for a kan), or, for the next seat,
// both other kinds of a run with it.
func mayCall(c *tile.Counts, k tile.Kind, chi bool) bool {
	if c[k] >= 2 {
		return true
	}
	if !chi || k >= 27 {
		return false
	}
	n := k % 9 // 0 for a one
	return n >= 2 && c[k-2] > 0 && c[k-1] > 0 ||
		n >= 1 && n <= 7 && c[k-1] > 0 && c[k+1] > 0 ||
		n <= 6 && c[k+1] > 0 && c[k+2] > 0
}

// maxOptions bounds the options of one seat: ron, two pon choices, an open
// kan and at most six chi choices (three shapes, each with or without a
// red five).
const maxOptions = 10

// Offer is every option of one seat, without Pass, which is always
// allowed. It has fixed room, so building offers does not allocate.
type Offer struct {
	opts [maxOptions]Option
	n    uint8
}

// Options returns the options, highest priority first.
func (o *Offer) Options() []Option { return o.opts[:o.n] }

// Len is the number of options.
func (o *Offer) Len() int { return int(o.n) }

// Has reports whether opt is one of the options (Pass always is).
func (o *Offer) Has(opt Option) bool {
	if opt.Call == Pass {
		return true
	}
	for _, x := range o.opts[:o.n] {
		if x == opt {
			return true
		}
	}
	return false
}

func (o *Offer) add(opt Option) {
	if o.Has(opt) {
		return
	}
	o.opts[o.n] = opt
	o.n++
}

// Offers returns what each seat may do about ctx.Tile. The From seat never
// has options. Chi goes to the seat after From only; a pon or chi is
// offered only if the hand keeps a tile it may discard afterwards (see
// Forbidden).
func Offers(ctx *Context, seats *[4]Claimant) [4]Offer {
	var out [4]Offer
	for i := range seats {
		if Seat(i) != ctx.From {
			out[i] = SeatOffer(ctx, Seat(i), &seats[i])
		}
	}
	return out
}

// SeatOffer is Offers for seat s alone (not ctx.From), for a caller that
// knows the other seats have nothing to claim.
func SeatOffer(ctx *Context, s Seat, c *Claimant) Offer {
	var o Offer
	if c.Out {
		return o
	}
	if c.CanRon {
		o.add(Option{Call: Ron})
	}
	if ctx.Source != Discard || !ctx.Calls || c.Riichi {
		return o
	}
	k := ctx.Tile.Kind()
	chi := s == ctx.From.Next() && ctx.policy().Chi
	if c.Counts != nil && !mayCall(c.Counts, k, chi) {
		return o
	}
	var have faceCounts
	for _, t := range c.Hand {
		have.add(t)
	}
	plain, red := have.of(k)
	// Pon: two of the kind; a red five in hand may or may not be used.
	if plain >= 2 {
		offerCall(&o, c.Hand, ctx.Tile, Option{Call: Pon, Tiles: [3]tile.Tile{tile.Plain(k), tile.Plain(k)}})
	}
	if plain >= 1 && red >= 1 {
		offerCall(&o, c.Hand, ctx.Tile, Option{Call: Pon, Tiles: [3]tile.Tile{tile.RedOf(k), tile.Plain(k)}})
	}
	if ctx.Kan && plain+red == 3 {
		opt := Option{Call: OpenKan}
		n := 0
		for _, t := range c.Hand {
			if t.Kind() == k {
				opt.Tiles[n] = t
				n++
			}
		}
		sort3(&opt.Tiles)
		o.add(opt)
	}
	if chi && k < 27 {
		shapes, n := chiShapes(k)
		for _, sh := range shapes[:n] {
			as, na := have.faces(sh[0])
			if na == 0 {
				continue
			}
			bs, nb := have.faces(sh[1])
			for _, a := range as[:na] {
				for _, b := range bs[:nb] {
					offerCall(&o, c.Hand, ctx.Tile, Option{Call: Chi, Tiles: [3]tile.Tile{a, b}})
				}
			}
		}
	}
	return o
}

// offerCall adds a chi or pon unless it would leave the hand nothing it may
// discard (Tenhou refuses such calls).
func offerCall(o *Offer, hand []tile.Tile, called tile.Tile, opt Option) {
	if len(hand) >= 11 {
		// Nine tiles or more are left after the call, and the forbidden
		// kinds (two at most) cannot hold more than eight.
		o.add(opt)
		return
	}
	forbidden := Forbidden(opt, called)
	used := [2]bool{}
	for _, t := range hand {
		if !used[0] && t == opt.Tiles[0] {
			used[0] = true
			continue
		}
		if !used[1] && t == opt.Tiles[1] {
			used[1] = true
			continue
		}
		if !forbidden.Has(t.Kind()) {
			o.add(opt)
			return
		}
	}
}

// chiShapes returns the pairs of kinds that make a run with k: below, around
// and above it, within its suit.
func chiShapes(k tile.Kind) (shapes [3][2]tile.Kind, n int) {
	num := k.Number()
	if num >= 3 {
		shapes[n] = [2]tile.Kind{k - 2, k - 1}
		n++
	}
	if num >= 2 && num <= 8 {
		shapes[n] = [2]tile.Kind{k - 1, k + 1}
		n++
	}
	if num <= 7 {
		shapes[n] = [2]tile.Kind{k + 1, k + 2}
		n++
	}
	return shapes, n
}

// Forbidden returns the kinds a seat may not discard right after making
// the call opt on the tile called: Tenhou forbids swap-calling (kuikae).
// After a pon, the called kind; after a chi, the called kind and, when the
// called tile is an end of the run, the kind that would make the same run
// at the other end (suji-kuikae: calling 4 with 56 forbids 4 and 7).
func Forbidden(opt Option, called tile.Tile) tile.KindSet {
	k := called.Kind()
	switch opt.Call {
	case Pon:
		return tile.SetOf(k)
	case Chi:
		s := tile.SetOf(k)
		a, b := opt.Tiles[0].Kind(), opt.Tiles[1].Kind()
		if a > b {
			a, b = b, a
		}
		switch {
		case k < a && k.Number() <= 6: // k, k+1, k+2 called from below
			s = s.With(k + 3)
		case k > b && k.Number() >= 4: // k-2, k-1, k called from above
			s = s.With(k - 3)
		}
		return s
	}
	return 0
}

// faceCounts counts a hand by face: plain kinds and the three red fives.
type faceCounts struct {
	plain tile.Counts
	red   [3]uint8
}

func (f *faceCounts) add(t tile.Tile) {
	if t.Red() {
		f.red[t.Kind()/9]++
		return
	}
	if k := t.Kind(); k < tile.NumKinds {
		f.plain[k]++
	}
}

func (f *faceCounts) of(k tile.Kind) (plain, red int) {
	plain = int(f.plain[k])
	if k.HasRed() {
		red = int(f.red[k/9])
	}
	return plain, red
}

// faces returns the distinct faces of kind k the hand holds, plain first.
func (f *faceCounts) faces(k tile.Kind) (faces [2]tile.Tile, n int) {
	plain, red := f.of(k)
	if plain > 0 {
		faces[n] = tile.Plain(k)
		n++
	}
	if red > 0 {
		faces[n] = tile.RedOf(k)
		n++
	}
	return faces, n
}

// sort3 sorts three tiles by kind, a red five before its plain copies.
func sort3(ts *[3]tile.Tile) {
	less := func(a, b tile.Tile) bool {
		if a.Kind() != b.Kind() {
			return a.Kind() < b.Kind()
		}
		return a.Red() && !b.Red()
	}
	for i := 1; i < 3; i++ {
		for j := i; j > 0 && less(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// Errors of answers. Every error Answer returns matches one of them.
var (
	ErrNotOffered = errors.New("claims: not offered")
	ErrAnswered   = errors.New("claims: already answered")
	ErrNoClaim    = errors.New("claims: seat has nothing to claim")
)

// AnswerError says which answer was refused.
type AnswerError struct {
	Seat   Seat
	Option Option
	Err    error // one of the Err values
}

func (e *AnswerError) Error() string {
	return fmt.Sprintf("%v: seat %d: %v", e.Err, e.Seat, e.Option)
}

func (e *AnswerError) Unwrap() error { return e.Err }

// Window collects the answers to one claimable tile. The zero value is a
// closed window; Open starts one.
type Window struct {
	from     Seat
	offers   [4]Offer
	answered [4]bool
	answers  [4]Option
	policy   *Policy // nil: Riichi
}

// Open starts a window on a tile from seat from with the given offers,
// resolved by riichi's policy.
func (w *Window) Open(from Seat, offers [4]Offer) {
	*w = Window{from: from, offers: offers}
}

// OpenPolicy starts a window resolved by policy p (the one its offers were
// made with).
func (w *Window) OpenPolicy(from Seat, offers [4]Offer, p *Policy) {
	*w = Window{from: from, offers: offers, policy: p}
}

// From is the seat whose tile is claimable.
func (w *Window) From() Seat { return w.from }

// Offer returns seat s's offer (empty when s may not claim).
func (w *Window) Offer(s Seat) *Offer { return &w.offers[s&3] }

// Waiting reports whether seat s has an offer it has not answered yet.
func (w *Window) Waiting(s Seat) bool {
	return s < 4 && w.offers[s].n > 0 && !w.answered[s]
}

// Answered reports whether seat s has answered, and with what.
func (w *Window) Answered(s Seat) (Option, bool) {
	if s >= 4 {
		return Option{}, false
	}
	return w.answers[s], w.answered[s]
}

// Check reports whether seat s may answer opt now, without recording it.
func (w *Window) Check(s Seat, opt Option) error {
	switch {
	case s >= 4 || w.offers[s].n == 0:
		return &AnswerError{s, opt, ErrNoClaim}
	case w.answered[s]:
		return &AnswerError{s, opt, ErrAnswered}
	case !w.offers[s].Has(opt):
		return &AnswerError{s, opt, ErrNotOffered}
	}
	return nil
}

// Answer records seat s's answer. Each offered seat answers exactly once;
// on error nothing is recorded.
func (w *Window) Answer(s Seat, opt Option) error {
	if err := w.Check(s, opt); err != nil {
		return err
	}
	w.answered[s], w.answers[s] = true, opt
	return nil
}

// Done reports whether every seat with an offer has answered.
func (w *Window) Done() bool {
	for s := range w.offers {
		if w.offers[s].n > 0 && !w.answered[s] {
			return false
		}
	}
	return true
}

// Resolution is the outcome of a window.
type Resolution struct {
	// Rons are the seats that ron, in turn order from the discarder (the
	// first one is the nearest: it takes honba and sticks); with a
	// head-bump policy only the nearest.
	Rons [3]Seat
	NRon int
	// TripleRon is Tenhou's abortive draw: three seats ron the same tile
	// (policies with TripleRonAborts only).
	TripleRon bool
	// PlayOn is set when seats won and the policy plays on: Next is the
	// seat whose turn it is then, the one after the last winner in turn
	// order from the discarder.
	PlayOn bool
	Next   Seat
	// Called is set when no seat rons and a seat calls: the caller with
	// the highest priority (pon and kan over chi), nearest in turn order.
	Called bool
	Caller Seat
	Call   Option
}

// Resolve applies the priorities to the answers. Seats that did not answer
// count as passing, so call it once Done.
func (w *Window) Resolve() Resolution {
	var r Resolution
	best := 0
	for i := 1; i < 4; i++ {
		s := (w.from + Seat(i)) % 4
		if !w.answered[s] {
			continue
		}
		a := w.answers[s]
		if a.Call == Ron {
			r.Rons[r.NRon] = s
			r.NRon++
			continue
		}
		if p := a.Call.priority(); p > best {
			best, r.Called, r.Caller, r.Call = p, true, s, a
		}
	}
	if r.NRon > 0 {
		r.Called, r.Caller, r.Call = false, 0, Option{}
	}
	p := w.policy
	if p == nil {
		p = &Riichi
	}
	if p.HeadBump && r.NRon > 1 {
		r.Rons, r.NRon = [3]Seat{r.Rons[0]}, 1
	}
	r.TripleRon = r.NRon == 3 && p.TripleRonAborts
	if p.PlayOn && r.NRon > 0 {
		r.PlayOn, r.Next = true, r.Rons[r.NRon-1].Next()
	}
	return r
}
