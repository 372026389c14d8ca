// Package fair derives the wall seeds of a table and the commitments that
// make its walls provably fair: before the game the server publishes a hash
// of its secret seed; the players' entropy from JoinTable is mixed in when
// the table starts; before each deal every seat receives a commitment to the
// round's wall seed, bound to the table and the round; when the round ends
// the seed itself is revealed, and after the game the server seed. Anyone
// can then recompute every wall (package wall) and check every hash.
//
// Every function here is SHA-256 over a domain string followed by
// fixed-width or length-prefixed fields; docs/fairness.md spells out the
// bytes so that a verifier can be written in any language. It is its own
// package because the server, the record verifier and tests all need the
// same few hashes and nothing else of each other.
package fair

import (
	"crypto/sha256"
	"encoding/binary"
)

// The domain strings that open every hash. Each names what the hash is for,
// so a value made for one purpose never matches another.
const (
	DomainServerSeed = "mahjong-authority/server-seed/v1"
	DomainTableSeed  = "mahjong-authority/table-seed/v1"
	DomainWall       = "mahjong-authority/wall/v1"
	DomainCommit     = "mahjong-authority/commit/v1"
)

// Seats is how many seats contribute entropy.
const Seats = 4

// SeedCommitment is the hash of the server's secret seed that a table
// publishes when it is created, before any player sends entropy:
// SHA-256(DomainServerSeed || server seed).
func SeedCommitment(server [32]byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(DomainServerSeed))
	h.Write(server[:])
	return sum(h)
}

// TableSeed mixes the players' entropy into the server seed:
// SHA-256(DomainTableSeed || server seed || for seats 0..3: the length of
// the seat's entropy as 4 big-endian bytes, then the entropy). A seat
// without a player contributes the empty string (length 0). Since the
// server committed to its seed before the entropy arrived, neither the
// server nor any player alone chooses the table seed.
func TableSeed(server [32]byte, entropy [Seats][]byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(DomainTableSeed))
	h.Write(server[:])
	for _, e := range entropy {
		h.Write(be32(uint32(len(e))))
		h.Write(e)
	}
	return sum(h)
}

// RoundSeed is the wall seed of the round with index n (the n-th deal of
// the game, from 0, repeated rounds and aborts included):
// SHA-256(DomainWall || table seed || n as 4 big-endian bytes).
func RoundSeed(table [32]byte, n uint32) [32]byte {
	h := sha256.New()
	h.Write([]byte(DomainWall))
	h.Write(table[:])
	h.Write(be32(n))
	return sum(h)
}

// Commit is the commitment to a round's wall seed that every seat receives
// before the deal: SHA-256(DomainCommit || round seed || the length of the
// table id as 4 big-endian bytes || the table id's bytes || n as 4
// big-endian bytes). Binding the table id and the round index means a
// commitment cannot be replayed for another table or another round.
func Commit(roundSeed [32]byte, tableID string, n uint32) [32]byte {
	h := sha256.New()
	h.Write([]byte(DomainCommit))
	h.Write(roundSeed[:])
	h.Write(be32(uint32(len(tableID))))
	h.Write([]byte(tableID))
	h.Write(be32(n))
	return sum(h)
}

func be32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func sum(h interface{ Sum([]byte) []byte }) [32]byte {
	var out [32]byte
	h.Sum(out[:0])
	return out
}
