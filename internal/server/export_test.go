package server_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func (e *env) export(t *testing.T, id string, f pb.RecordFormat) *pb.ExportGameResponse {
	t.Helper()
	r, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: f})
	if err != nil {
		t.Fatalf("ExportGame(%v): %v", f, err)
	}
	return r
}

// TestRealExportFinishedGame plays an east-only game (one player, three
// bots) to its end, exports it in the three formats and verifies the
// native record: every wall against its revealed seed and commitment, the
// seeds against the server seed (committed to when the table was created)
// and the player's entropy, and the replay against every field.
func TestRealExportFinishedGame(t *testing.T) {
	e := startEnv(t, riichiConfig())
	id, owner := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, FillWithBots: true, Seed: seed(9)})
	published := e.table(t, id).GetSeedCommitment()
	if want := fair.SeedCommitment([32]byte(seed(9))); !bytes.Equal(published, want[:]) {
		t.Fatalf("seed_commitment %x, want %x", published, want)
	}
	seat, tok := e.join(t, id)
	p := &player{e: e, id: id, seat: seat, token: tok}
	done := make(chan error, 1)
	go func() { done <- p.simple(ctxT(t), 0) }()
	if _, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	native := e.export(t, id, pb.RecordFormat_RECORD_FORMAT_UNSPECIFIED)
	if native.GetFormat() != pb.RecordFormat_RECORD_FORMAT_NATIVE || native.GetPartial() || native.GetRounds() == 0 {
		t.Fatalf("export = format %v, partial %v, %d rounds", native.GetFormat(), native.GetPartial(), native.GetRounds())
	}
	g, err := record.Decode([]byte(native.GetRecord()))
	if err != nil {
		t.Fatal(err)
	}
	if g.TableID != id || g.ServerSeed != hex.EncodeToString(seed(9)) || g.SeedCommitment != hex.EncodeToString(published) ||
		g.Entropy[seat] != hex.EncodeToString([]byte("xyz")) || g.Names[seat] != "p" {
		t.Errorf("record table %q server seed %q commitment %q entropy %q names %q", g.TableID, g.ServerSeed, g.SeedCommitment, g.Entropy, g.Names)
	}
	rep, err := record.Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil || rep.Verified != len(g.Rounds) || !rep.Chain || !rep.Replayed {
		t.Fatalf("Verify(exported game) = %v: %d of %d rounds verified, chain %v (%s), replayed %v", err, rep.Verified, len(g.Rounds), rep.Chain, rep.ChainMsg, rep.Replayed)
	}

	th := e.export(t, id, pb.RecordFormat_RECORD_FORMAT_TENHOU)
	var log struct {
		Name [4]string `json:"name"`
		Log  [][]any   `json:"log"`
	}
	if err := json.Unmarshal([]byte(th.GetRecord()), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Log) != len(g.Rounds) || log.Name[seat] != "p" {
		t.Errorf("tenhou export: %d rounds, names %q; want %d rounds", len(log.Log), log.Name, len(g.Rounds))
	}
	for i, r := range log.Log {
		if len(r) != 17 {
			t.Errorf("tenhou round %d has %d elements, want 17", i, len(r))
		}
	}

	mj := e.export(t, id, pb.RecordFormat_RECORD_FORMAT_MJAI)
	lines := strings.Split(strings.TrimSuffix(mj.GetRecord(), "\n"), "\n")
	if !strings.Contains(lines[0], `"start_game"`) || !strings.Contains(lines[len(lines)-1], `"end_game"`) || strings.Count(mj.GetRecord(), `"start_kyoku"`) != len(g.Rounds) {
		t.Errorf("mjai export: first %s, last %s", lines[0], lines[len(lines)-1])
	}
}

