// Package flight: the test's function runs on a goroutine a dependency
// starts through a method (grp/flight, singleflight's DoChan shape). Its
// order against the test's own step decides TestLostAddFlight; the
// scheduler must control that goroutine to choose the order and replay it.
package flight

import (
	"sync"
	"testing"

	"grp/flight"
)

// TestLostAddFlight: the call updates a total in two critical sections;
// the test's addition between them is lost.
func TestLostAddFlight(t *testing.T) {
	var mu sync.Mutex
	total := 0
	var g flight.Group
	ch := g.DoChan("k", func() int {
		mu.Lock()
		n := total
		mu.Unlock()
		mu.Lock()
		total = n + 1
		mu.Unlock()
		return 0
	})
	mu.Lock()
	total += 10
	mu.Unlock()
	<-ch
	if total != 11 {
		t.Fatalf("total = %d, want 11", total)
	}
}
