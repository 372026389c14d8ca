package host

// chunkLen is how many elements a chunk of a chunked holds: 2.5 kB of a
// riichi table's log, 256 bytes of a viewer's index.
const chunkLen = 64

// chunked is an append-only sequence kept in chunks of chunkLen: growing
// it never copies what it holds. A table's log and its viewers' indexes
// are chunked; as slices grown by append they allocated about twice what
// they ended with, copying as they went, in the first round of every
// table (a tenth of the server's allocation at 10,000 tables).
//
// A copy of a chunked is a view of it as it was: the writer appends
// past the view's end, into chunks the view shares or into new ones, and
// never rewrites an element, so a stream reads a view it took under the
// table's lock after releasing it.
type chunked[E any] struct {
	chunks []*[chunkLen]E
	n      int
}

func (c *chunked[E]) len() int { return c.n }

// push appends e.
func (c *chunked[E]) push(e E) {
	if c.n == len(c.chunks)*chunkLen {
		c.chunks = append(c.chunks, new([chunkLen]E))
	}
	c.chunks[c.n/chunkLen][c.n%chunkLen] = e
	c.n++
}

// at is element i, which must be below len.
func (c *chunked[E]) at(i int) *E { return &c.chunks[i/chunkLen][i%chunkLen] }

// from is a copy of the elements from i on.
func (c *chunked[E]) from(i int) chunked[E] {
	var out chunked[E]
	for ; i < c.n; i++ {
		out.push(*c.at(i))
	}
	return out
}
