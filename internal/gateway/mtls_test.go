package gateway_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/gateway"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// TestMutualTLS: with client certificates as the room service's
// credential (authority --client-ca), a certificate the CA signed lets a
// client create tables over native gRPC and Connect alike (the TLS state
// reaches the auth check through the gateway); a client without one is
// UNAUTHENTICATED / MISSING_API_KEY for room-service calls but may still
// do what players do; a certificate of another CA is no credential.
func TestMutualTLS(t *testing.T) {
	ca, caKey := newCA(t, "room CA")
	rogue, rogueKey := newCA(t, "rogue CA")
	good := newLeaf(t, ca, caKey, "rooms.example")
	bad := newLeaf(t, rogue, rogueKey, "rooms.example")

	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults, ClientCerts: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(ca)
	serverCrt, roots := serverCert(t)
	addr := serveMux(t, srv, gateway.Config{}, gateway.TLSConfig(serverCrt,
		&tls.Config{ClientCAs: clientCAs, ClientAuth: tls.VerifyClientCertIfGiven, MinVersion: tls.VersionTLS12}))
	url := "https://" + addr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dial := func(certs ...tls.Certificate) pb.TableServiceClient {
		conn, err := grpc.NewClient(addr,
			grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots, Certificates: certs})))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return pb.NewTableServiceClient(conn)
	}
	create := &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true}}

	if _, err := dial(good).CreateTable(ctx, create); err != nil {
		t.Fatalf("CreateTable with the room service's certificate: %v", err)
	}

	anon := dial()
	_, err = anon.CreateTable(ctx, create)
	if st := status.Convert(err); st.Code() != codes.Unauthenticated || reason(st) != pb.ErrorReason_ERROR_REASON_MISSING_API_KEY.String() {
		t.Errorf("CreateTable without a certificate = %v (reason %q), want UNAUTHENTICATED / MISSING_API_KEY", err, reason(st))
	}
	if _, err := anon.ListTables(ctx, &pb.ListTablesRequest{}); err != nil {
		t.Errorf("ListTables without a certificate (a player's call): %v", err)
	}

	// Go's TLS client offers only a certificate of a CA the server names,
	// so another CA's is not even sent: the call is a player's.
	if _, err := dial(bad).CreateTable(ctx, create); status.Code(err) != codes.Unauthenticated {
		t.Errorf("CreateTable with another CA's certificate = %v, want UNAUTHENTICATED", err)
	}
	// Forced on the server, another CA's certificate fails the handshake.
	conn, err := grpc.NewClient(addr,
		grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots,
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &bad, nil }})))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := pb.NewTableServiceClient(conn).CreateTable(ctx, create); status.Code(err) != codes.Unavailable {
		t.Errorf("CreateTable forcing another CA's certificate = %v, want the handshake refused (UNAVAILABLE)", err)
	}

	// Connect through the transcoder, over HTTP/1.1 and HTTP/2: the TLS
	// state is the same request's.
	for _, h2 := range []bool{false, true} {
		hc := &http.Client{Transport: &http.Transport{ForceAttemptHTTP2: h2,
			TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{good}}}}
		c := connect.NewClient[pb.CreateTableRequest, pb.CreateTableResponse](hc, url+svc+"CreateTable", connect.WithProtoJSON())
		if _, err := c.CallUnary(ctx, connect.NewRequest(create)); err != nil {
			t.Errorf("Connect CreateTable with the certificate (HTTP/2 %v): %v", h2, err)
		}
		hc = &http.Client{Transport: &http.Transport{ForceAttemptHTTP2: h2, TLSClientConfig: &tls.Config{RootCAs: roots}}}
		c = connect.NewClient[pb.CreateTableRequest, pb.CreateTableResponse](hc, url+svc+"CreateTable", connect.WithProtoJSON())
		var ce *connect.Error
		if _, err := c.CallUnary(ctx, connect.NewRequest(create)); !errors.As(err, &ce) || ce.Code() != connect.CodeUnauthenticated {
			t.Errorf("Connect CreateTable without a certificate (HTTP/2 %v) = %v, want unauthenticated", h2, err)
		}
	}
}

func reason(st *status.Status) string {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}

func newCA(t *testing.T, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func newLeaf(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, name string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(name); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