// TestRealExportDuringGame exports a game whose player holds the table in
// its second round: the record has the first round only, marked partial,
// without the server seed (which would reveal the walls to come), and
// that round verifies against its revealed seed.
func TestRealExportDuringGame(t *testing.T) {
	e := startEnv(t, riichiConfig())
	id, owner := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, FillWithBots: true, Seed: seed(4)})
	seat, tok := e.join(t, id)
	before := e.export(t, id, pb.RecordFormat_RECORD_FORMAT_NATIVE)
	if !before.GetPartial() || before.GetRounds() != 0 {
		t.Errorf("export before the start: partial %v, %d rounds", before.GetPartial(), before.GetRounds())
	}
	ctx := ctxT(t)
	st, err := e.tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: tok})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.tables.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: owner}); err != nil {
		t.Fatal(err)
	}
	// Play (tsumogiri, pass) until the table waits for this seat in the
	// second round.
	round, drawn, hand, dealer := -1, "", "", uint32(0)
	for {
		r, err := st.Recv()
		if errors.Is(err, io.EOF) {
			t.Fatal("the game ended before the second round waited for the player")
		}
		if err != nil {
			t.Fatal(err)
		}
		var act *pb.Action
		var last uint64
		if s := r.GetSnapshot(); s != nil {
			// The stream may attach after the start: a standing offer
			// follows the snapshot as an event.
			last = s.GetSeq()
			if d := s.GetView().GetDrawn(); d != "" {
				drawn = d
			}
		} else {
			ev := r.GetEvent()
			last = ev.GetSeq()
			if rs := ev.GetRoundStarted(); rs != nil {
				round, dealer = int(rs.GetIndex()), rs.GetDealer()
			}
			if d := ev.GetDrew(); d.GetTile() != "" && d.GetSeat() == seat {
				drawn = d.GetTile()
			}
			// The turn offer follows the draw: the seat acts on it.
			if o := ev.GetTurnOffer(); o != nil && o.GetSeat() == seat {
				act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: drawn}
			}
			if o := ev.GetClaimOffer(); o != nil && o.GetSeat() == seat {
				act = &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}
			}
		}
		if d := r.GetEvent().GetDealt(); d != nil && d.GetSeat() == seat {
			hand = d.GetHand()
		}
		if act == nil {
			continue
		}
		if round >= 1 {
			break
		}
		if _, err := e.tables.Act(ctx, &pb.ActRequest{TableId: id, SeatToken: tok, LastSeq: last, RequestId: uuid.NewString(), Action: act}); err != nil {
			t.Fatal(err)
		}
	}
	during := e.export(t, id, pb.RecordFormat_RECORD_FORMAT_NATIVE)
	if !during.GetPartial() || during.GetRounds() != 1 {
		t.Fatalf("export in round 1: partial %v, %d rounds; want partial, 1 round", during.GetPartial(), during.GetRounds())
	}
	g, err := record.Decode([]byte(during.GetRecord()))
	if err != nil {
		t.Fatal(err)
	}
	if g.ServerSeed != "" || g.FinalScores != nil {
		t.Errorf("a game in progress reveals its server seed %q or final scores %v", g.ServerSeed, g.FinalScores)
	}
	rep, err := record.Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil || rep.Verified != 1 || rep.Chain {
		t.Errorf("Verify(partial) = %v, %d rounds verified, chain %v", err, rep.Verified, rep.Chain)
	}
	for _, f := range []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI} {
		if r := e.export(t, id, f); !r.GetPartial() || r.GetRounds() != 1 || strings.Contains(r.GetRecord(), "end_game") {
			t.Errorf("export %v in round 1: partial %v, %d rounds", f, r.GetPartial(), r.GetRounds())
		}
	}
	noSecrets(t, e, id, seed(4), []byte("xyz"))

	// The attack: the creator of a seeded table knows the server seed; with
	// the entropy from a partial record it would derive the table seed and
	// so the wall of the round in progress. The record must not give it.
	var entropy [fair.Seats][]byte
	for s, x := range g.Entropy {
		entropy[s], _ = hex.DecodeString(x)
	}
	if dealt := dealtFrom(fair.TableSeed([32]byte(seed(4)), entropy), round, dealer, seat); sameTiles(t, dealt, hand) {
		t.Errorf("the partial record's entropy %q derives seat %d's hand %s in the round in progress", g.Entropy, seat, hand)
	}
	// The same derivation with the true entropy finds the hand: the
	// attack works when the entropy leaks, so the test can tell.
	entropy = [fair.Seats][]byte{}
	entropy[seat] = []byte("xyz")
	if dealt := dealtFrom(fair.TableSeed([32]byte(seed(4)), entropy), round, dealer, seat); !sameTiles(t, dealt, hand) {
		t.Fatalf("the derivation with the true entropy gives %s, the seat holds %s: the attack in this test is wrong", dealt, hand)
	}
}

