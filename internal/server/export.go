package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/record/mjai"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
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

func (t *tableService) ExportGame(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	r, err := t.export(ctx, req)
	return r, toStatus(err)
}

func (t *tableService) export(ctx context.Context, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return nil, err
	}
	format := req.GetFormat()
	if format == pb.RecordFormat_RECORD_FORMAT_UNSPECIFIED {
		format = pb.RecordFormat_RECORD_FORMAT_NATIVE
	}
	if _, ok := pb.RecordFormat_name[int32(format)]; !ok {
		return nil, fieldError("format", fmt.Errorf("%v: %w", format, ErrMalformed))
	}
	var g *record.Game
	err := t.s.host.Inspect(ctx, req.GetTableId(), func(hg Game) error {
		rg, ok := hg.(recorded)
		if !ok {
			return errNoRecord
		}
		var err error
		g, err = rg.Record()
		return err
	})
	if err != nil {
		return nil, err
	}
	in, err := t.s.host.Get(ctx, req.GetTableId())
	if err != nil {
		return nil, err
	}
	g.Names = make([]string, len(in.Seats))
	for i, s := range in.Seats {
		g.Names[i] = s.Name
	}
	var buf bytes.Buffer
	switch format {
	case pb.RecordFormat_RECORD_FORMAT_TENHOU:
		err = tenhou.Write(&buf, g)
	case pb.RecordFormat_RECORD_FORMAT_MJAI:
		err = mjai.Write(&buf, g)
	default:
		err = record.Write(&buf, g)
	}
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", format, err)
	}
	return &pb.ExportGameResponse{Format: format, Record: buf.String(), Partial: g.Partial, Rounds: int32(len(g.Rounds))}, nil
}
