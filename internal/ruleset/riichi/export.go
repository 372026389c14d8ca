package riichi

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/record/mjai"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Record returns the record of the game so far: its finished rounds, the
// whole game once it is over, with the server seed revealed only then.
// The host calls it in the table's goroutine (Host.Inspect).
func (g *game) Record() (*record.Game, error) {
	r := g.rec.Game()
	if err := g.rec.Err(); err != nil {
		return nil, err
	}
	if !r.Partial {
		r.ServerSeed = hex.EncodeToString(g.server[:])
	}
	return r, nil
}

// recorded is a hosted game that keeps a record.
type recorded interface {
	Record() (*record.Game, error)
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
