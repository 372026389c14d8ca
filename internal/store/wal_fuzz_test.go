package store

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// walRecords are the records FuzzReadSegment writes before it damages
// the segment.
var walRecords = []walRecord{
	{inc: 1, table: "t1", n: 1, entry: []byte("first")},
	{inc: 7, table: "a table", n: 2, entry: bytes.Repeat([]byte{0xa5}, 300)},
	{inc: 1 << 40, table: "t1", n: 1 << 33, entry: nil},
}

// FuzzReadSegment damages a segment of three records (one byte changed,
// the file cut short) and reads it back: what it reads is the records
// before the damage, each as it was written, never a record that was
// not, and never a panic.
func FuzzReadSegment(f *testing.F) {
	f.Add(uint16(0), uint8(0), uint16(0))
	f.Add(uint16(20), uint8(1), uint16(0))
	f.Add(uint16(0), uint8(0), uint16(200))
	f.Fuzz(func(t *testing.T, at uint16, flip uint8, cut uint16) {
		dir := t.TempDir()
		w, err := openWAL(dir, nil, 4<<10)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range walRecords {
			w.add(r.inc, r.table, r.n, r.entry)
		}
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		num := w.num
		w.close()
		path := segPath(dir, num)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		raw[int(at)%len(raw)] ^= flip
		if cut > 0 {
			raw = raw[:int(cut)%len(raw)]
		}
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		var got []walRecord
		err = readSegment(dir, num, func(r walRecord) error {
			got = append(got, walRecord{inc: r.inc, table: r.table, n: r.n, entry: bytes.Clone(r.entry)})
			return nil
		})
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("readSegment: %v", err)
		}
		if len(got) > len(walRecords) {
			t.Fatalf("read %d records, %d written", len(got), len(walRecords))
		}
		for i, r := range got {
			w := walRecords[i]
			if r.inc != w.inc || r.table != w.table || r.n != w.n || !bytes.Equal(r.entry, w.entry) {
				t.Fatalf("record %d read as %+v, written as %+v", i, r, w)
			}
		}
	})
}
