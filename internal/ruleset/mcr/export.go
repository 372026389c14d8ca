package mcr

import (
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record takes a hosted game's record (ruleset.Parts).
func (parts) Record(hg Game) (ruleset.Record, error) { return spec.Record(hg, readRecord) }

// readRecord is the record of the game so far: its finished hands, the
// whole game once it is over, with the server seed revealed only then.
func readRecord(rec *rmcr.Recorder, serverSeed string) (ruleset.Record, error) {
	g := rec.Game()
	if err := rec.Err(); err != nil {
		return nil, err
	}
	if !g.Partial {
		g.ServerSeed = serverSeed
	}
	return gameRecord{g}, nil
}

// gameRecord is an MCR record as ExportGame writes it: native only (the
// tenhou.net/6 and mjai formats are riichi's).
type gameRecord struct{ g *rmcr.Game }

func (r gameRecord) Partial() bool { return r.g.Partial }
func (r gameRecord) Rounds() int   { return len(r.g.Hands) }

func (r gameRecord) Write(w io.Writer, format pb.RecordFormat, names []string) error {
	if format != pb.RecordFormat_RECORD_FORMAT_NATIVE {
		return fmt.Errorf("format %v: MCR records are native only: %w", format, ruleset.ErrMalformed)
	}
	r.g.Names = names
	return rmcr.Write(w, r.g)
}
