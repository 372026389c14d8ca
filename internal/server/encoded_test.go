package server_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/gateway"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// rawMessages keeps the bytes of every message a client received, as
// they came off the wire, and decodes them as the standard codec does.
type rawMessages struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (r *rawMessages) keep(b []byte) {
	r.mu.Lock()
	r.msgs = append(r.msgs, bytes.Clone(b))
	r.mu.Unlock()
}

// grpcRaw is a grpc-go client codec that keeps what it decodes.
type grpcRaw struct{ r *rawMessages }

func (c grpcRaw) Marshal(v any) (mem.BufferSlice, error) {
	b, err := proto.Marshal(v.(proto.Message))
	return mem.BufferSlice{mem.SliceBuffer(b)}, err
}

func (c grpcRaw) Unmarshal(data mem.BufferSlice, v any) error {
	b := data.Materialize()
	c.r.keep(b)
	return proto.Unmarshal(b, v.(proto.Message))
}

func (grpcRaw) Name() string { return "proto" }

// connectRaw is the same for a Connect client's binary protobuf.
type connectRaw struct{ r *rawMessages }

func (c connectRaw) Marshal(v any) ([]byte, error) { return proto.Marshal(v.(proto.Message)) }
func (c connectRaw) Unmarshal(b []byte, v any) error {
	c.r.keep(b)
	return proto.Unmarshal(b, v.(proto.Message))
}
func (connectRaw) Name() string { return "proto" }

// TestEncodedEventsOnEveryProtocol follows one seat of a seeded table in
// every protocol the server speaks - native gRPC on grpc-go's transport,
// and through the gateway gRPC-Web, Connect with binary protobuf and
// Connect with JSON - and checks that each event
// arrives as the very message the standard protobuf encoding of it would
// be, byte for byte in the binary protocols (the events are sent
// pre-encoded, package encoded), and the same message in all four.
func TestEncodedEventsOnEveryProtocol(t *testing.T) {
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())}, Defaults: server.StandardDefaults})
	if err != nil {
		t.Fatal(err)
	}
	// Served as authority serves: native gRPC on grpc-go's transport, the
	// rest through the gateway, on one port.
	g := grpc.NewServer(append(gateway.ServerOptions(false), srv.Options()...)...)
	srv.Register(g)
	h, err := gateway.Handler(g, gateway.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hs := gateway.Server(h, gateway.Config{ConnContext: srv.ConnContext})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := gateway.NewMux(srv.Listener(lis), nil)
	served := make(chan error, 1)
	go func() { served <- mux.Serve(g, hs) }()
	tr := &http.Transport{}
	t.Cleanup(func() {
		srv.Close()
		mux.Close()
		hs.Close()
		g.Stop()
		if err := <-served; err != nil {
			t.Errorf("Mux.Serve: %v", err)
		}
		tr.CloseIdleConnections()
	})
	base := "http://" + lis.Addr().String()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tables := pb.NewTableServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// One player and three bots; the player's turns time out quickly, so
	// events come whoever deals, public ones and the seat's own.
	cr, err := tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true, Seed: seed(7),
		TurnTime: durationpb.New(100 * time.Millisecond), ClaimTime: durationpb.New(100 * time.Millisecond), ClaimDwell: durationpb.New(0)}})
	if err != nil {
		t.Fatal(err)
	}
	id := cr.GetTable().GetTableId()
	jr, err := tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: cr.GetOwnerToken()}); err != nil {
		t.Fatal(err)
	}
	req := &pb.StreamEventsRequest{TableId: id, SeatToken: jr.GetSeatToken(), AfterSeq: 1}
	const events = 40 // from seq 2 on: the deal, draws and discards, the seat's offers

	type got struct {
		msgs []*pb.StreamEventsResponse
		raw  *rawMessages // nil for JSON
	}
	hc := &http.Client{Transport: tr}
	follow := func(name string) (got, error) {
		raw := &rawMessages{}
		var out []*pb.StreamEventsResponse
		if name == "grpc" {
			s, err := tables.StreamEvents(ctx, req, grpc.ForceCodecV2(grpcRaw{raw}))
			if err != nil {
				return got{}, err
			}
			for len(out) < events {
				m, err := s.Recv()
				if err != nil {
					return got{}, err
				}
				out = append(out, m)
			}
			return got{out, raw}, nil
		}
		var opts []connect.ClientOption
		switch name {
		case "grpc-web":
			opts = []connect.ClientOption{connect.WithGRPCWeb(), connect.WithCodec(connectRaw{raw})}
		case "connect":
			opts = []connect.ClientOption{connect.WithCodec(connectRaw{raw})}
		case "connect-json":
			opts, raw = []connect.ClientOption{connect.WithProtoJSON()}, nil
		}
		c := connect.NewClient[pb.StreamEventsRequest, pb.StreamEventsResponse](hc, base+"/mahjong.authority.v1.TableService/StreamEvents", opts...)
		s, err := c.CallServerStream(ctx, connect.NewRequest(req))
		if err != nil {
			return got{}, err
		}
		defer s.Close()
		for len(out) < events && s.Receive() {
			out = append(out, s.Msg())
		}
		if len(out) < events {
			return got{}, fmt.Errorf("%d messages: %v", len(out), s.Err())
		}
		return got{out, raw}, nil
	}
	protocols := []string{"grpc", "grpc-web", "connect", "connect-json"}
	results := make([]got, len(protocols))
	var wg sync.WaitGroup
	for i, p := range protocols {
		wg.Go(func() {
			var err error
			if results[i], err = follow(p); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	want := results[0]
	for i, p := range protocols {
		r := results[i]
		for n, m := range r.msgs {
			if m.GetEvent().GetSeq() != uint64(n)+2 {
				t.Fatalf("%s: message %d is %v, want event %d", p, n, m, n+2)
			}
			if !proto.Equal(m, want.msgs[n]) {
				t.Fatalf("%s: event %d is %v, gRPC's is %v", p, n+2, m, want.msgs[n])
			}
			if r.raw == nil {
				continue
			}
			std, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if b := r.raw.msgs[n]; !bytes.Equal(b, std) {
				t.Fatalf("%s: event %d came as %x, its standard encoding is %x", p, n+2, b, std)
			}
			if b := r.raw.msgs[n]; !bytes.Equal(b, want.raw.msgs[n]) {
				t.Fatalf("%s: event %d came as %x, over gRPC as %x", p, n+2, b, want.raw.msgs[n])
			}
		}
	}
}
