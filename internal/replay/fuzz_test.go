package replay

import (
	"encoding/json"
	"testing"
)

// FuzzPlay feeds arbitrary game lines to the replayer: it must never panic,
// and a game it cannot follow comes back with ok false and a position.
func FuzzPlay(f *testing.F) {
	// The first two rounds of a real game: small inputs fuzz faster.
	g := loadGames(f)[0]
	g.Rounds, g.Partial, g.FinalScores = g.Rounds[:2], true, nil
	b, err := json.Marshal(g)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"id":"x","rules":{"variant":"riichi","aka":true,"length":"tonpuu"},"start_scores":[25000,25000,25000,25000],"rounds":[{"round_wind":"E","dealer":0,"hands":["19m19p19s1234567z","","",""],"draws":"1m","actions":[{"seat":0,"type":"tsumo"}]}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		g, err := Decode(line)
		if err != nil {
			return
		}
		o := Play(g)
		if !o.OK && (o.Round == nil || o.Step == nil || o.Error == "") {
			t.Errorf("failed outcome without a position or error: %+v", o)
		}
		if o.OK && len(o.Rounds) != len(g.Rounds) {
			t.Errorf("ok outcome with %d rounds for %d recorded", len(o.Rounds), len(g.Rounds))
		}
	})
}
