package fair_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A verifier's view of one round: the server seed and the entropy are
// revealed after the game, the round seed at the end of the round, and the
// commitment was received before the deal.
func Example() {
	var server [32]byte // revealed after the game
	entropy := [fair.Seats][]byte{[]byte("north wind"), nil, nil, []byte("dice")}
	const tableID = "t1"

	tableSeed := fair.TableSeed(server, entropy)
	seed := fair.RoundSeed(tableSeed, 0) // the first deal
	commit := fair.Commit(seed, tableID, 0)
	w := wall.New(seed, true)

	published := fair.SeedCommitment(server) // before anyone joined
	fmt.Printf("server seed commitment %x...\n", published[:8])
	fmt.Printf("round 0 seed %x...\n", seed[:8])
	fmt.Printf("round 0 commitment %x...\n", commit[:8])
	fmt.Println("first dora indicator", w.Tiles[wall.DoraPos(0)], "first draw", w.Tiles[wall.LivePos(0)])
	var dealer []tile.Tile
	for n := range 13 {
		dealer = append(dealer, w.Tiles[wall.DealPos(0, n)])
	}
	fmt.Println("dealer's hand", tile.Format(dealer))
	// Output:
	// server seed commitment 066b192e368ce2f0...
	// round 0 seed 6b0d106a00c4e77b...
	// round 0 commitment 7df706e330f575d7...
	// first dora indicator 4s first draw 1s
	// dealer's hand 128m248p358s3566z
}
