package store

import (
	"testing"
	"time"
)

// TestAddSnapshots: a commit takes the snapshots waiting until they reach
// snapBudget bytes, counting those already in the batch, one at least,
// and leaves the rest queued in order.
func TestAddSnapshots(t *testing.T) {
	const kB = 1 << 10
	tests := []struct {
		name    string
		batch   []int // sizes of the requests in the batch, 0 for others
		waiting []int // sizes of the snapshots queued
		want    int   // snapshots taken
	}{
		{"none waiting", []int{0, 0}, nil, 0},
		{"all fit", []int{0}, []int{30 * kB, 30 * kB, 30 * kB}, 3},
		{"up to the budget", []int{0, 0, 0}, []int{30 * kB, 30 * kB, 30 * kB, 30 * kB, 30 * kB, 30 * kB}, 5},
		{"one even if large", nil, []int{400 * kB, 10 * kB}, 1},
		{"one after appends", []int{0, 0}, []int{200 * kB, 10 * kB}, 1},
		{"the batch's own count", []int{100 * kB}, []int{30 * kB, 30 * kB}, 1},
		{"full batch", make([]int, maxBatch), []int{kB}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Bolt[struct{}]{snaps: make(chan *request, len(tt.waiting))}
			var batch []*request
			for _, n := range tt.batch {
				batch = append(batch, &request{size: n})
			}
			var queued []*request
			for _, n := range tt.waiting {
				r := &request{size: n}
				queued = append(queued, r)
				s.snaps <- r
			}
			got := s.addSnapshots(batch)
			if n := len(got) - len(tt.batch); n != tt.want {
				t.Fatalf("addSnapshots took %d snapshots, want %d", n, tt.want)
			}
			for i, r := range got[len(tt.batch):] {
				if r != queued[i] {
					t.Errorf("snapshot %d taken out of order", i)
				}
			}
			if left := len(s.snaps); left != len(tt.waiting)-tt.want {
				t.Errorf("%d snapshots left queued, want %d", left, len(tt.waiting)-tt.want)
			}
		})
	}
}

// TestLingerSnapshots: a batch of snapshots alone, under snapBudget,
// waits for more while waits pay, until the budget or another write; a
// batch with another write, one at the budget, or a store whose waits
// gather nothing takes none.
func TestLingerSnapshots(t *testing.T) {
	const kB = 1 << 10
	tests := []struct {
		name     string
		batch    []int // sizes of the requests in the batch, 0 for others
		waiting  []int // sizes of the snapshots queued
		writes   int   // other writes queued
		gain     float64
		draining bool
		want     int // requests taken
	}{
		{"gathers up to the budget", []int{30 * kB}, []int{60 * kB, 60 * kB, 10 * kB}, 0, 1, false, 2},
		{"another write ends it", []int{30 * kB}, nil, 2, 1, false, 2},
		{"waits out the linger", []int{30 * kB}, nil, 0, 1, false, 0},
		{"a create waits", []int{0, 30 * kB}, []int{30 * kB}, 0, 1, false, 0},
		{"at the budget", []int{130 * kB}, []int{30 * kB}, 0, 1, false, 0},
		{"waits that gather nothing", []int{30 * kB}, []int{30 * kB}, 0, 0, false, 0},
		{"a drain under way", []int{30 * kB}, []int{30 * kB}, 0, 1, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Bolt[struct{}]{snaps: make(chan *request, len(tt.waiting)), reqs: make(chan *request, tt.writes),
				quit: make(chan struct{}), snapLinger: 10 * time.Millisecond}
			var batch []*request
			for _, n := range tt.batch {
				batch = append(batch, &request{size: n})
			}
			for _, n := range tt.waiting {
				s.snaps <- &request{size: n}
			}
			for range tt.writes {
				s.reqs <- &request{}
			}
			s.jr.draining = tt.draining
			l := lingering{gain: tt.gain, below: lingerBelow, enough: lingerEnough}
			got := s.lingerSnapshots(&l, batch)
			if n := len(got) - len(tt.batch); n != tt.want {
				t.Fatalf("lingerSnapshots took %d requests, want %d", n, tt.want)
			}
		})
	}
}

// TestGatherSizes checks the batch sizes that wait and end a wait: the
// appender's (appendBelow, appendEnough) waits with 12 appends queued
// until 32 are, the writer's commits 12 at once. The wait's timer is an
// hour: only the sizes end it.
func TestGatherSizes(t *testing.T) {
	for _, tt := range []struct {
		name string
		l    lingering
		want int
	}{
		{"appender", lingering{gain: 1, below: appendBelow, enough: appendEnough}, appendEnough},
		{"writer", lingering{gain: 1, below: lingerBelow, enough: lingerEnough}, 12},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := make(chan *request, 64)
			for range 12 {
				q <- &request{}
			}
			got := make(chan int)
			go func() { got <- len(tt.l.gather(q, nil, time.Hour, nil)) }()
			for range tt.want - 12 {
				q <- &request{}
			}
			if n := <-got; n != tt.want {
				t.Fatalf("gathered %d, want %d", n, tt.want)
			}
		})
	}
}