// dealtFrom is the hand the wall of round n, dealt by dealer, gives seat,
// derived from the table seed as docs/fairness.md says.
func dealtFrom(tableSeed [32]byte, n int, dealer, seat uint32) string {
	w := wall.New(fair.RoundSeed(tableSeed, uint32(n)), true)
	off := int((seat + 4 - dealer) % 4)
	var ts []tile.Tile
	for i := range 13 {
		ts = append(ts, w.Tiles[wall.DealPos(off, i)])
	}
	return tile.Format(ts)
}

// sameTiles reports whether two MPSZ hands hold the same tiles.
func sameTiles(t *testing.T, a, b string) bool {
	t.Helper()
	x, err := tile.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := tile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// noSecrets checks that no record of the game in progress, in any format,
// holds a seat's entropy or the server seed: not the fields, not their
// values anywhere.
func noSecrets(t *testing.T, e *env, id string, server, entropy []byte) {
	t.Helper()
	for _, f := range []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_NATIVE, pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI} {
		r := e.export(t, id, f)
		if !r.GetPartial() {
			t.Fatalf("export %v: the game is over", f)
		}
		for _, secret := range []string{`"entropy"`, `"server_seed"`, hex.EncodeToString(server), hex.EncodeToString(entropy)} {
			if strings.Contains(r.GetRecord(), secret) {
				t.Errorf("export %v of a game in progress holds %s", f, secret)
			}
		}
	}
}

func TestExportRefused(t *testing.T) {
	e := startEnv(t, baseConfig())
	id, _ := e.create(t, &pb.TableSettings{})
	_, err := e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: "nope"})
	wantStatus(t, "unknown table", err, codes.NotFound, pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND)
	_, err = e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: id, Format: 99})
	wantStatus(t, "unknown format", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
	_, err = e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{})
	wantStatus(t, "no table id", err, codes.InvalidArgument, pb.ErrorReason_ERROR_REASON_MALFORMED_REQUEST)
}

// TestDescriptionsHideSecrets: what describes a table before its game is
// over - GetTable, a listing, the answers to create, join and start - holds
// neither the server seed nor a seat's entropy, in any field.
func TestDescriptionsHideSecrets(t *testing.T) {
	e := startEnv(t, riichiConfig())
	server := bytes.Repeat([]byte{0xA5, 0x5A}, 16)
	entropy := []byte("the entropy of seat zero, secret")
	cr, err := e.tables.CreateTable(ctxT(t), &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true, Seed: server}})
	if err != nil {
		t.Fatal(err)
	}
	id := cr.GetTable().GetTableId()
	jr, err := e.tables.JoinTable(ctxT(t), &pb.JoinTableRequest{TableId: id, Name: "p", Entropy: entropy})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: id, Token: cr.GetOwnerToken()})
	if err != nil {
		t.Fatal(err)
	}
	gr, err := e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	lr, err := e.tables.ListTables(ctxT(t), &pb.ListTablesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]proto.Message{"CreateTable": cr, "JoinTable": jr, "StartTable": sr, "GetTable": gr, "ListTables": lr} {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, server) || bytes.Contains(b, entropy) {
			t.Errorf("%s's answer holds the server seed or the entropy", name)
		}
	}
	noSecrets(t, e, id, server, entropy)
}
