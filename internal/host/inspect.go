package host

import "context"

// Seeder is a Game that must know its table before play: its id and the
// entropy the players sent when they joined, which the game mixes into its
// randomness. The host calls Seed once when the table starts, before the
// first step, and again on every game it rebuilds from the log, before
// replaying the log into it. entropy has one entry per seat, nil for a
// seat no player took.
type Seeder interface {
	Seed(tableID string, entropy [][]byte)
}

// seed hands g the table's id and the players' entropy, if g wants them.
func (t *table[A, V, B]) seed(g Game[A, V, B]) {
	s, ok := g.(Seeder)
	if !ok {
		return
	}
	entropy := make([][]byte, len(t.seats))
	for i := range t.seats {
		if t.seats[i].taken {
			entropy[i] = t.seats[i].entropy
		}
	}
	s.Seed(t.rec.ID, entropy)
}

// Inspect runs f on a table's game as the table's runner, so that f
// reads a game nothing changes meanwhile; f must not keep the game, block,
// or call the host. A finished table that left memory is read back from
// the store for f. It returns f's error.
func (h *Host[A, V, B]) Inspect(ctx context.Context, id string, f func(Game[A, V, B]) error) error {
	_, err := do(ctx, h, id, func(t *table[A, V, B]) (struct{}, error) { return struct{}{}, f(t.game) })
	return err
}
