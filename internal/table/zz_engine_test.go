package table_test

import (
	"encoding/binary"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

type tsumogiri struct{}

func (tsumogiri) Act(v *table.View) (table.Action, bool) {
	if v.Phase == table.ClaimWindow {
		return table.Action{Seat: v.Seat, Type: table.Pass}, true
	}
	return table.Action{Seat: v.Seat, Type: table.Discard, Tile: v.Drawn, Tsumogiri: true}, true
}

func BenchmarkEngine(b *testing.B) {
	bots := [table.NumSeats]bot.Bot{tsumogiri{}, tsumogiri{}, tsumogiri{}, tsumogiri{}}
	rounds := 0
	var seed [32]byte
	next := func() wall.Wall {
		rounds++
		binary.LittleEndian.PutUint64(seed[:], uint64(rounds))
		return wall.New(seed, true)
	}
	for b.Loop() {
		t, _ := table.New(table.Config{Rules: table.TenhouHanchan})
		if _, err := bot.Play(t, &bots, next, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
}
