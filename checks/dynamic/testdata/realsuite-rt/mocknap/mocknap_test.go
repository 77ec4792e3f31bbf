package mocknap

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"example.com/mockclock"
)

// Two takers sleep on a dependency's mock clock in a loop while the test
// moves it: a taker in Sleep waits outside the scheduler's control, on a
// channel only the program feeds, and the mock clock naps (on the virtual
// clock) after each wake-up. The clock must not wait real time for the
// sleepers before it ends a nap: only the program can wake them (with the
// real wait, the 40 naps of one schedule took 40 × 100 ms).
func TestTakersOnMockClock(t *testing.T) {
	clk := mockclock.New()
	var count atomic.Int32
	var wg sync.WaitGroup
	var stop atomic.Bool
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				clk.Sleep(time.Second)
				if stop.Load() {
					return
				}
				count.Add(1)
			}
		}()
	}
	const rounds = 20
	for r := 0; r < rounds; r++ {
		for clk.Waiting() < 2 {
			time.Sleep(time.Millisecond)
		}
		if r == rounds-1 {
			stop.Store(true)
		}
		clk.Add(time.Second)
	}
	wg.Wait()
	if got := count.Load(); got != 2*(rounds-1) {
		t.Errorf("count = %d, want %d", got, 2*(rounds-1))
	}
}
