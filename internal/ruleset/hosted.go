package ruleset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/encoded"
	"github.com/mahjong-authority/authority/internal/host"
)

// Parts are what a rule set brings to be hosted: its games, and the
// conversions of its actions, views and events to and from the API.
type Parts[A comparable, V, B any] interface {
	// Seats is the number of seats of the rule set's tables.
	Seats() int
	// Game makes the games of a table from its description: the engine
	// of its settings, and walls from its seed.
	Game(m Meta) (host.NewGame[A, V, B], error)
	// ActionFromPB checks a client's action and returns it for seat; an
	// error wraps ErrMalformed or ErrBadTile and names the field.
	ActionFromPB(a *pb.Action, seat int) (A, error)
	// ViewToPB is a seat's view in the API.
	ViewToPB(v V) *pb.View
	// EventToPB is a game event in the API.
	EventToPB(seq uint64, at time.Time, b B) (*pb.Event, error)
	// Record takes the record of a hosted game so far, in the table's
	// goroutine; it is written outside it. A game that keeps none is an
	// error.
	Record(g host.Game[A, V, B]) (Record, error)
}

// Record is a hosted game's record, as ExportGame writes it.
type Record interface {
	// Write writes the record in a format with the players' names; a
	// format the rule set does not write is an error wrapping
	// ErrMalformed.
	Write(w io.Writer, format pb.RecordFormat, names []string) error
	// Partial reports whether the game has not ended (only its finished
	// rounds are in the record), Rounds how many rounds are.
	Partial() bool
	Rounds() int
}

// Hosted is a rule set's Tables: a host of the rule set's types and its
// Parts.
type Hosted[A comparable, V, B any] struct {
	name   string
	parts  Parts[A, V, B]
	h      *host.Host[A, V, B]
	fromPB func(a *pb.Action, seat int) (A, error) // parts.ActionFromPB, made once for Act
}

// NewHosted starts a host for a rule set named name: cfg carries the rule
// set's own parts of the host's configuration (Store, Bot, Codec), hs the
// server's. A nil Store is memory, where a table is forgotten when it
// leaves the host's memory.
func NewHosted[A comparable, V, B any](name string, p Parts[A, V, B], hs Hosting, cfg host.Config[A, V, B]) *Hosted[A, V, B] {
	t := &Hosted[A, V, B]{name: name, parts: p, fromPB: p.ActionFromPB}
	cfg.Clock, cfg.Log, cfg.SeatRate = hs.Clock, hs.Log, hs.SeatRate
	cfg.MaxTables, cfg.Count, cfg.MaxSeatStreams = hs.MaxTables, hs.Count, hs.MaxSeatStreams
	cfg.FinishedTTL, cfg.IdleTTL, cfg.KeepGames = hs.FinishedTTL, hs.IdleTTL, hs.KeepGames
	cfg.ForgetEvicted = cfg.Store == nil
	cfg.GameFor = t.storedGame
	cfg.Encode = t.encode
	if f := hs.Lifecycle; f != nil {
		cfg.Lifecycle = func(l host.Life[B]) {
			out := Life{Kind: l.Kind, At: l.At, Info: l.Info}
			if l.HasFinal {
				out.Final, _ = t.parts.EventToPB(0, l.At, l.Final) // a game event the rule set converted before
			}
			f(out)
		}
	}
	if hs.Observer != nil {
		cfg.Observer = hs.Observer
	}
	if k, ok := p.(interface{ ActionKind(A) string }); ok {
		cfg.ActionKind = k.ActionKind
	}
	if hs.Owner != nil {
		cfg.Owner = hs.Owner(name, t)
	}
	t.h = host.New(cfg)
	return t
}

// Adopt takes a table over from the store (host.Host.Adopt).
func (t *Hosted[A, V, B]) Adopt(ctx context.Context, id string) error { return t.h.Adopt(ctx, id) }

// Release gives a table up to another node (host.Host.Release).
func (t *Hosted[A, V, B]) Release(id string, why error) bool { return t.h.Release(id, why) }

// Host returns the rule set's host, for in-process tools and tests.
func (t *Hosted[A, V, B]) Host() *host.Host[A, V, B] { return t.h }

