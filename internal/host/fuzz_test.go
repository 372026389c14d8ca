package host_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
)

// FuzzAct sends random, malformed and out-of-order requests to a table of
// the toy game: nothing may panic, a refused request must leave the log and
// every seat's view as they were, and sequence numbers only grow.
func FuzzAct(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 0, 1, 3, 1, 2, 3, 0, 0})
	f.Add([]byte{5, 5, 5, 5, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		h := host.New(host.Config[toyAction, toyView, string]{})
		defer h.Close()
		ctx := context.Background()
		info, _, err := h.Create(ctx, host.Settings{Seats: 4}, nil, newToy(2))
		if err != nil {
			t.Fatal(err)
		}
		var tokens [4]string
		for i := range tokens {
			_, tokens[i], _ = h.Join(ctx, info.ID, "p", nil)
		}
		views := func() [4]toyView {
			var vs [4]toyView
			for s := range vs {
				c, cancel := context.WithCancel(ctx)
				h.Follow(c, info.ID, tokens[s], 0, func(it host.Item[toyView, string]) error {
					vs[s] = it.Snapshot.View
					cancel()
					return nil
				})
			}
			return vs
		}
		kinds := []string{"play", "pass", "claim", "deal", ""}
		for i := 0; i+3 < len(ops); i += 4 {
			before, _ := h.Get(info.ID)
			vb := views()
			seat := int(ops[i] % 5) // 4: a bad token
			tok := "bogus"
			if seat < 4 {
				tok = tokens[seat]
			}
			a := toyAction{Seat: int(ops[i+1] % 5), Kind: kinds[int(ops[i+1]/5)%len(kinds)], N: int(ops[i+2]%5) - 1}
			last := before.LastSeq - uint64(ops[i+3]%3) + uint64(ops[i+3]/128)
			seq, err := h.Act(ctx, info.ID, host.Request[toyAction]{Token: tok, LastSeq: last, RequestID: fmt.Sprint(ops[i+3] % 8), Action: a})
			after, _ := h.Get(info.ID)
			if after.LastSeq < before.LastSeq {
				t.Fatalf("log went back from %d to %d", before.LastSeq, after.LastSeq)
			}
			if err != nil && !errors.Is(err, host.ErrGameOver) {
				if after.LastSeq != before.LastSeq {
					t.Fatalf("refused %+v (%v) moved the log from %d to %d", a, err, before.LastSeq, after.LastSeq)
				}
				if va := views(); va != vb {
					t.Fatalf("refused %+v (%v) changed the views from %+v to %+v", a, err, vb, va)
				}
				continue
			}
			if err == nil && seq > after.LastSeq {
				t.Fatalf("Act answered seq %d past the log's %d", seq, after.LastSeq)
			}
		}
	})
}
