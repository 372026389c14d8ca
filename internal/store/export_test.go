package store

import "github.com/mahjong-authority/authority/internal/host"

// EncodeEntry and DecodeEntry expose the entry encoding to the fuzz test.
func EncodeEntry[A any](c Codec[A], e host.Entry[A]) []byte { return appendEntry(nil, c, &e) }

func DecodeEntry[A any](b []byte, c Codec[A]) (host.Entry[A], error) { return decodeEntry(b, c) }
