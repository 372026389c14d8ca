package classical

import (
	"bytes"
	"encoding/hex"
	"testing"

	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	"github.com/mahjong-authority/authority/internal/fair"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// botGame plays a whole seeded game of bots as a host does (walls from
// the table seed, with commitments), recording it.
func botGame(t testing.TB, server [32]byte, rules ct.Rules) (*Recorder, [][]byte) {
	entropy := [fair.Seats][]byte{{1}, {2}, {3}, {4}}
	seed := fair.TableSeed(server, entropy)
	rec := NewRecorder("t1", rules)
	rec.SetSeeds(fair.SeedCommitment(server), entropy)
	tb, _ := ct.New(ct.Config{Rules: rules})
	var partial [][]byte
	hands := uint32(0)
	for steps := 0; tb.Phase() != ct.GameOver; steps++ {
		if steps > 100_000 {
			t.Fatal("the game did not end")
		}
		var a ct.Action
		if tb.Phase() == ct.BetweenHands {
			if hands > 0 {
				var b bytes.Buffer
				if err := Write(&b, rec.Game()); err != nil {
					t.Fatal(err)
				}
				partial = append(partial, b.Bytes())
			}
			rs := fair.RoundSeed(seed, hands)
			w := wall.New144(rs)
			w.Commitment = fair.Commit(rs, "t1", hands)
			hands++
			a = ct.Action{Type: ct.Deal, Wall: &w}
		} else {
			for s := range ct.Seat(ct.NumSeats) {
				if tb.Waiting(s) {
					v := tb.View(s)
					a, _ = botc.Efficient{}.Act(&v)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		rec.Step(a, evs)
	}
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return rec, partial
}

func TestVerify(t *testing.T) {
	server := [32]byte{9, 9}
	rules := ct.Default
	rules.Rounds = 1
	rec, partial := botGame(t, server, rules)
	g := rec.Game()
	g.ServerSeed = hex.EncodeToString(server[:])
	var b bytes.Buffer
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	if !IsClassical(b.Bytes()) {
		t.Fatal("IsClassical = false")
	}
	var back *Game
	if err := Read(&b, func(_ int, x *Game) error { back = x; return nil }); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(back)
	if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed || rep.Verified != len(back.Rounds) {
		t.Fatalf("Verify = %+v, %v", rep, err)
	}
	// A partial record carries no entropy and no server seed, and verifies
	// what it holds.
	for _, line := range partial {
		p, err := Decode(bytes.TrimSpace(line))
		if err != nil {
			t.Fatal(err)
		}
		if !p.Partial || p.Entropy != nil || p.ServerSeed != "" || p.FinalScores != nil {
			t.Fatalf("partial record %+v", p)
		}
		if rep, _ := Verify(p); len(rep.Problems) != 0 || !rep.Replayed {
			t.Fatalf("partial record: %+v", rep)
		}
	}
	// Tampering is found: a changed action, a changed result, a wall
	// that is not the seed's.
	for name, tamper := range map[string]func(g *Game){
		"result": func(g *Game) { g.Rounds[0].Result.Deltas[0]++ },
		"wall": func(g *Game) {
			w := []byte(g.Rounds[0].Wall)
			w[0], w[2] = w[2], w[0]
			g.Rounds[0].Wall = string(w)
		},
		"server": func(g *Game) { g.ServerSeed = hex.EncodeToString(make([]byte, 32)) },
		"final":  func(g *Game) { (*g.FinalScores)[1] += 10 },
	} {
		x, _ := Decode(bytes.TrimSpace(mustWrite(t, g)))
		tamper(x)
		if rep, err := Verify(x); err == nil && rep.Err() == nil {
			t.Errorf("%s: tampered record verified", name)
		}
	}
	// The recorder's snapshot between hands restores it.
	state, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := RestoreRecorder(state)
	if err != nil || r2.Rounds() != rec.Rounds() || !r2.Over() {
		t.Fatalf("RestoreRecorder = %v, %v", r2, err)
	}
}

func mustWrite(t *testing.T, g *Game) []byte {
	var b bytes.Buffer
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
