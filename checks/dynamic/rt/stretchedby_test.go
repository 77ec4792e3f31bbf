package rt

import (
	"sync"
	"testing"
)

// TestStretchedBy: a run of 20,000 locked clock reads is stretched
// (stretch.go), and Result.StretchedBy is how far the reads moved the
// clock beyond NowTick each: the virtual time the test took less at most
// its reads' ticks. A short run is not stretched and says 0.
func TestStretchedBy(t *testing.T) {
	reads := func(n int) func(t *testing.T) {
		return func(t *testing.T) {
			var mu sync.Mutex
			for i := 0; i < n; i++ {
				Lock(&mu)
				Now()
				Unlock(&mu)
			}
		}
	}
	long := explore(t, 1, reads(20000))
	r := long[0]
	if r.Outcome != "pass" || !r.Stretched {
		t.Fatalf("20,000 reads: outcome %s, stretched %v, want a stretched pass", r.Outcome, r.Stretched)
	}
	if least := r.Virtual - 20000*NowTick; r.StretchedBy < least || r.StretchedBy >= r.Virtual {
		t.Errorf("20,000 reads: StretchedBy %v, want the virtual time %v less at most the reads' ticks (%v)", r.StretchedBy, r.Virtual, least)
	}
	short := explore(t, 1, reads(100))
	if r := short[0]; r.Stretched || r.StretchedBy != 0 {
		t.Errorf("100 reads: stretched %v by %v, want neither", r.Stretched, r.StretchedBy)
	}
}