// storedGame makes the games of a stored table from its record.
func (t *Hosted[A, V, B]) storedGame(rec host.TableRecord) (host.NewGame[A, V, B], error) {
	m, err := DecodeMeta(rec.Meta)
	if err != nil {
		return nil, err
	}
	if m.RuleSet != "" && m.RuleSet != t.name {
		return nil, fmt.Errorf("table %s: a %s table in the %s store", rec.ID, m.RuleSet, t.name)
	}
	return t.parts.Game(m)
}

// Create opens a table.
func (t *Hosted[A, V, B]) Create(ctx context.Context, s host.Settings, m Meta) (host.Info, string, error) {
	return t.CreateReserved(ctx, s, m, nil)
}

// CreateReserved opens a table with seats reserved.
func (t *Hosted[A, V, B]) CreateReserved(ctx context.Context, s host.Settings, m Meta, rs func(id string) []host.Reservation) (host.Info, string, error) {
	m.RuleSet = t.name
	newGame, err := t.parts.Game(m)
	if err != nil {
		return host.Info{}, "", err
	}
	meta, err := m.Encode()
	if err != nil {
		return host.Info{}, "", err
	}
	s.Seats = t.parts.Seats()
	return t.h.CreateReserved(ctx, s, meta, newGame, rs)
}

// Each describes every table in memory.
func (t *Hosted[A, V, B]) Each(f func(host.Info)) { t.h.Each(f) }

// Holds reports whether the host knows the table without reading its store.
func (t *Hosted[A, V, B]) Holds(id string) bool { return t.h.Holds(id) }

// Get describes a table.
func (t *Hosted[A, V, B]) Get(ctx context.Context, id string) (host.Info, error) {
	return t.h.Get(ctx, id)
}

// List lists the host's tables.
func (t *Hosted[A, V, B]) List(q host.ListQuery) ([]host.Info, bool) { return t.h.List(q) }

// Join takes a seat.
func (t *Hosted[A, V, B]) Join(ctx context.Context, id, name string, entropy []byte) (int, string, error) {
	return t.h.Join(ctx, id, name, entropy)
}

// Reserve reserves a seat.
func (t *Hosted[A, V, B]) Reserve(ctx context.Context, id string, r host.Reservation) error {
	return t.h.Reserve(ctx, id, r)
}

// JoinPass takes the seat of a checked ticket.
func (t *Hosted[A, V, B]) JoinPass(ctx context.Context, id string, p host.Pass, entropy []byte) (string, error) {
	return t.h.JoinPass(ctx, id, p, entropy)
}

// CloseWaiting closes a table that has not started.
func (t *Hosted[A, V, B]) CloseWaiting(ctx context.Context, id string) error {
	return t.h.CloseWaiting(ctx, id)
}

// Abandon ends a game in play, a draw.
func (t *Hosted[A, V, B]) Abandon(ctx context.Context, id string) error { return t.h.Abandon(ctx, id) }

// Leave gives a seat up.
func (t *Hosted[A, V, B]) Leave(ctx context.Context, id, token string) error {
	return t.h.Leave(ctx, id, token)
}

// Start starts a table.
func (t *Hosted[A, V, B]) Start(ctx context.Context, id, token string) error {
	return t.h.Start(ctx, id, token)
}

// Act checks the action whole before it asks the table anything, then
// plays it for the token's seat.
func (t *Hosted[A, V, B]) Act(ctx context.Context, id string, r ActRequest) (uint64, error) {
	if _, err := t.parts.ActionFromPB(r.Action, 0); err != nil {
		return 0, err
	}
	// The seat's action is made in a call into the table: one call into
	// the table, not two.
	return host.ActFor(ctx, t.h, id, host.Request[A]{Token: r.Token, LastSeq: r.LastSeq, RequestID: r.RequestID},
		r.Action, t.fromPB)
}

// Follow streams a seat's snapshot and events: each message a
// *pb.StreamEventsResponse or, for an event, its encoding (an
// *encoded.Message around the bytes every viewer of the event shares).
func (t *Hosted[A, V, B]) Follow(ctx context.Context, id, token string, afterSeq uint64, send func(proto.Message) error) error {
	return t.h.Follow(ctx, id, token, afterSeq, func(it host.Item[V, B]) error { return t.sendItem(it, send, nil) })
}

