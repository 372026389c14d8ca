package wall

import "testing"

// BenchmarkNew shuffles walls of each size from successive seeds.
func BenchmarkNew(b *testing.B) {
	var seed [32]byte
	for _, bc := range []struct {
		name string
		f    func()
	}{
		{"136", func() { New(seed, true) }},
		{"108", func() { New108(seed) }},
		{"144", func() { New144(seed) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				seed[0], seed[1] = byte(i), byte(i>>8)
				bc.f()
			}
		})
	}
}
