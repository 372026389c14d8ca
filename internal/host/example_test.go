package host_test

import (
	"context"
	"fmt"

	"github.com/mahjong-authority/authority/internal/host"
)

// A table of the toy game: four players join (the table starts by itself),
// seat 0 plays, and seat 2 follows its stream, which begins with a snapshot
// and then delivers only what seat 2 may see.
func Example() {
	h := host.New(host.Config[toyAction, toyView, string]{})
	defer h.Close()
	ctx := context.Background()
	info, _, _ := h.Create(ctx, host.Settings{Seats: 4}, nil, newToy(1))
	var tokens [4]string
	for i := range tokens {
		_, tokens[i], _ = h.Join(ctx, info.ID, fmt.Sprint("player", i), nil)
	}
	head, _ := h.Get(info.ID)
	seq, err := h.Act(ctx, info.ID, host.Request[toyAction]{
		Token: tokens[0], LastSeq: head.LastSeq, RequestID: "1",
		Action: toyAction{Seat: 0, Kind: "play", N: 2},
	})
	fmt.Println("acted:", seq, err)

	ctx, stop := context.WithCancel(ctx)
	h.Follow(ctx, info.ID, tokens[2], 5, func(it host.Item[toyView, string]) error {
		if it.Event.Notice != nil {
			fmt.Println(it.Event.Seq, it.Event.Notice.Kind, it.Event.Notice.Seat)
		} else {
			fmt.Println(it.Event.Seq, it.Event.Body)
		}
		if it.Event.Seq == seq {
			stop()
		}
		return nil
	})
	// Output:
	// acted: 12 <nil>
	// 6 round 1
	// 9 secret 127
	// 11 play 0 2
	// 12 offer
}
