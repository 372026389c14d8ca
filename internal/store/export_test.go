package store

import "github.com/mahjong-authority/authority/internal/host"

// EncodeEntry exposes the entry encoding, without AppendEntry's limits,
// to the fuzz test.
func EncodeEntry[A any](c Codec[A], e host.Entry[A]) []byte { return appendEntry(nil, c, &e) }

// PageWrites is how many page writes the store's transactions have made
// (bbolt's TxStats.Write: one per page, one per meta page).
func PageWrites[A any](s *Bolt[A]) int64 {
	st := s.db.Stats()
	return st.TxStats.GetWrite()
}
