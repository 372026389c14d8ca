package classical

import (
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record takes a hosted game's record (ruleset.Parts).
func (*parts) Record(hg Game) (ruleset.Record, error) { return spec.Record(hg, readRecord) }

// readRecord is the record of the game so far: its finished hands, the
// whole game once it is over, with the server seed revealed only then.
func readRecord(rec *rcl.Recorder, serverSeed string) (ruleset.Record, error) {
	g := rec.Game()
	if err := rec.Err(); err != nil {
		return nil, err
	}
	if !g.Partial {
		g.ServerSeed = serverSeed
	}
	return gameRecord{g}, nil
}

// gameRecord is a classical record as ExportGame writes it: native only
// (tenhou.net/6 and mjai have no classical form).
type gameRecord struct{ g *rcl.Game }

func (r gameRecord) Partial() bool { return r.g.Partial }
func (r gameRecord) Rounds() int   { return len(r.g.Rounds) }

func (r gameRecord) Write(w io.Writer, format pb.RecordFormat, names []string) error {
	r.g.Names = names
	if format == pb.RecordFormat_RECORD_FORMAT_NATIVE {
		return rcl.Write(w, r.g)
	}
	return fmt.Errorf("format %v: a classical record is native only: %w", format, ruleset.ErrMalformed)
}
