package claims

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// BenchmarkOffers is the claim check after one discard: four seats, one
// of them with a pon and the next seat with chi shapes.
func BenchmarkOffers(b *testing.B) {
	seats := [4]Claimant{
		{Hand: tile.MustParse("123456789m1234p")},
		{Hand: tile.MustParse("2355m06m9p19s1234z")},
		{Hand: tile.MustParse("44m9p123s55566677z")},
		{Hand: tile.MustParse("19m19p19s1234567z")},
	}
	for i := range seats {
		c := tile.CountsOf(seats[i].Hand)
		seats[i].Counts = &c
	}
	ctx := Context{Source: Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true, Kan: true}
	b.ReportAllocs()
	for b.Loop() {
		o := Offers(&ctx, &seats)
		if o[1].Len() == 0 {
			b.Fatal("no chi")
		}
	}
}
