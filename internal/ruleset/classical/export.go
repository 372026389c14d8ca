package classical

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record returns the record of the game so far: its finished hands, the
// whole game once it is over, with the server seed revealed only then.
// The host calls it in the table's goroutine (Host.Inspect).
func (g *game) Record() (*rcl.Game, error) {
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
	Record() (*rcl.Game, error)
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
