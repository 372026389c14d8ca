package sichuan

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record returns the record of the match so far: its finished hands, the
// whole match once it is over, with the server seed revealed only then.
// The host calls it in the table's goroutine (Host.Inspect).
func (g *game) Record() (*rsc.Game, error) {
	r := g.rec.Game()
	if err := g.rec.Err(); err != nil {
		return nil, err
	}
	if !r.Partial {
		r.ServerSeed = hex.EncodeToString(g.server[:])
	}
	return r, nil
}

type recorded interface {
	Record() (*rsc.Game, error)
}

var errNoRecord = errors.New("the table keeps no record")

// Record takes a hosted game's record (ruleset.Parts).
func (*parts) Record(hg Game) (ruleset.Record, error) {
	rg, ok := hg.(recorded)
	if !ok {
		return nil, errNoRecord
	}
	g, err := rg.Record()
	if err != nil {
		return nil, err
	}
	return gameRecord{g}, nil
}

// gameRecord is a Sichuan record as ExportGame writes it: native only
// (tenhou.net/6 and mjai have no Sichuan form).
type gameRecord struct{ g *rsc.Game }

func (r gameRecord) Partial() bool { return r.g.Partial }
func (r gameRecord) Rounds() int   { return len(r.g.Rounds) }

func (r gameRecord) Write(w io.Writer, format pb.RecordFormat, names []string) error {
	r.g.Names = names
	if format == pb.RecordFormat_RECORD_FORMAT_NATIVE {
		return rsc.Write(w, r.g)
	}
	return fmt.Errorf("format %v: a Sichuan record is native only: %w", format, ruleset.ErrMalformed)
}
