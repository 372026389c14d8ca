package jetstream

import (
	"encoding/binary"
	"fmt"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// encodeBatch encodes entries as one log message: version, count, then
// each entry length-prefixed.
func (s *Store[A]) encodeBatch(entries []host.Entry[A]) ([]byte, error) {
	b := make([]byte, 0, 64*len(entries)+8)
	b = append(b, batchVersion)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	var one []byte
	for i := range entries {
		var err error
		one, err = store.AppendEntry(one[:0], s.codec, &entries[i])
		if err != nil {
			return nil, err
		}
		b = binary.AppendUvarint(b, uint64(len(one)))
		b = append(b, one...)
	}
	return b, nil
}

// maxBatch bounds the entries one message may say it holds, so that a
// corrupt count cannot ask for gigabytes.
const maxBatch = 1 << 16

// decodeBatch decodes a log message, appending its entries to dst.
func (s *Store[A]) decodeBatch(dst []host.Entry[A], b []byte) ([]host.Entry[A], int, error) {
	if len(b) < 1 || b[0] != batchVersion {
		return dst, 0, fmt.Errorf("%w: log message of version %d", store.ErrCorrupt, firstByte(b))
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > maxBatch {
		return dst, 0, fmt.Errorf("%w: log message count", store.ErrCorrupt)
	}
	b = b[k:]
	for i := range n {
		size, k := binary.Uvarint(b)
		if k <= 0 || size > uint64(len(b)-k) {
			return dst, 0, fmt.Errorf("%w: entry %d of a log message: length", store.ErrCorrupt, i)
		}
		e, err := store.DecodeEntry(b[k:k+int(size)], s.codec)
		if err != nil {
			return dst, 0, fmt.Errorf("entry %d of a log message: %w", i, err)
		}
		dst = append(dst, e)
		b = b[k+int(size):]
	}
	if len(b) > 0 {
		return dst, 0, fmt.Errorf("%w: trailing bytes in a log message", store.ErrCorrupt)
	}
	return dst, int(n), nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}
