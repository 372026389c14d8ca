package client_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/rusage"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
	"github.com/mahjong-authority/authority/internal/wire"
)

// seatEvents plays an east-only game of efficient bots and returns what
// seat 1 receives of it, in order, without sequence numbers: the bodies of
// its events.
func seatEvents(tb testing.TB) []table.Body {
	tb.Helper()
	t, err := table.New(table.Config{Rules: table.TenhouTonpuu})
	if err != nil {
		tb.Fatal(err)
	}
	bots := [table.NumSeats]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
	var out []table.Body
	n := uint64(0)
	for t.Phase() != table.GameOver {
		a := table.Action{}
		if t.Phase() == table.BetweenRounds {
			var s [32]byte
			binary.LittleEndian.PutUint64(s[8:], n)
			n++
			w := wall.New(s, true)
			a = table.Action{Type: table.Deal, Wall: &w}
		} else {
			for s := range table.Seat(table.NumSeats) {
				if t.Waiting(s) {
					v := t.View(s)
					a, _ = bots[s].Act(&v)
					break
				}
			}
		}
		evs, err := t.Step(a)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range evs {
			if e.To.Sees(1) {
				out = append(out, e.Body)
			}
		}
	}
	return out
}

// muxFeed is a Multiplex server that answers the first follow (ref 1)
// with messages encoded before the benchmark's clock starts, one event a
// message: its own cost is little more than the writes.
type muxFeed struct {
	pb.UnimplementedTableServiceServer
	msgs [][]byte
}

func (f *muxFeed) Multiplex(st grpc.BidiStreamingServer[pb.MultiplexRequest, pb.MultiplexResponse]) error {
	if _, err := st.Recv(); err != nil {
		return err
	}
	for _, m := range f.msgs {
		if err := st.SendMsg(rawMessage(m)); err != nil {
			return err
		}
	}
	end := &pb.MultiplexResponse{Items: []*pb.MultiplexItem{{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 1}}}}}
	if err := st.Send(end); err != nil {
		return err
	}
	_, err := st.Recv() // the client's unfollow or end
	return err
}

// BenchmarkMuxEvent delivers a seat's events of whole games on a Mux, one
// event a message, to a session's Next: the client's cost of an event
// (receive, decode, hand-off to the seat, sequence check, the tracker)
// with the little of a server that sends encoded messages. cpu-ns/op is
// the process's CPU an event.
func BenchmarkMuxEvent(b *testing.B) {
	bodies := seatEvents(b)
	feed := &muxFeed{msgs: make([][]byte, b.N)}
	at := time.Unix(1_800_000_000, 0)
	for i := range b.N {
		e, err := wire.EventToPB(uint64(i+1), at, bodies[i%len(bodies)])
		if err != nil {
			b.Fatal(err)
		}
		r := &pb.MultiplexResponse{Items: []*pb.MultiplexItem{{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{
			Ref: 1, Event: &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: e}},
		}}}}}
		if feed.msgs[i], err = proto.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	g := grpc.NewServer(grpc.ForceServerCodecV2(rawCodec{}))
	pb.RegisterTableServiceServer(g, feed)
	go g.Serve(lis)
	defer g.Stop()
	c, err := client.Dial(lis.Addr().String(), client.LeanTransport()...)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	m := c.Mux(ctx)
	defer m.Close()
	s := c.Follow(client.Seat{TableID: "t", Seat: 1, Token: "tok"}, client.Options{Mux: m})
	defer s.Close()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := rusage.CPU()
	for range b.N {
		if _, err := s.Next(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// The process's CPU (the feed's small part included), which a shared
	// machine skews far less than the time.
	b.ReportMetric(float64(rusage.CPU()-cpu)/float64(b.N), "cpu-ns/op")
	if st := s.Stats(); st.Faults > 0 || st.Events != b.N {
		b.Fatalf("%d events, %d faults, want %d events and none", st.Events, st.Faults, b.N)
	}
}

// rawMessage is a message encoded already, which rawCodec sends as it is.
type rawMessage []byte

// rawCodec is gRPC's proto codec that sends a rawMessage's bytes as they
// are.
type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	if r, ok := v.(rawMessage); ok {
		return mem.BufferSlice{mem.SliceBuffer(r)}, nil
	}
	return encoding.GetCodecV2(grpcproto.Name).Marshal(v)
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	return encoding.GetCodecV2(grpcproto.Name).Unmarshal(data, v)
}

