package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/natstest"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// TestServeTLS serves with --tls-cert and --tls-key: native gRPC (on
// grpc-go's transport, HTTP/2 by ALPN) and the page over HTTPS, HTTP/1.1
// and HTTP/2, on the one port; then a graceful stop.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	roots := writeCert(t, dir)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse([]string{"--tls-cert", filepath.Join(dir, "cert.pem"), "--tls-key", filepath.Join(dir, "key.pem")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zaptest.NewLogger(t), o) }()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := healthpb.NewHealthClient(conn).Check(cctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
	if err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health over TLS = %v, %v", r, err)
	}
	for _, h2 := range []bool{false, true} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: h2}
		res, err := (&http.Client{Transport: tr}).Get("https://" + lis.Addr().String() + "/")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		tr.CloseIdleConnections()
		if res.StatusCode != http.StatusOK || (res.ProtoMajor == 2) != h2 {
			t.Fatalf("GET / over HTTPS (HTTP/2 %v): %s over HTTP/%d", h2, res.Status, res.ProtoMajor)
		}
	}
	stop()
	if err := <-served; err != nil {
		t.Fatalf("serve = %v, want nil after a graceful stop", err)
	}
}

// writeCert writes a self-signed certificate for 127.0.0.1 to
// dir/cert.pem and its key to dir/key.pem, and returns a pool trusting it.
func writeCert(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "authority test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return pool
}

// TestClusterTLS: two nodes of a cluster serving TLS (--tls-cert) forward
// to each other over TLS, verifying the other's certificate with
// --peer-ca: a table created on one node is read, joined and acted on
// through the other. (Before, a node dialled the others in plaintext, so
// nothing was forwarded between nodes serving TLS.) A node without the
// roots that verify its peers does not trust them: it sends the client to
// the owner (TABLE_ELSEWHERE) instead.
func TestClusterTLS(t *testing.T) {
	js := natstest.Start(t)
	dir := t.TempDir()
	roots := writeCert(t, dir)
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ctx, stop := context.WithCancel(context.Background())
	var served sync.WaitGroup
	defer func() {
		stop()
		served.Wait()
	}()
	node := func(id string, extra ...string) *grpc.ClientConn {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"--listen", lis.Addr().String(), "--tls-cert", cert, "--tls-key", key,
			"--cluster", id, "--nats", js.ClientURL(), "--replicas", "1", "--lease-ttl", "2s"}, extra...)
		o, err := parse(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		served.Go(func() {
			if err := serve(ctx, lis, nil, zaptest.NewLogger(t), o); err != nil {
				t.Errorf("node %s: %v", id, err)
			}
		})
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	owner := pb.NewTableServiceClient(node("n1", "--peer-ca", cert))
	other := pb.NewTableServiceClient(node("n2", "--peer-ca", cert))
	blind := pb.NewTableServiceClient(node("n3")) // the system's roots: the test's CA is not among them

	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cr, err := owner.CreateTable(cctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true}}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatal(err)
	}
	id := cr.GetTable().GetTableId()
	got, err := other.GetTable(cctx, &pb.GetTableRequest{TableId: id}, grpc.WaitForReady(true))
	if err != nil || got.GetTable().GetTableId() != id {
		t.Fatalf("GetTable through the other node = %v, %v; want the table, forwarded over TLS", got, err)
	}
	jr, err := other.JoinTable(cctx, &pb.JoinTableRequest{TableId: id, Name: "me"})
	if err != nil {
		t.Fatalf("JoinTable through the other node: %v", err)
	}
	if _, err := other.StartTable(cctx, &pb.StartTableRequest{TableId: id, Token: jr.GetSeatToken()}); err != nil {
		t.Fatalf("StartTable through the other node: %v", err)
	}
	_, err = blind.GetTable(cctx, &pb.GetTableRequest{TableId: id}, grpc.WaitForReady(true))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("GetTable through a node that cannot verify its peers = %v; want TABLE_ELSEWHERE: the owner did not answer", err)
	}
}
