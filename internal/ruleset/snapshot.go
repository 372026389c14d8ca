package ruleset

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/pack"
)

// The frame of a hosted game's snapshot (host.Snapshotter), the same for
// every rule set: a version byte, the engine's snapshot prefixed with its
// length, and to the end the recorder's state.
const (
	gameSnapshotVersion = 1
	maxSnapshotPart     = 1 << 24
)

// AppendGameSnapshot appends the frame of a game's snapshot: engine is the
// engine's snapshot, and record appends the recorder's state.
func AppendGameSnapshot(dst, engine []byte, record func([]byte) ([]byte, error)) ([]byte, error) {
	dst = append(dst, gameSnapshotVersion)
	dst = pack.AppendBytes(dst, engine)
	dst, err := record(dst)
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	return dst, nil
}

// SplitGameSnapshot reads what AppendGameSnapshot wrote: the engine's
// snapshot and the recorder's state.
func SplitGameSnapshot(state []byte) (engine, record []byte, err error) {
	r := pack.NewReader(state)
	if v := r.Byte("version"); r.Err() == nil && v != gameSnapshotVersion {
		return nil, nil, fmt.Errorf("game snapshot: version %d", v)
	}
	engine = r.Bytes("engine", maxSnapshotPart)
	record = r.Fixed("record", r.Len())
	if err := r.Done(); err != nil {
		return nil, nil, fmt.Errorf("game snapshot: %w", err)
	}
	return engine, record, nil
}
