package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/rusage"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// The serving benchmarks run the authority as the binary builds it (the
// gateway's transport options, the metrics interceptors, the limits, the
// drain) in this process, with benchTables riichi tables whose four seats
// share benchConns client connections, as `tablectl bots --conns` does.
// The clients are in the process too (a seat discards what it draws and
// passes every claim, which costs little), so the figures are the
// server's and the clients' together: compare builds with them, not with
// the server's CPU of a load run.
const (
	benchTables = 64
	benchConns  = 4
)

// benchServer serves the authority with metrics on loopback until the
// benchmark ends and returns its address.
func benchServer(b *testing.B, extra ...string) string {
	b.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	mlis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	o, err := parse(append([]string{"--round-pause", "0s", "--seat-rate", "1000000", "--seat-burst", "1000000",
		"--conn-rate", "1000000", "--conn-burst", "1000000", "--max-conn-streams", "100000"}, extra...), io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, mlis, zap.NewNop(), o) }()
	b.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			b.Error(err)
		}
	})
	return lis.Addr().String()
}

// benchClients dials n connections to addr.
func benchClients(b *testing.B, addr string, n int) []pb.TableServiceClient {
	b.Helper()
	cs := make([]pb.TableServiceClient, n)
	for i := range cs {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		cs[i] = pb.NewTableServiceClient(conn)
	}
	return cs
}

// benchSeat is one seat of a benchmark table, on one of the connections.
type benchSeat struct {
	c     pb.TableServiceClient
	id    string
	seat  uint32
	token string
	drawn string
	acts  int
	pause time.Duration // before each action: a human's pace
}

// take decides the seat's action on what it received (servertest.Take):
// it discards what it draws and passes claims (ron when offered).
func (p *benchSeat) take(r *pb.StreamEventsResponse) (*pb.Action, uint64) {
	return servertest.Take(p.seat, &p.drawn, r)
}

// benchTable creates an east-only table with the seed of i and seats four
// players on the connections in turn; the fourth join starts the game.
func benchTable(ctx context.Context, cs []pb.TableServiceClient, i int) ([]*benchSeat, error) {
	seed := make([]byte, 32)
	copy(seed, strconv.Itoa(i))
	r, err := cs[i%len(cs)].CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{
		Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed, ClaimDwell: durationpb.New(0)}})
	if err != nil {
		return nil, err
	}
	id := r.GetTable().GetTableId()
	seats := make([]*benchSeat, 4)
	for j := range seats {
		c := cs[(i*4+j)%len(cs)]
		jr, err := c.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: "p"})
		if err != nil {
			return nil, err
		}
		seats[j] = &benchSeat{c: c, id: id, seat: jr.GetSeat(), token: jr.GetSeatToken()}
	}
	return seats, nil
}

// play follows the seat's stream from after seq 1 to the game's end,
// discarding what it draws and passing claims (ron when offered). With
// opened it reports the first event received, and with hold it waits
// there until hold is closed.
func (p *benchSeat) play(ctx context.Context, opened *sync.WaitGroup, hold <-chan struct{}) error {
	st, err := p.c.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: 1})
	if err != nil {
		return err
	}
	first := true
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("seat %d recv: %w", p.seat, err)
		}
		if first && opened != nil {
			first = false
			opened.Done()
			<-hold
		}
		act, seq := p.take(r)
		if act != nil {
			p.acts++
			if p.pause > 0 {
				time.Sleep(p.pause)
			}
			if _, err := p.c.Act(ctx, &pb.ActRequest{TableId: p.id, SeatToken: p.token, LastSeq: seq,
				RequestId: fmt.Sprintf("%d-%d", p.seat, p.acts), Action: act}); err != nil {
				return fmt.Errorf("seat %d %v at %d: %w", p.seat, act, seq, err)
			}
		}
	}
}

