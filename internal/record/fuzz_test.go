package record_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/record/mjai"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
)

// firstRounds returns the first line of file cut to one round and marked
// partial: small inputs fuzz faster.
func firstRounds(f *testing.F, file string) []byte {
	fh, err := os.Open(file)
	if err != nil {
		f.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	if !sc.Scan() {
		f.Fatalf("%s is empty", file)
	}
	g, err := record.Decode(sc.Bytes())
	if err != nil {
		f.Fatal(err)
	}
	g.Rounds, g.Partial, g.FinalScores, g.ServerSeed = g.Rounds[:1], true, nil, ""
	b, err := record.Marshal(g)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzRecord reads arbitrary native records: reading never panics and a
// record read writes back to the same JSON; Verify never panics and every
// problem names its field; a record the table rebuilds exports to
// tenhou.net/6 and mjai without error.
func FuzzRecord(f *testing.F) {
	f.Add(firstRounds(f, "../../testdata/records/seeded-game.jsonl"))
	f.Add(firstRounds(f, "../../testdata/replays/tenhou-games.jsonl"))
	f.Add([]byte(`{"id":"x","table_id":"t","rules":{"variant":"riichi","aka":true,"length":"tonpuu"},"start_scores":[25000,25000,25000,25000],"rounds":[{"round_wind":"E","dealer":0,"hands":["19m19p19s1234567z","","",""],"draws":"1m","actions":[{"seat":0,"type":"tsumo"}],"wall_seed":"00","commitment":"zz"}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		g, err := record.Decode(line)
		if err != nil {
			if !errors.Is(err, record.ErrSyntax) {
				t.Errorf("Decode error %v is not ErrSyntax", err)
			}
			return
		}
		b, err := record.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		again, err := record.Decode(b)
		if err != nil {
			t.Fatalf("Decode(Marshal(g)) error %v", err)
		}
		if b2, _ := record.Marshal(again); !bytes.Equal(b, b2) {
			t.Errorf("Marshal(Decode(Marshal(g))) = %s, want %s", b2, b)
		}
		if rep, err := record.Verify(g); err == nil {
			for _, p := range rep.Problems {
				if p.Field == "" {
					t.Errorf("problem without a field: %v", p)
				}
			}
			if rep.Err() == nil && (len(rep.Unverifiable) > 0 || len(rep.Problems) > 0) {
				t.Errorf("Err() nil for %d unverifiable rounds and %d problems", len(rep.Unverifiable), len(rep.Problems))
			}
		}
		rebuilt, err := record.Rebuild(g)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := tenhou.Write(&buf, rebuilt); err != nil {
			t.Errorf("tenhou.Write(rebuilt) error %v", err)
		}
		if err := mjai.Write(&buf, rebuilt); err != nil {
			t.Errorf("mjai.Write(rebuilt) error %v", err)
		}
	})
}