// sendItem sends one item of a seat's follow as Follow's message: an
// encoded event in msg if it is not nil (send must not keep it), in a
// Message of its own otherwise.
func (t *Hosted[A, V, B]) sendItem(it host.Item[V, B], send func(proto.Message) error, msg *encoded.Message) error {
	if it.Snapshot != nil {
		sn := &pb.Snapshot{Seq: it.Snapshot.Seq, View: t.parts.ViewToPB(it.Snapshot.View), TimeLeft: TimeLeft(it.Snapshot.Left)}
		return send(&pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Snapshot{Snapshot: sn}})
	}
	if it.Wire != nil {
		if msg == nil {
			return send(encoded.Numbered(newStreamEventsResponse, streamEventField, it.Event.Seq, it.Wire))
		}
		msg.Set(newStreamEventsResponse, streamEventField, it.Event.Seq, it.Wire)
		return send(msg)
	}
	e, err := t.eventToPB(it.Event)
	if err != nil {
		return err
	}
	return send(&pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: e}})
}

// Subscribe opens a seat's follow to be drained, its messages Follow's.
func (t *Hosted[A, V, B]) Subscribe(ctx context.Context, id, token string, afterSeq uint64, notify func()) (Feed, error) {
	f, err := t.h.Subscribe(ctx, id, token, afterSeq, notify)
	if err != nil {
		return nil, err
	}
	return &hostedFeed[A, V, B]{t: t, f: f}, nil
}

// hostedFeed is a host.Feed whose items go out as Follow's messages.
type hostedFeed[A comparable, V, B any] struct {
	t *Hosted[A, V, B]
	f *host.Feed[A, V, B]
	// msg carries every encoded event to Drain's send, numbered for the
	// seat in turn: the send copies it (Feed.Drain says so), and one per
	// event and viewer was the largest allocation of a Multiplex action.
	msg encoded.Message
}

func (f *hostedFeed[A, V, B]) Drain(send func(proto.Message) error) (host.Drained, error) {
	return f.f.Drain(func(it host.Item[V, B]) error { return f.t.sendItem(it, send, &f.msg) })
}

func (f *hostedFeed[A, V, B]) Fetch(ctx context.Context) error { return f.f.Fetch(ctx) }
func (f *hostedFeed[A, V, B]) Close()                          { f.f.Close() }

// TimeLeft is a snapshot's time_left: unset when no timer runs for the
// seat.
func TimeLeft(d time.Duration) *durationpb.Duration {
	if d <= 0 {
		return nil
	}
	return durationpb.New(d)
}

// Watch streams the public events: each message a *pb.SpectateResponse
// or its encoding, as Follow.
func (t *Hosted[A, V, B]) Watch(ctx context.Context, id string, afterSeq uint64, send func(proto.Message) error) error {
	return t.h.WatchEncoded(ctx, id, afterSeq, func(e *host.Event[B], wire []byte) error {
		if wire != nil {
			return send(encoded.Numbered(newSpectateResponse, spectateEventField, e.Seq, wire))
		}
		ev, err := t.eventToPB(e)
		if err != nil {
			return err
		}
		return send(&pb.SpectateResponse{Event: ev})
	})
}

// The messages that carry an event to a viewer, and the number of the
// field that holds it: the viewer's Seq is spliced in front of the shared
// encoding of the rest of the event (pb.Event's field 1 is its seq).
var (
	streamEventField   = (&pb.StreamEventsResponse{}).ProtoReflect().Descriptor().Fields().ByName("event").Number()
	spectateEventField = (&pb.SpectateResponse{}).ProtoReflect().Descriptor().Fields().ByName("event").Number()
)

func newStreamEventsResponse() proto.Message { return &pb.StreamEventsResponse{} }
func newSpectateResponse() proto.Message     { return &pb.SpectateResponse{} }

// EventMarshaler is what a rule set's Parts may add for the encoding
// every event of its tables gets: MarshalEvent returns what proto.Marshal
// of EventToPB's message does, free to reuse the messages it makes (none
// is kept), where EventToPB's are the caller's.
type EventMarshaler[B any] interface {
	MarshalEvent(seq uint64, at time.Time, b B) ([]byte, error)
}

