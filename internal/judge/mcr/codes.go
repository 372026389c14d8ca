package mcr

import "github.com/mahjong-authority/authority/internal/tile"

// The fan rules compare tiles by arithmetic: three chows of one suit whose
// middles step by 3 are a pure straight, four pungs a step apart are
// shifted pungs, and so on. The scorer therefore works on tile codes in
// which a suit's nine numbers are consecutive and the suits are far
// apart, so that a step never crosses from one suit into the next:
// suit<<4 | number, with the suits in the rule book's order characters,
// bamboo, dots, honours. Honours are numbered East, South, West, North,
// Red, Green, White. That order also decides, when several groups of sets
// could make a fan, which is looked at first; it is the order of the
// reference calculators the judge is held against.
type code uint8

const (
	codeSpace = 0x48 // one past the last code (White, 0x47)

	suitChar   = 1
	suitBamboo = 2
	suitDots   = 3
	suitHonor  = 4

	codeEast  code = 0x41
	codeSouth code = 0x42
	codeWest  code = 0x43
	codeNorth code = 0x44
	codeRed   code = 0x45
	codeGreen code = 0x46
	codeWhite code = 0x47
)

func (c code) suit() int  { return int(c >> 4) }
func (c code) rank() int  { return int(c & 15) }
func (c code) num() bool  { return c < 0x40 }
func (c code) wind() bool { return c >= codeEast && c <= codeNorth }

func (c code) dragon() bool   { return c >= codeRed && c <= codeWhite }
func (c code) honor() bool    { return c >= codeEast }
func (c code) terminal() bool { return c.num() && (c.rank() == 1 || c.rank() == 9) }

// yaochu reports whether c is a terminal or an honour.
func (c code) yaochu() bool { return c.honor() || c.terminal() }

// green: 2, 3, 4, 6, 8 of bamboo and the green dragon.
func (c code) green() bool {
	switch c {
	case 0x22, 0x23, 0x24, 0x26, 0x28, codeGreen:
		return true
	}
	return false
}

// reversible: the tiles that look the same upside down: 1-5, 8, 9 of dots,
// 2, 4, 5, 6, 8, 9 of bamboo and the white dragon.
func (c code) reversible() bool {
	switch c {
	case 0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x39,
		0x22, 0x24, 0x25, 0x26, 0x28, 0x29, codeWhite:
		return true
	}
	return false
}

// kindCode and codeKind translate between tile kinds and codes.
var (
	kindCode  [tile.NumKinds]code
	codeKind  [codeSpace]tile.Kind
	validCode [codeSpace]bool
)

func init() {
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		var c code
		switch k.Suit() {
		case tile.Man:
			c = code(suitChar<<4 | k.Number())
		case tile.Sou:
			c = code(suitBamboo<<4 | k.Number())
		case tile.Pin:
			c = code(suitDots<<4 | k.Number())
		default:
			switch k {
			case tile.Haku:
				c = codeWhite
			case tile.Hatsu:
				c = codeGreen
			case tile.Chun:
				c = codeRed
			default:
				c = codeEast + code(k-tile.East)
			}
		}
		kindCode[k] = c
		codeKind[c] = k
		validCode[c] = true
	}
	i := 0
	for c := code(0); c < codeSpace; c++ {
		if validCode[c] {
			codeOrder[i] = c
			i++
		}
	}
}

// codeOrder is every tile's code, in order.
var codeOrder [tile.NumKinds]code

// codeOf is the code of a kind.
func codeOf(k tile.Kind) code { return kindCode[k] }

// mk is the code of number n of suit s.
func mk(s, n int) code { return code(s<<4 | n) }

// knittedPatterns are the six knitted straights: 1-4-7, 2-5-8 and 3-6-9,
// each in a different suit.
var knittedPatterns = [6][9]code{
	{0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39},
	{0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38},
	{0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39},
	{0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37},
	{0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38},
	{0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37},
}

// codeCounts counts tiles by code.
type codeCounts [codeSpace]uint8
