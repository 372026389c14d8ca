package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/record"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/record/mjai"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
)

func init() {
	commands["export"] = command{summary: "write game records as tenhou.net/6, mjai or native logs (from a server, or from records on stdin)", run: runExport}
}

// exportFormats maps the --format names to the API's formats and the
// file extensions of --out.
var exportFormats = map[string]struct {
	api pb.RecordFormat
	ext string
}{
	"native": {pb.RecordFormat_RECORD_FORMAT_NATIVE, ".jsonl"},
	"tenhou": {pb.RecordFormat_RECORD_FORMAT_TENHOU, ".json"},
	"mjai":   {pb.RecordFormat_RECORD_FORMAT_MJAI, ".mjson"},
}

const exportUsage = `usage: tablectl export --table ID [--addr HOST:PORT] [--format tenhou|mjai|native]
       tablectl export [--format tenhou|mjai|native] [--rules auto|riichi|mcr] [--out DIR] < games.jsonl

Chinese Official (MCR) records are native only: from a server (--table) as
the server writes them; from stdin (each record's rules.variant, or every
record with --rules mcr) replayed through the engine first, and refused if
the replay does not reach them.
`

// runExport exports one table's game through the API (--table), or every
// game of records on stdin (native records or replay-contract games), each
// replayed through the table first.
func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("export", exportUsage, stderr)
	format := fs.String("format", "native", "tenhou, mjai or native")
	id := fs.String("table", "", "export this table's game from the server at --addr (otherwise read records from stdin)")
	addr := fs.String("addr", "127.0.0.1:7400", "the server's address")
	timeout := fs.Duration("timeout", 10*time.Second, "how long to wait for the server")
	rules := fs.String("rules", "auto", "stdin records' rule set: auto (each record's rules.variant), riichi or mcr")
	out := fs.String("out", "", "write one file per game into this directory (<id>.jsonl, .json or .mjson) instead of stdout")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	f, ok := exportFormats[*format]
	if !ok || fs.NArg() > 0 || *rules != "auto" && *rules != "riichi" && *rules != "mcr" {
		fs.Usage()
		return errUsage
	}
	write := func(name string, b []byte) error {
		if *out == "" {
			_, err := stdout.Write(b)
			return err
		}
		return os.WriteFile(filepath.Join(*out, safeName(name)+f.ext), b, 0o644)
	}
	if *id != "" {
		b, err := fetchRecord(*addr, *id, f.api, *timeout, stderr)
		if err != nil {
			return err
		}
		return write(*id, b)
	}
	return readRecords(stdin, func(line int, b []byte) error {
		if *rules == "mcr" || *rules == "auto" && rmcr.IsMCR(b) {
			return exportMCR(line, b, *format, write)
		}
		if rsc.IsSichuan(b) {
			return exportSichuan(line, b, *format, write)
		}
		g, err := record.Decode(b)
		if err != nil {
			return fmt.Errorf("export: line %d: %w", line, err)
		}
		g, err = record.Rebuild(g)
		if err != nil {
			return fmt.Errorf("export: line %d: %w", line, err)
		}
		var buf bytes.Buffer
		switch *format {
		case "tenhou":
			err = tenhou.Write(&buf, g)
		case "mjai":
			err = mjai.Write(&buf, g)
		default:
			err = record.Write(&buf, g)
		}
		if err != nil {
			return fmt.Errorf("export: line %d: %w", line, err)
		}
		return write(g.ID, buf.Bytes())
	})
}

// fetchRecord asks a server for a table's record.
func fetchRecord(addr, id string, format pb.RecordFormat, timeout time.Duration, stderr io.Writer) ([]byte, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("export: connect %s: %w", addr, err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	r, err := pb.NewTableServiceClient(conn).ExportGame(ctx, &pb.ExportGameRequest{TableId: id, Format: format})
	if err != nil {
		return nil, fmt.Errorf("export: table %s: %w", id, err)
	}
	if r.GetPartial() {
		fmt.Fprintf(stderr, "tablectl export: table %s: the game is not over; the record holds its %d finished rounds\n", id, r.GetRounds())
	}
	b := []byte(r.GetRecord())
	if !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	return b, nil
}

// safeName keeps a game id usable as a file name.
func safeName(id string) string {
	if id == "" {
		return "game"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, id)
}

// exportSichuan writes a Sichuan record read from stdin, native only (the
// tenhou.net/6 and mjai formats are riichi's), once its replay through the
// engine agrees with it.
func exportSichuan(line int, b []byte, format string, write func(string, []byte) error) error {
	if format != "native" {
		return fmt.Errorf("export: line %d: a Sichuan record is written as native only", line)
	}
	g, err := rsc.Decode(b)
	if err != nil {
		return fmt.Errorf("export: line %d: %w", line, err)
	}
	if o := rsc.Play(g); !o.OK {
		return fmt.Errorf("export: line %d: the replay disagrees with the record: hand %d step %d: %s", line, *o.Round, *o.Step, o.Error)
	}
	var buf bytes.Buffer
	if err := rsc.Write(&buf, g); err != nil {
		return fmt.Errorf("export: line %d: %w", line, err)
	}
	return write(g.ID, buf.Bytes())
}

// exportMCR writes an MCR record read from stdin, native only, once its
// replay through the engine (rmcr.Verify) agrees with it.
func exportMCR(line int, b []byte, format string, write func(string, []byte) error) error {
	if format != "native" {
		return fmt.Errorf("export: line %d: an MCR record is written as native only", line)
	}
	g, err := rmcr.Decode(b)
	if err != nil {
		return fmt.Errorf("export: line %d: %w", line, err)
	}
	rep, err := rmcr.Verify(g)
	if err != nil {
		return fmt.Errorf("export: line %d: %w", line, err)
	}
	if len(rep.Problems) > 0 {
		return fmt.Errorf("export: line %d: the replay disagrees with the record: %s", line, rep.Problems[0])
	}
	var buf bytes.Buffer
	if err := rmcr.Write(&buf, g); err != nil {
		return fmt.Errorf("export: line %d: %w", line, err)
	}
	return write(g.ID, buf.Bytes())
}