// playAll plays every seat to its game's end (opened and hold as play's).
func playAll(ctx context.Context, seats []*benchSeat, opened *sync.WaitGroup, hold <-chan struct{}) error {
	var wg sync.WaitGroup
	errs := make([]error, len(seats))
	for i, p := range seats {
		wg.Go(func() { errs[i] = p.play(ctx, opened, hold) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// BenchmarkServeStreams plays benchTables east-only games at once, as fast
// as the seats answer, for each op, and reports per accepted action the
// process's CPU (user and system, clients included), allocations and
// bytes allocated. Every action fans out to the four seats' streams, so
// this is the serving cost of the stream messages above all.
func BenchmarkServeStreams(b *testing.B) {
	ctx := context.Background()
	cs := benchClients(b, benchServer(b), benchConns)
	var acts int
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0, gc0 := rusage.CPU(), gcCPU()
	b.ResetTimer()
	for n := range b.N {
		var all []*benchSeat
		for i := range benchTables {
			seats, err := benchTable(ctx, cs, n*benchTables+i)
			if err != nil {
				b.Fatal(err)
			}
			all = append(all, seats...)
		}
		if err := playAll(ctx, all, nil, nil); err != nil {
			b.Fatal(err)
		}
		for _, p := range all {
			acts += p.acts
		}
	}
	b.StopTimer()
	cpu, gc := rusage.CPU()-cpu0, gcCPU()-gc0
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(acts), "cpu-ns/action")
	b.ReportMetric(gc*1e9/float64(acts), "gc-cpu-ns/action")
	b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)*1000/float64(acts), "gcs/kaction")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(acts), "allocs/action")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(acts), "B/action")
}

// benchMux plays seats over one Multiplex stream: ref i+1 follows
// seats[i] from after seq 1, and its actions go on the same stream.
type benchMux struct {
	st    pb.TableService_MultiplexClient
	seats []*benchSeat
	mu    sync.Mutex // the stream's sends
	calls uint64
	msgs  int // MultiplexResponses received
	sends sync.WaitGroup
}

func (m *benchMux) send(r *pb.MultiplexRequest) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st.Send(r)
}

// run plays every seat to its game's end, then half-closes and reads the
// stream to its end.
func (m *benchMux) run() error {
	for i, p := range m.seats {
		if err := m.send(&pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: uint32(i + 1),
			Request: &pb.StreamEventsRequest{TableId: p.id, SeatToken: p.token, AfterSeq: 1}}}}); err != nil {
			return err
		}
	}
	errc := make(chan error, 1)
	for ended, closed := 0, false; ; {
		if ended == len(m.seats) && !closed {
			m.sends.Wait()
			if err := m.st.CloseSend(); err != nil {
				return err
			}
			closed = true
		}
		r, err := m.st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case err := <-errc:
			return err
		default:
		}
		m.msgs++
		for _, it := range r.GetItems() {
			switch {
			case it.GetEvent() != nil:
				p := m.seats[it.GetEvent().GetRef()-1]
				act, seq := p.take(it.GetEvent().GetEvent())
				if act == nil {
					continue
				}
				p.acts++
				m.calls++
				req := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: m.calls, Request: &pb.ActRequest{
					TableId: p.id, SeatToken: p.token, LastSeq: seq, RequestId: fmt.Sprintf("%d-%d", p.seat, p.acts), Action: act}}}}
				if p.pause == 0 {
					if err := m.send(req); err != nil {
						return err
					}
					continue
				}
				m.sends.Add(1)
				time.AfterFunc(p.pause, func() {
					defer m.sends.Done()
					if err := m.send(req); err != nil {
						select {
						case errc <- err:
						default:
						}
					}
				})
			case it.GetAnswer().GetError() != nil:
				return fmt.Errorf("call %d: %v", it.GetAnswer().GetCall(), it.GetAnswer().GetError())
			case it.GetEnd() != nil:
				if st := it.GetEnd().GetStatus(); st.GetCode() != 0 {
					return fmt.Errorf("follow %d ended: %v", it.GetEnd().GetRef(), st)
				}
				ended++
			}
		}
	}
}

// BenchmarkServeMultiplex is BenchmarkServeStreams with the four seats of
// each table on one Multiplex stream, one stream on each of the
// benchConns connections: the same games, the same metrics, and the
// Multiplex messages the clients received per action (msgs/action; with
// StreamEvents every event is a message of its own, four or more an
// action, and the answer another).
func BenchmarkServeMultiplex(b *testing.B) { benchServe(b, true, 0) }