// encode is the rule set's host.Config.Encode (Encode, or the Parts'
// MarshalEvent for a game event).
func (t *Hosted[A, V, B]) encode(e *host.Event[B]) []byte {
	if m, ok := t.parts.(EventMarshaler[B]); ok && e.Notice == nil {
		b, err := m.MarshalEvent(0, e.At, e.Body) // the shared encoding is unnumbered (Encode)
		if err != nil {
			return nil
		}
		return b
	}
	return Encode(e, t.eventToPB)
}

// Encode is an event of the log in the API, without its Seq, encoded once
// for every stream that sends it (host.Config.Encode, for every game's
// API); nil if toPB cannot convert it (the stream then gets toPB's error
// when it converts the event itself).
func Encode[B any, M proto.Message](e *host.Event[B], toPB func(*host.Event[B]) (M, error)) []byte {
	if e.Seq != 0 {
		// A copy only then: the host's events come unnumbered, and a
		// copy escapes to toPB, an allocation per event.
		e0 := *e
		e0.Seq = 0
		e = &e0
	}
	ev, err := toPB(e)
	if err != nil {
		return nil
	}
	b, err := proto.Marshal(ev)
	if err != nil {
		return nil
	}
	return b
}

// eventToPB converts an event of the log: a seat notice here, a game event
// by the rule set.
func (t *Hosted[A, V, B]) eventToPB(e *host.Event[B]) (*pb.Event, error) {
	if n := e.Notice; n != nil {
		return &pb.Event{Seq: e.Seq, Time: timestamppb.New(e.At), Body: &pb.Event_SeatNotice{SeatNotice: NoticeToPB(n)}}, nil
	}
	return t.parts.EventToPB(e.Seq, e.At, e.Body)
}

var noticeKinds = map[host.NoticeKind]pb.SeatNotice_Kind{
	host.NoticeJoined:         pb.SeatNotice_KIND_JOINED,
	host.NoticeLeft:           pb.SeatNotice_KIND_LEFT,
	host.NoticeBotTookOver:    pb.SeatNotice_KIND_BOT_TOOK_OVER,
	host.NoticePlayerReturned: pb.SeatNotice_KIND_PLAYER_RETURNED,
	host.NoticeTimedOut:       pb.SeatNotice_KIND_TIMED_OUT,
	host.NoticeStarted:        pb.SeatNotice_KIND_TABLE_STARTED,
	host.NoticeAbandoned:      pb.SeatNotice_KIND_TABLE_ABANDONED,
}

// NoticeToPB is a host's seat notice in the API: the same for every rule
// set.
func NoticeToPB(n *host.Notice) *pb.SeatNotice {
	out := &pb.SeatNotice{Kind: noticeKinds[n.Kind], Name: n.Name}
	if n.Seat >= 0 {
		out.Seat = uint32(n.Seat)
	}
	return out
}

// ErrNoRecord is the error of a table whose game keeps no record.
var ErrNoRecord = errors.New("the table keeps no record")

// Export writes the table's record: taken in a call into the table,
// written outside it with the seats' names.
func (t *Hosted[A, V, B]) Export(ctx context.Context, id string, format pb.RecordFormat) (*pb.ExportGameResponse, error) {
	var rec Record
	err := t.h.Inspect(ctx, id, func(g host.Game[A, V, B]) error {
		var err error
		rec, err = t.parts.Record(g)
		return err
	})
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, ErrNoRecord
	}
	in, err := t.h.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(in.Seats))
	players := make([]string, len(in.Seats))
	for i, s := range in.Seats {
		names[i], players[i] = s.Name, s.PlayerID
	}
	var buf bytes.Buffer
	if err := rec.Write(&buf, format, names); err != nil {
		return nil, fmt.Errorf("export %s: %w", format, err)
	}
	resp := &pb.ExportGameResponse{Format: format, Record: buf.String(), Partial: rec.Partial(), Rounds: int32(rec.Rounds())}
	if slices.ContainsFunc(players, func(p string) bool { return p != "" }) {
		resp.PlayerIds = players
	}
	return resp, nil
}

// Recover resumes the tables of the host's store.
func (t *Hosted[A, V, B]) Recover(ctx context.Context) (int, error) {
	return t.h.Recover(ctx, t.storedGame)
}

// Close stops the host's tables.
func (t *Hosted[A, V, B]) Close() { t.h.Close() }
