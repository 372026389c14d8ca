package servertest_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/servertest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRestart creates a table, restarts the server and finds the table on
// the same address; after Close (twice) nothing answers.
func TestRestart(t *testing.T) {
	s := servertest.Start(t, servertest.Riichi())
	c := pb.NewTableServiceClient(s.Dial())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := c.CreateTable(ctx, &pb.CreateTableRequest{})
	if err != nil {
		t.Fatal(err)
	}
	id, addr := r.GetTable().GetTableId(), s.Addr
	s.Restart(10 * time.Millisecond)
	if s.Addr != addr {
		t.Errorf("restarted on %s, want %s", s.Addr, addr)
	}
	if _, err := c.GetTable(ctx, &pb.GetTableRequest{TableId: id}, grpc.WaitForReady(true)); err != nil {
		t.Errorf("GetTable after the restart: %v", err)
	}
	s.Close()
	s.Close()
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := c.GetTable(short, &pb.GetTableRequest{TableId: id}); err == nil {
		t.Errorf("GetTable after Close: no error")
	}
}
