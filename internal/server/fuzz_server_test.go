package server

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
	"github.com/mahjong-authority/authority/internal/wire"
)

// fuzzTiles are tile strings for the fuzzer's actions, good and bad.
var fuzzTiles = []string{"", "1m", "0p", "5s", "7z", "9m", "1z", "8x", "1f", "12m", "0z", "55m", "34s", "0m5m", "m", "\xff"}

// FuzzTableServiceAct sends random, malformed and out-of-order requests
// through the gRPC handler of Act to a table of the real engine, mixed with
// legal moves so that games advance: nothing may panic, every refusal has a
// status code other than Internal and an ErrorInfo reason, a refused
// request leaves the table and every seat's view and numbers as they were,
// and the engine's invariants hold after every request.
func FuzzTableServiceAct(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 200, 3, 0, 2, 0, 0, 1})
	f.Add([]byte{5, 5, 5, 5, 0, 1, 1, 128, 4, 170, 9, 3, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 1, 0, 0, 4, 2, 0, 0, 5, 3, 0, 0, 6})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var eng *table.Table
		srv, err := New(Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Config{
			NewEngine: func(cfg table.Config) (riichi.Engine, error) {
				tb, err := table.New(cfg)
				eng = tb
				return tb, err
			},
			NewWall: wall.New,
		})}})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		ctx := context.Background()
		ts := &srv.table
		cr, err := ts.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: make([]byte, 32)}})
		if err != nil {
			t.Fatal(err)
		}
		id := cr.GetTable().GetTableId()
		var tokens [4]string
		for i := range tokens {
			jr, err := ts.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: "p"})
			if err != nil {
				t.Fatal(err)
			}
			tokens[i] = jr.GetSeatToken()
		}
		seqOf := func(tok string) uint64 {
			n, _ := srv.Tables(pb.RuleSet_RULE_SET_RIICHI).(*riichi.Tables).Host().SeatSeq(ctx, id, tok)
			return n
		}
		type state struct {
			table *pb.Table
			views [4]table.View
			seqs  [4]uint64
		}
		snap := func() state {
			var s state
			gr, err := ts.GetTable(ctx, &pb.GetTableRequest{TableId: id})
			if err != nil {
				t.Fatal(err)
			}
			s.table = gr.GetTable()
			for i := range tokens {
				s.seqs[i] = seqOf(tokens[i]) // also waits for the table's calls
				s.views[i] = eng.View(table.Seat(i))
			}
			return s
		}
		for i := 0; i+3 < len(ops); i += 4 {
			b0, b1, b2, b3 := ops[i], ops[i+1], ops[i+2], ops[i+3]
			seat := int(b0 % 6)
			tok := "bogus"
			switch {
			case seat < 4:
				tok = tokens[seat]
			case seat == 4:
				tok = ""
			}
			var a *pb.Action
			if legal := eng.Legal(table.Seat(seat % 4)); b1 < 160 && len(legal) > 0 {
				a = wire.ActionToPB(legal[int(b2)%len(legal)])
			} else {
				a = &pb.Action{Type: pb.ActionType(b1 % 14), Tile: fuzzTiles[b2%16], Tiles: fuzzTiles[b2/16]}
				if b1 == 255 {
					a = nil
				}
			}
			last := seqOf(tokens[seat%4])
			last = last - min(last, uint64(b3%3)) + uint64(b3>>7)
			req := &pb.ActRequest{TableId: id, SeatToken: tok, LastSeq: last, RequestId: fmt.Sprint(b3 % 16), Action: a}
			if b3 == 127 {
				req.TableId = "no-such-table"
			}
			before := snap()
			resp, err := ts.Act(ctx, req)
			after := snap()
			if err != nil {
				st := status.Convert(err)
				if st.Code() == codes.Internal || st.Code() == codes.Unknown || Reason(err) == pb.ErrorReason_ERROR_REASON_UNSPECIFIED {
					t.Fatalf("Act(%v) = %v: no mapped status", req, err)
				}
				if !proto.Equal(after.table, before.table) || after.seqs != before.seqs || !reflect.DeepEqual(after.views, before.views) {
					t.Fatalf("refused Act(%v) (%v) changed the table", req, err)
				}
			} else if seat < 4 && resp.GetSeq() > after.seqs[seat] {
				t.Fatalf("Act answered seq %d past seat %d's %d", resp.GetSeq(), seat, after.seqs[seat])
			}
			for s := range 4 {
				if after.seqs[s] < before.seqs[s] {
					t.Fatalf("seat %d went back from %d to %d", s, before.seqs[s], after.seqs[s])
				}
			}
			if err := eng.Verify(); err != nil {
				t.Fatalf("after Act(%v): %v", req, err)
			}
		}
	})
}
