package rusage

import "testing"

// TestCPUAdvances: busy work shows in the process's CPU time.
func TestCPUAdvances(t *testing.T) {
	before := CPU()
	if before <= 0 {
		t.Fatalf("CPU() = %v, want the time used so far", before)
	}
	x := 0
	for i := range 200_000_000 {
		x ^= i
	}
	if after := CPU(); after <= before {
		t.Fatalf("CPU() went from %v to %v over busy work (%d)", before, after, x)
	}
}
