package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/feed"
)

func writeKeys(t *testing.T, path string, keys ...string) {
	t.Helper()
	var f backend.File
	for i, k := range keys {
		f.Keys = append(f.Keys, backend.FileKey{Name: "k" + string(rune('0'+i)), SHA256: backend.Hash(k)})
	}
	raw, _ := json.Marshal(f)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestServeBackendKeys: with --backend-keys the room service's calls need
// a key; SIGHUP reads the file again; no key is ever logged.
func TestServeBackendKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.json")
	oldKey, _ := backend.NewKey()
	newKey, _ := backend.NewKey()
	writeKeys(t, path, oldKey)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse([]string{"--backend-keys", path, "--data", filepath.Join(dir, "data")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.DebugLevel)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zap.New(core), o) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rooms := pb.NewRoomServiceClient(conn)
	create := func(key string) error {
		ctx := cctx
		if key != "" {
			ctx = metadata.AppendToOutgoingContext(cctx, "x-api-key", key)
		}
		_, err := rooms.CreateTable(ctx, &pb.RoomServiceCreateTableRequest{Reservations: []*pb.Reservation{{Seat: 0, PlayerId: "u1"}}}, grpc.WaitForReady(true))
		return err
	}
	if err := create(""); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without a key: %v", err)
	}
	if err := create(oldKey); err != nil {
		t.Fatalf("with the key: %v", err)
	}
	writeKeys(t, path, newKey)
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); create(newKey) != nil; {
		if time.Now().After(deadline) {
			t.Fatal("the new key is not taken after SIGHUP")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := create(oldKey); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("the old key after the reload: %v", err)
	}
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "results.db")); err != nil {
		t.Fatalf("the results feed is not in the data directory: %v", err)
	}
	for _, e := range logs.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += " " + k + "=" + strings.TrimSpace(fmtAny(v))
		}
		for _, k := range []string{oldKey, newKey, oldKey[len(backend.KeyPrefix):][:12]} {
			if strings.Contains(line, k) {
				t.Fatalf("a key is in the log: %s", line)
			}
		}
	}
}

func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "0.0.0.0:1": false, "10.0.0.1:1": false} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := loopback(a); got != want {
			t.Errorf("loopback(%s) = %v, want %v", addr, got, want)
		}
	}
}

// TestServeWebhook: with --webhook the feed's events are posted, signed.
func TestServeWebhook(t *testing.T) {
	dir := t.TempDir()
	secret := "0123456789abcdef-webhook"
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	posts := make(chan string, 16)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Authority-Signature") != feed.Sign([]byte(secret), body) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		posts <- string(body)
	}))
	defer hook.Close()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse([]string{"--webhook", hook.URL, "--webhook-secret-file", filepath.Join(dir, "secret")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zap.NewNop(), o) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := pb.NewTableServiceClient(conn).CreateTable(cctx, &pb.CreateTableRequest{}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case body := <-posts:
		if !strings.Contains(body, r.GetTable().GetTableId()) || !strings.Contains(body, "KIND_CREATED") {
			t.Fatalf("posted %s", body)
		}
	case <-cctx.Done():
		t.Fatal("nothing posted")
	}
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := parse([]string{"--webhook", hook.URL}, io.Discard); err == nil {
		t.Fatal("--webhook without a secret was taken")
	}
}