func (rawCodec) Name() string { return grpcproto.Name }

// muxFeed4 is muxFeed for four follows at once: it waits for four, then
// sends each message's event to all four in one frame (four items), as
// the server sends a table's seats on one stream.
type muxFeed4 struct {
	pb.UnimplementedTableServiceServer
	events []*pb.Event
}

func (f *muxFeed4) Multiplex(st grpc.BidiStreamingServer[pb.MultiplexRequest, pb.MultiplexResponse]) error {
	var refs []uint32
	for len(refs) < table.NumSeats {
		r, err := st.Recv()
		if err != nil {
			return err
		}
		if fl := r.GetFollow(); fl != nil {
			refs = append(refs, fl.GetRef())
		}
	}
	for _, e := range f.events {
		r := &pb.MultiplexResponse{}
		for _, ref := range refs {
			r.Items = append(r.Items, &pb.MultiplexItem{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{
				Ref: ref, Event: &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: e}},
			}}})
		}
		if err := st.Send(r); err != nil {
			return err
		}
	}
	for {
		if _, err := st.Recv(); err != nil { // the client's unfollows, then its end
			return err
		}
	}
}

// BenchmarkMuxEventSeats delivers a seat's events to four sessions on one
// Mux, the four events of a message in one frame: read by a goroutine a
// session waiting in Next, or by one goroutine for the four on a shared
// Options.Wake with TryNext, as tablectl bots plays a table. cpu-ns/op is
// the process's CPU a frame of four events (the feed's part included).
func BenchmarkMuxEventSeats(b *testing.B) {
	for _, together := range []bool{false, true} {
		name := "goroutines"
		if together {
			name = "together"
		}
		b.Run(name, func(b *testing.B) {
			bodies := seatEvents(b)
			feed := &muxFeed4{events: make([]*pb.Event, b.N)}
			at := time.Unix(1_800_000_000, 0)
			for i := range b.N {
				e, err := wire.EventToPB(uint64(i+1), at, bodies[i%len(bodies)])
				if err != nil {
					b.Fatal(err)
				}
				feed.events[i] = e
			}
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			g := grpc.NewServer()
			pb.RegisterTableServiceServer(g, feed)
			go g.Serve(lis)
			defer g.Stop()
			c, err := client.Dial(lis.Addr().String(), client.LeanTransport()...)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			m := c.Mux(ctx)
			defer m.Close()
			opts := client.Options{Mux: m}
			if together {
				opts.Wake = make(chan struct{}, 1)
			}
			var ss [table.NumSeats]*client.Session
			for i := range ss {
				ss[i] = c.Follow(client.Seat{TableID: "t", Seat: 1, Token: fmt.Sprint("tok", i)}, opts)
				defer ss[i].Close()
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := rusage.CPU()
			if together {
				var got [table.NumSeats]int
				for done := 0; done < len(ss); {
					for i, s := range ss {
						for got[i] < b.N {
							_, ok, err := s.TryNext(ctx)
							if err != nil {
								b.Fatal(err)
							}
							if !ok {
								break
							}
							if got[i]++; got[i] == b.N {
								done++
							}
						}
					}
					if done < len(ss) {
						<-opts.Wake
					}
				}
			} else {
				var wg sync.WaitGroup
				for _, s := range ss {
					wg.Go(func() {
						for range b.N {
							if _, err := s.Next(ctx); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
			}
			b.StopTimer()
			b.ReportMetric(float64(rusage.CPU()-cpu)/float64(b.N), "cpu-ns/op")
			for i, s := range ss {
				if st := s.Stats(); st.Faults > 0 || st.Events != b.N {
					b.Fatalf("session %d: %d events, %d faults, want %d events and none", i, st.Events, st.Faults, b.N)
				}
			}
		})
	}
}
