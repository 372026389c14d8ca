package host

import "testing"

// TestWireClaimAllocs: the table's writer claims each event's encoding
// slot from a slab, one allocation for wireRing events, and the ring
// holds each claimed event until wireRing newer ones evict it.
func TestWireClaimAllocs(t *testing.T) {
	var c wireCache
	next := int32(0)
	got := testing.AllocsPerRun(100, func() {
		for range wireRing {
			c.claim(next)
			next++
		}
	})
	if got != 1 {
		t.Errorf("claiming %d slots: %v allocations, want 1", wireRing, got)
	}
	for i := next - wireRing; i < next; i++ {
		if w := c.slots[uint32(i)%wireRing].Load(); w == nil || w.i != i {
			t.Fatalf("slot of event %d holds %v", i, w)
		}
	}
}
