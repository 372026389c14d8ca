package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/mahjong-authority/authority/internal/rusage"
)

// floor measures what grpc-go itself costs on this machine at a given
// pace: a server that answers every message of a bidirectional stream at
// once, with no work, in a process of its own (this command, started
// again with --serve), and a client that sends small messages at random
// (Poisson) times over a few connections. The server's CPU per request
// is the floor under the authority's CPU per action at the same pace:
// no game, no store, no fan-out (docs/performance.md, *The transport's
// floor*).
func init() {
	commands["floor"] = command{summary: "measure a bare gRPC stream's CPU per request on this machine, at a human pace", run: runFloor}
}

type floorOptions struct {
	conns  int
	rate   float64
	dur    time.Duration
	warmup time.Duration
	size   int // bytes of a request
	answer int // bytes of an answer
}

// floorResult is the summary line.
type floorResult struct {
	Conns       int     `json:"conns"`
	RateAsked   float64 `json:"rate_asked"`
	Rate        float64 `json:"rate"`
	Requests    int64   `json:"requests"`
	ServerCPUUs float64 `json:"server_cpu_us_per_request"`
	ClientCPUUs float64 `json:"client_cpu_us_per_request"`
	P50Ms       float64 `json:"p50_ms"`
	P99Ms       float64 `json:"p99_ms"`
}

// floorServer is a server that answers: its address, and its CPU so far
// and the requests it answered (a reading).
type floorServer struct {
	addr  string
	read  func() (cpu time.Duration, served int64, err error)
	close func()
}

func runFloor(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("floor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o floorOptions
	serve := fs.Bool("serve", false, "be the server: listen on loopback, print the address, answer CPU readings on stdin (started by floor itself)")
	fs.IntVar(&o.conns, "conns", 8, "client connections, one stream each")
	fs.Float64Var(&o.rate, "rate", 3000, "requests a second, over all connections, at random times")
	fs.DurationVar(&o.dur, "for", 20*time.Second, "how long to send")
	fs.DurationVar(&o.warmup, "warmup", 5*time.Second, "left out of the figures: the run's first DURATION")
	fs.IntVar(&o.size, "size", 60, "bytes of a request")
	fs.IntVar(&o.answer, "answer", 120, "bytes of an answer")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *serve {
		return serveFloorChild(stdin, stdout, o.answer)
	}
	if o.conns < 1 || o.rate <= 0 || o.dur <= o.warmup || o.size < 1 || o.answer < 1 {
		return fmt.Errorf("floor: need --conns >= 1, --rate > 0, --for > --warmup, --size and --answer >= 1")
	}
	srv, err := startFloorChild(o.answer)
	if err != nil {
		return err
	}
	defer srv.close()
	res, err := driveFloor(context.Background(), srv, o)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(res)
	_, err = fmt.Fprintln(stdout, string(b))
	return err
}

// floorCodec carries the messages as they are: bytes, no encoding.
type floorCodec struct{}

func (floorCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (floorCodec) Unmarshal(b []byte, v any) error {
	p := v.(*[]byte)
	*p = append((*p)[:0], b...)
	return nil
}
func (floorCodec) Name() string { return "floor" }

var floorDesc = grpc.ServiceDesc{
	ServiceName: "tablectl.Floor",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{
		StreamName: "Echo", ServerStreams: true, ClientStreams: true,
		Handler: func(srv any, ss grpc.ServerStream) error { return srv.(*floorHandler).echo(ss) },
	}},
}

// floorHandler answers every request of a stream at once, in order.
type floorHandler struct {
	answer int
	served atomic.Int64
}

func (h *floorHandler) echo(ss grpc.ServerStream) error {
	var in []byte
	out := make([]byte, h.answer)
	for {
		if err := ss.RecvMsg(&in); err != nil {
			return nil // the client is done
		}
		h.served.Add(1)
		if err := ss.SendMsg(&out); err != nil {
			return nil
		}
	}
}

// serveFloor serves the echo on lis until it is closed.
func serveFloor(lis net.Listener, answer int) (*floorHandler, *grpc.Server) {
	h := &floorHandler{answer: answer}
	g := grpc.NewServer(grpc.ForceServerCodec(floorCodec{}))
	g.RegisterService(&floorDesc, h)
	go g.Serve(lis)
	return h, g
}

// serveFloorChild is the server process: it prints its address, then
// answers every line on stdin with its CPU so far (ns) and the requests
// it answered; it ends when stdin does.
func serveFloorChild(stdin io.Reader, stdout io.Writer, answer int) error {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	h, g := serveFloor(lis, answer)
	defer g.Stop()
	fmt.Fprintln(stdout, lis.Addr())
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		fmt.Fprintln(stdout, int64(rusage.CPU()), h.served.Load())
	}
	return nil
}

