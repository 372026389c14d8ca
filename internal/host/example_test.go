package host_test

import (
	"context"
	"fmt"

	"github.com/mahjong-authority/authority/internal/host"
)

// fullToyTable creates a table of the toy game on h and seats four
// players, which starts it: its id and the players' seat tokens.
func fullToyTable(ctx context.Context, h *host.Host[toyAction, toyView, string]) (string, [4]string) {
	info, _, _ := h.Create(ctx, host.Settings{Seats: 4}, nil, newToy(1))
	var tokens [4]string
	for i := range tokens {
		_, tokens[i], _ = h.Join(ctx, info.ID, fmt.Sprint("player", i), nil)
	}
	return info.ID, tokens
}

// A table of the toy game: four players join (the table starts by itself),
// seat 0 plays, and seat 2 follows its stream, which begins with a snapshot
// and then delivers only what seat 2 may see, numbered 1, 2, 3, ... in seat
// 2's own numbering.
func Example() {
	h := host.New(host.Config[toyAction, toyView, string]{})
	defer h.Close()
	ctx := context.Background()
	id, tokens := fullToyTable(ctx, h)
	// Four joins, the start, the round and its secret: every seat has seen
	// seven events.
	seq, err := h.Act(ctx, id, host.Request[toyAction]{
		Token: tokens[0], LastSeq: 7, RequestID: "1",
		Action: toyAction{Seat: 0, Kind: "play", N: 2},
	})
	fmt.Println("acted:", seq, err)

	ctx, stop := context.WithCancel(ctx)
	h.Follow(ctx, id, tokens[2], 5, func(it host.Item[toyView, string]) error {
		if it.Event.Notice != nil {
			fmt.Println(it.Event.Seq, it.Event.Notice.Kind, it.Event.Notice.Seat)
		} else {
			fmt.Println(it.Event.Seq, it.Event.Body)
		}
		if it.Event.Body == "offer" {
			stop()
		}
		return nil
	})
	// Output:
	// acted: 8 <nil>
	// 6 round 1
	// 7 secret 127
	// 8 play 0 2
	// 9 offer
}

// A seat followed without a goroutine: Subscribe opens the follow, the
// table calls notify when something may be ready, and Drain hands over
// what is, without waiting.
func ExampleHost_Subscribe() {
	h := host.New(host.Config[toyAction, toyView, string]{})
	defer h.Close()
	ctx := context.Background()
	id, tokens := fullToyTable(ctx, h)
	ready := make(chan struct{}, 1)
	feed, err := h.Subscribe(ctx, id, tokens[2], 7, func() {
		select {
		case ready <- struct{}{}: // a reader's wake-up, never blocking the table
		default:
		}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer feed.Close()
	show := func(it host.Item[toyView, string]) error {
		fmt.Println(it.Event.Seq, it.Event.Body)
		return nil
	}
	st, _ := feed.Drain(show)
	fmt.Println("caught up:", st == host.DrainWait)
	h.Act(ctx, id, host.Request[toyAction]{
		Token: tokens[0], LastSeq: 7, RequestID: "1",
		Action: toyAction{Seat: 0, Kind: "play", N: 2},
	})
	<-ready
	st, _ = feed.Drain(show)
	fmt.Println("caught up:", st == host.DrainWait)
	// Output:
	// caught up: true
	// 8 play 0 2
	// 9 offer
	// caught up: true
}
