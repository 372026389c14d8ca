package record

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/record/squeeze"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestRecorderSnapshot records real games and, at every round boundary,
// saves the recorder, restores it and feeds the rest of the game to the
// restored one: its record must be the original's, events included.
func TestRecorderSnapshot(t *testing.T) {
	lines := readLines(t)
	if testing.Short() {
		lines = lines[:10]
	}
	boundaries := 0
	for _, line := range lines {
		c, err := replay.Decode(line)
		if err != nil {
			t.Fatal(err)
		}
		rules, err := replay.Rules(c.Rules)
		if err != nil {
			t.Fatal(err)
		}
		var steps []replay.Step
		replay.Watch(c, func(s replay.Step) {
			if s.Err == nil {
				steps = append(steps, s)
			}
		})
		orig := NewRecorder(c.ID, rules, c.StartScores)
		orig.SetTable("table-" + c.ID)
		orig.SetSeeds([32]byte{1, 2, 3}, [4][]byte{{9}, nil, {8, 7}, nil})
		var saved [][]byte
		var at []int
		for i, s := range steps {
			orig.Step(s.Action, s.Events)
			b, err := orig.AppendBinary(nil)
			if err != nil {
				if !errors.Is(err, ErrRecorderState) {
					t.Fatalf("%s step %d: AppendBinary = %v", c.ID, i, err)
				}
				continue
			}
			saved, at = append(saved, b), append(at, i)
		}
		want := orig.Game()
		for k, b := range saved {
			rec, err := RestoreRecorder(b)
			if err != nil {
				t.Fatalf("%s after step %d: RestoreRecorder = %v", c.ID, at[k], err)
			}
			for _, s := range steps[at[k]+1:] {
				rec.Step(s.Action, s.Events)
			}
			if got := rec.Game(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s restored after step %d: record differs", c.ID, at[k])
			}
		}
		boundaries += len(saved)
		if len(saved) < len(want.Rounds) {
			t.Fatalf("%s: %d snapshots for %d rounds", c.ID, len(saved), len(want.Rounds))
		}
	}
	t.Logf("%d games, %d boundaries", len(lines), boundaries)
}

func TestRestoreRecorderRefuses(t *testing.T) {
	rec := NewRecorder("g", table.TenhouHanchan, [4]int{})
	good, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RestoreRecorder(good); err != nil {
		t.Fatalf("RestoreRecorder(good) = %v", err)
	}
	// withLast is good with its last byte (the round count, 0) replaced.
	withLast := func(b ...byte) []byte { return append(slices.Clone(good[:len(good)-1]), b...) }
	for _, bad := range [][]byte{nil, {9}, good[:len(good)-1], withLast(0, 0), withLast(1)} {
		if _, err := RestoreRecorder(bad); !errors.Is(err, ErrRecorderState) {
			t.Errorf("RestoreRecorder(%v) = %v, want ErrRecorderState", bad, err)
		}
	}
	// One round, framed well but not a round: the restore takes it, Game
	// leaves it out and Err says why.
	oneBad := withLast(append([]byte{1}, pack.AppendBytes(nil, []byte{1, 2, 3})...)...)
	rec2, err := RestoreRecorder(oneBad)
	if err != nil {
		t.Fatalf("RestoreRecorder(a bad round) = %v", err)
	}
	if g := rec2.Game(); len(g.Rounds) != 0 || !errors.Is(rec2.Err(), ErrRecorderState) {
		t.Fatalf("Game of a bad round: %d rounds, Err %v", len(g.Rounds), rec2.Err())
	}
}

// FuzzRestoreRecorder: no input makes RestoreRecorder or Game panic, and a
// recorder restored without error saves itself to the same record.
func FuzzRestoreRecorder(f *testing.F) {
	lines := readLines(f)
	c, err := replay.Decode(lines[0])
	if err != nil {
		f.Fatal(err)
	}
	rules, _ := replay.Rules(c.Rules)
	rec := NewRecorder(c.ID, rules, c.StartScores)
	rounds := 0
	replay.Watch(c, func(s replay.Step) {
		if s.Err != nil || rounds >= 2 {
			return
		}
		rec.Step(s.Action, s.Events)
		if b, err := rec.AppendBinary(nil); err == nil && rec.Rounds() > rounds {
			rounds = rec.Rounds()
			f.Add(b)
		}
	})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := RestoreRecorder(b)
		if err != nil {
			return
		}
		g := r.Game()
		if r.Err() != nil {
			return
		}
		again, err := r.AppendBinary(nil)
		if err != nil {
			t.Fatalf("AppendBinary of a restored recorder: %v", err)
		}
		r2, err := RestoreRecorder(again)
		if err != nil {
			t.Fatalf("RestoreRecorder of its own save: %v", err)
		}
		if g2 := r2.Game(); r2.Err() != nil || !reflect.DeepEqual(g, g2) {
			t.Fatalf("saved and restored again: %+v, %v; want %+v", g2, r2.Err(), g)
		}
	})
}

// TestSnapshotBytesAfterRestore: a recorder restored from a snapshot
// writes that snapshot again byte for byte.
func TestSnapshotBytesAfterRestore(t *testing.T) {
	c, rules, steps := longestGame(t)
	snap, err := recordAll(c, rules, steps).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := RestoreRecorder(snap)
	if err != nil {
		t.Fatal(err)
	}
	again, err := rec.AppendBinary(nil)
	if err != nil || !bytes.Equal(again, snap) {
		t.Fatalf("restored and saved again: %d bytes, %v; want the %d bytes restored", len(again), err, len(snap))
	}
}

// TestRestoreVersion1: a state of version 1, its rounds plain, restores
// to the same record as the version 2 state the recorder writes now, and
// is written again as that state.
func TestRestoreVersion1(t *testing.T) {
	c, rules, steps := longestGame(t)
	rec := recordAll(c, rules, steps)
	snap, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The version 1 state: the same header, each round expanded.
	head := len(snap) - len(rec.saved)
	v1 := append([]byte{recorderPlain}, snap[1:head]...)
	rd := pack.NewReader(rec.saved)
	for range rec.nSaved {
		raw, err := squeeze.Expand(nil, rd.Bytes("round", maxRecRound), maxRecRound)
		if err != nil || rd.Err() != nil {
			t.Fatal(err, rd.Err())
		}
		v1 = pack.AppendBytes(v1, raw)
	}
	old, err := RestoreRecorder(v1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := old.Game(), rec.Game(); !reflect.DeepEqual(got, want) || old.Err() != nil {
		t.Fatalf("the record restored from version 1 differs (%v)", old.Err())
	}
	if again, err := old.AppendBinary(nil); err != nil || !bytes.Equal(again, snap) {
		t.Fatalf("version 1 restored and saved: %d bytes, %v; want the version 2 state of %d", len(again), err, len(snap))
	}
}
