package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
)

// A bot that plays one seat to the end of the game: follow the seat, and
// whenever its view lists legal actions, act. A dropped connection or a
// restarted server is resumed inside Next and Act.
func ExampleClient_Follow() {
	ctx := context.Background()
	c, err := client.Dial("127.0.0.1:7400")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	// One player and three of the server's bots.
	tb, _, err := c.CreateTable(ctx, &pb.TableSettings{FillWithBots: true})
	if err != nil {
		log.Fatal(err)
	}
	seat, err := c.JoinTable(ctx, tb.GetTableId(), "me", client.Entropy())
	if err != nil {
		log.Fatal(err)
	}
	if err := c.StartTable(ctx, seat.TableID, seat.Token); err != nil {
		log.Fatal(err)
	}
	s := c.Follow(seat, client.Options{})
	defer s.Close()
	var b bot.Efficient
	for {
		if _, err := s.Next(ctx); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		if a, ok := b.Act(s.View()); ok {
			if _, err := s.Act(ctx, a); err != nil {
				log.Printf("%v refused: %v", a, client.Reason(err))
			}
		}
	}
	fmt.Println("final scores:", s.View().Scores)
}

// A room backend that plays many seats on one connection: their sessions
// share one Multiplex stream (Options.Mux), and play exactly as sessions
// of their own would. If the stream drops, every seat resumes on one new
// stream after the last event it saw.
func ExampleClient_Mux() {
	ctx := context.Background()
	c, err := client.Dial("127.0.0.1:7400", client.LeanTransport()...)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	m := c.Mux(ctx)
	defer m.Close()
	tb, _, err := c.CreateTable(ctx, &pb.TableSettings{})
	if err != nil {
		log.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		seat, err := c.JoinTable(ctx, tb.GetTableId(), fmt.Sprint("player ", i), client.Entropy())
		if err != nil {
			log.Fatal(err)
		}
		s := c.Follow(seat, client.Options{Mux: m})
		wg.Go(func() {
			defer s.Close()
			var b bot.Efficient
			for {
				if _, err := s.Next(ctx); err != nil {
					if !errors.Is(err, io.EOF) {
						log.Print(err)
					}
					return
				}
				if a, ok := b.Act(s.View()); ok {
					if _, err := s.Act(ctx, a); err != nil {
						log.Printf("%v refused: %v", a, client.Reason(err))
					}
				}
			}
		})
	}
	wg.Wait()
}