// BenchmarkServePaced is BenchmarkServeStreams and BenchmarkServeMultiplex
// with every seat thinking 5 ms before each action, so that the tables
// do not all act at once and each action's messages go out alone unless
// Multiplex gathers them.
func BenchmarkServePaced(b *testing.B) {
	b.Run("streams", func(b *testing.B) { benchServe(b, false, 5*time.Millisecond) })
	b.Run("multiplex", func(b *testing.B) { benchServe(b, true, 5*time.Millisecond) })
}

func benchServe(b *testing.B, mux bool, pause time.Duration) {
	ctx := context.Background()
	cs := benchClients(b, benchServer(b), benchConns)
	var acts, msgs int
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0, gc0 := rusage.CPU(), gcCPU()
	b.ResetTimer()
	for n := range b.N {
		var all []*benchSeat
		streams := make([]*benchMux, len(cs))
		for i := range benchTables {
			seats, err := benchTable(ctx, cs, n*benchTables+i)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range seats {
				p.pause = pause
			}
			all = append(all, seats...)
			k := i % len(cs)
			if streams[k] == nil {
				streams[k] = &benchMux{}
			}
			streams[k].seats = append(streams[k].seats, seats...)
		}
		var err error
		if !mux {
			err = playAll(ctx, all, nil, nil)
		} else {
			var wg sync.WaitGroup
			errs := make([]error, len(streams))
			for k, m := range streams {
				if m.st, errs[k] = cs[k].Multiplex(ctx); errs[k] != nil {
					break
				}
				wg.Go(func() { errs[k] = m.run() })
			}
			wg.Wait()
			err = errors.Join(errs...)
			for _, m := range streams {
				msgs += m.msgs
			}
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range all {
			acts += p.acts
		}
	}
	b.StopTimer()
	cpu, gc := rusage.CPU()-cpu0, gcCPU()-gc0
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(acts), "cpu-ns/action")
	b.ReportMetric(gc*1e9/float64(acts), "gc-cpu-ns/action")
	b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)*1000/float64(acts), "gcs/kaction")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(acts), "allocs/action")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(acts), "B/action")
	if mux {
		b.ReportMetric(float64(msgs)/float64(acts), "msgs/action")
	}
}

// BenchmarkStreamMemory opens benchTables tables with their four seat
// streams, each stream past its first sends (the replay of the game's
// start), and reports what the process holds for each table then: heap
// in use and goroutine stacks, both sides of the connections together
// (the clients' share is the same in every build: a goroutine and the
// stream's buffers per seat). "shared" puts the seats on benchConns
// connections, "per-seat" gives every seat a connection of its own.
func BenchmarkStreamMemory(b *testing.B) {
	for _, c := range []struct {
		name   string
		tables int
		conns  int
	}{{"shared", benchTables, benchConns}, {"per-seat", benchTables / 2, benchTables / 2 * 4}} {
		b.Run(c.name, func(b *testing.B) { streamMemory(b, c.tables, c.conns) })
	}
}

func streamMemory(b *testing.B, tables, conns int) {
	ctx := context.Background()
	addr := benchServer(b)
	for n := range b.N {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		cs := benchClients(b, addr, conns)
		var all []*benchSeat
		for i := range tables {
			seats, err := benchTable(ctx, cs, n*tables+i)
			if err != nil {
				b.Fatal(err)
			}
			all = append(all, seats...)
		}
		var opened sync.WaitGroup
		opened.Add(len(all))
		hold := make(chan struct{})
		done := make(chan error, 1)
		sctx, cancel := context.WithCancel(ctx)
		go func() { done <- playAll(sctx, all, &opened, hold) }()
		opened.Wait()
		// Let the sends of the replay finish, then measure.
		time.Sleep(200 * time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		b.ReportMetric(float64(m1.HeapInuse-m0.HeapInuse)/float64(tables), "heap-B/table")
		b.ReportMetric(float64(m1.StackInuse-m0.StackInuse)/float64(tables), "stack-B/table")
		// The games need not go on: end the streams.
		cancel()
		close(hold)
		<-done
	}
}

// gcCPU is the runtime's estimate of the CPU seconds its collector took
// so far.
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}
