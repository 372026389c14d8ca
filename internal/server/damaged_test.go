package server_test

import (
	"testing"

	bolt "go.etcd.io/bbolt"
	"google.golang.org/grpc/codes"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// TestDamagedTableSetAside: a table whose log was damaged on disk while
// the server was down does not keep the server from starting; it answers
// DATA_LOSS / TABLE_DAMAGED, and the other table plays on.
func TestDamagedTableSetAside(t *testing.T) {
	path, openStore := boltStore(t)
	st := openStore()
	cfg := baseConfig()
	cfg.Store = st
	e, stop := startStoppableEnv(t, cfg)
	damaged, _ := e.create(t, nil)
	e.join(t, damaged)
	good, _ := e.create(t, nil)
	e.join(t, good)
	stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		lb := tx.Bucket([]byte("tables")).Bucket([]byte(damaged)).Bucket([]byte("log"))
		k, _ := lb.Cursor().First()
		return lb.Put(k, []byte{0xff})
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	st = openStore()
	defer st.Close()
	cfg.Store = st
	e = startEnv(t, cfg) // recovers, or fails the test
	_, err = e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: damaged})
	wantStatus(t, "GetTable of the damaged table", err, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED)
	_, err = e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: damaged})
	wantStatus(t, "JoinTable of the damaged table", err, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED)
	if tb := e.table(t, good); tb.GetState() != pb.TableState_TABLE_STATE_WAITING {
		t.Fatalf("the good table after the restart: %v", tb.GetState())
	}
	e.join(t, good)
}