// startFloorChild starts this command again as the server, in a process
// of its own, so that its CPU is its alone.
func startFloorChild(answer int) (*floorServer, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "floor", "--serve", "--answer", fmt.Sprint(answer))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	out := bufio.NewScanner(outPipe)
	stop := func() { in.Close(); cmd.Wait() }
	if !out.Scan() {
		stop()
		return nil, errors.New("floor: the server process printed no address")
	}
	var mu sync.Mutex
	return &floorServer{
		addr: strings.TrimSpace(out.Text()),
		read: func() (time.Duration, int64, error) {
			mu.Lock()
			defer mu.Unlock()
			if _, err := fmt.Fprintln(in, "?"); err != nil {
				return 0, 0, err
			}
			if !out.Scan() {
				return 0, 0, errors.New("floor: the server process ended")
			}
			var cpu, served int64
			if _, err := fmt.Sscan(out.Text(), &cpu, &served); err != nil {
				return 0, 0, fmt.Errorf("floor: server reading %q: %w", out.Text(), err)
			}
			return time.Duration(cpu), served, nil
		},
		close: stop,
	}, nil
}

// driveFloor sends at o.rate over o.conns streams for o.dur and measures
// what came after o.warmup.
func driveFloor(ctx context.Context, srv *floorServer, o floorOptions) (floorResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var lat latencies
	var after latWindow // the latencies after the warmup
	var wg sync.WaitGroup
	errs := make(chan error, 2*o.conns)
	start := time.Now()
	end := start.Add(o.dur)
	mean := float64(o.conns) / o.rate // seconds between a connection's requests
	for i := range o.conns {
		cc, err := grpc.NewClient(srv.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.ForceCodec(floorCodec{})))
		if err != nil {
			return floorResult{}, err
		}
		defer cc.Close()
		st, err := cc.NewStream(ctx, &floorDesc.Streams[0], "/tablectl.Floor/Echo")
		if err != nil {
			return floorResult{}, fmt.Errorf("floor: open stream: %w", err)
		}
		// Answers come in the order of the requests: the sender queues
		// the times it sent at, the receiver takes them. The queue holds
		// the requests in flight; a full one holds the sender back, as a
		// server that far behind would anyway.
		sent := make(chan time.Time, 1024)
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(sent)
			r := rand.New(rand.NewPCG(uint64(i), 1))
			req := make([]byte, o.size)
			next := start
			for {
				next = next.Add(time.Duration(r.ExpFloat64() * mean * float64(time.Second)))
				if next.After(end) {
					break
				}
				time.Sleep(time.Until(next))
				select {
				case sent <- time.Now():
				case <-ctx.Done(): // the receiver failed
					return
				}
				if err := st.SendMsg(&req); err != nil {
					errs <- fmt.Errorf("floor: send: %w", err)
					return
				}
			}
			st.CloseSend()
		}()
		go func() {
			defer wg.Done()
			var b []byte
			for at := range sent {
				if err := st.RecvMsg(&b); err != nil {
					errs <- fmt.Errorf("floor: receive: %w", err)
					cancel() // ends every stream, and a sender waiting on this one
					return
				}
				lat.add(time.Since(at))
			}
		}()
	}
	time.Sleep(time.Until(start.Add(o.warmup)))
	cpu0, served0, err := srv.read()
	if err != nil {
		return floorResult{}, err
	}
	mine0 := rusage.CPU()
	after.take(&lat) // the warmup's are left out
	from := time.Now()
	wg.Wait()
	took := time.Since(from)
	mine := rusage.CPU() - mine0
	cpu1, served1, err := srv.read()
	if err != nil {
		return floorResult{}, err
	}
	select {
	case err := <-errs:
		return floorResult{}, err
	default:
	}
	steady := after.take(&lat)
	n := served1 - served0
	if n <= 0 {
		return floorResult{}, errors.New("floor: no request answered after the warmup")
	}
	return floorResult{
		Conns:       o.conns,
		RateAsked:   o.rate,
		Rate:        round1(float64(n) / took.Seconds()),
		Requests:    n,
		ServerCPUUs: round1(float64((cpu1 - cpu0).Nanoseconds()) / 1e3 / float64(n)),
		ClientCPUUs: round1(float64(mine.Nanoseconds()) / 1e3 / float64(n)),
		P50Ms:       steady.quantileMs(0.5),
		P99Ms:       steady.quantileMs(0.99),
	}, nil
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
