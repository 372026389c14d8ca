package store

import "github.com/mahjong-authority/authority/internal/host"

// EncodeEntry exposes the entry encoding, without AppendEntry's limits,
// to the fuzz test.
func EncodeEntry[A any](c Codec[A], e host.Entry[A]) []byte { return appendEntry(nil, c, &e) }
