package riichi

import (
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/record/mjai"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record takes a hosted game's record (ruleset.Parts).
func (*parts) Record(hg Game) (ruleset.Record, error) { return spec.Record(hg, readRecord) }

// readRecord is the record of the game so far: its finished rounds, the
// whole game once it is over, with the server seed revealed only then.
func readRecord(rec *record.Recorder, serverSeed string) (ruleset.Record, error) {
	g := rec.Game()
	if err := rec.Err(); err != nil {
		return nil, err
	}
	if !g.Partial {
		g.ServerSeed = serverSeed
	}
	return gameRecord{g}, nil
}

// gameRecord is a riichi record as ExportGame writes it: native, tenhou.net/6
// or mjai.
type gameRecord struct{ g *record.Game }

func (r gameRecord) Partial() bool { return r.g.Partial }
func (r gameRecord) Rounds() int   { return len(r.g.Rounds) }

func (r gameRecord) Write(w io.Writer, format pb.RecordFormat, names []string) error {
	r.g.Names = names
	switch format {
	case pb.RecordFormat_RECORD_FORMAT_TENHOU:
		return tenhou.Write(w, r.g)
	case pb.RecordFormat_RECORD_FORMAT_MJAI:
		return mjai.Write(w, r.g)
	case pb.RecordFormat_RECORD_FORMAT_NATIVE:
		return record.Write(w, r.g)
	}
	return fmt.Errorf("format %v: %w", format, ruleset.ErrMalformed)
}
