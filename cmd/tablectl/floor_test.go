package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/mahjong-authority/authority/internal/rusage"
)

// TestFloorDrive: every request sent after the warmup is counted once,
// at about the rate asked, with its latency.
func TestFloorDrive(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h, g := serveFloor(lis, 100)
	defer g.Stop()
	srv := &floorServer{addr: lis.Addr().String(), read: func() (time.Duration, int64, error) {
		return rusage.CPU(), h.served.Load(), nil
	}}
	o := floorOptions{conns: 3, rate: 600, dur: 1500 * time.Millisecond, warmup: 500 * time.Millisecond, size: 40, answer: 100}
	res, err := driveFloor(context.Background(), srv, o)
	if err != nil {
		t.Fatal(err)
	}
	// About 600 requests a second for the second after the warmup.
	if res.Requests < 300 || res.Requests > 1000 {
		t.Errorf("requests %d after the warmup, want about 600", res.Requests)
	}
	if res.Rate < 300 || res.Rate > 1000 {
		t.Errorf("rate %v, want about 600", res.Rate)
	}
	if res.Conns != 3 || res.RateAsked != 600 {
		t.Errorf("echoes %d conns at %v, want 3 at 600", res.Conns, res.RateAsked)
	}
	if res.P50Ms <= 0 || res.P99Ms < res.P50Ms {
		t.Errorf("p50 %v, p99 %v", res.P50Ms, res.P99Ms)
	}
	if res.ServerCPUUs <= 0 {
		t.Errorf("server CPU %v per request", res.ServerCPUUs)
	}
}

// TestFloorChild: the server process prints its address, answers a
// reading for every line on stdin, counts what it answered, and ends
// with its stdin.
func TestFloorChild(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveFloorChild(inR, outW, 8) }()
	out := bufio.NewScanner(outR)
	if !out.Scan() {
		t.Fatal("no address")
	}
	addr := out.Text()
	reading := func() (cpu, served int64) {
		t.Helper()
		fmt.Fprintln(inW, "?")
		if !out.Scan() {
			t.Fatal("no reading")
		}
		if _, err := fmt.Sscan(out.Text(), &cpu, &served); err != nil {
			t.Fatalf("reading %q: %v", out.Text(), err)
		}
		return cpu, served
	}
	if _, served := reading(); served != 0 {
		t.Fatalf("served %d before any request", served)
	}
	cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(floorCodec{})))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	st, err := cc.NewStream(context.Background(), &floorDesc.Streams[0], "/tablectl.Floor/Echo")
	if err != nil {
		t.Fatal(err)
	}
	req, ans := []byte("hello"), []byte(nil)
	for range 2 {
		if err := st.SendMsg(&req); err != nil {
			t.Fatal(err)
		}
		if err := st.RecvMsg(&ans); err != nil {
			t.Fatal(err)
		}
		if len(ans) != 8 {
			t.Fatalf("answer of %d bytes, want 8", len(ans))
		}
	}
	if cpu, served := reading(); served != 2 || cpu <= 0 {
		t.Fatalf("reading after two requests: cpu %d, served %d", cpu, served)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not end with its stdin")
	}
}

// TestFloorCommand runs the command whole: the server in a process of
// its own (this test binary, run as tablectl), the summary line.
func TestFloorCommand(t *testing.T) {
	t.Setenv(asCommand, "1")
	var stdout, stderr strings.Builder
	err := runFloor([]string{"--conns", "2", "--rate", "400", "--for", "1500ms", "--warmup", "500ms"}, strings.NewReader(""), &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v; stderr: %s", err, stderr.String())
	}
	var res floorResult
	dec := json.NewDecoder(strings.NewReader(stdout.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("summary %q: %v", stdout.String(), err)
	}
	if res.Requests < 200 || res.ServerCPUUs <= 0 || res.ClientCPUUs <= 0 || res.P99Ms <= 0 {
		t.Errorf("summary %+v", res)
	}
}

func TestFloorUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--for", "1s", "--warmup", "2s"},
		{"--conns", "0"},
		{"--rate", "0"},
		{"--size", "0"},
	} {
		var stderr strings.Builder
		if err := runFloor(args, strings.NewReader(""), io.Discard, &stderr); err == nil {
			t.Errorf("floor %v: no error", args)
		}
	}
}
