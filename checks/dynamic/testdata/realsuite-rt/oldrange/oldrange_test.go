//go:build go1.21

package oldrange

import "testing"

// A range over a channel in a file whose language version (go1.21, from
// the build constraint) has no range-over-func. The consumer must be under
// control like any receive.
func TestRangeOld(t *testing.T) {
	ch := make(chan int)
	done := make(chan int)
	go func() {
		sum := 0
		for v := range ch {
			if v == 2 {
				continue
			}
			sum += v
		}
		done <- sum
	}()
	for i := 1; i <= 3; i++ {
		ch <- i
	}
	close(ch)
	if s := <-done; s != 4 {
		t.Fatalf("sum = %d", s)
	}
}
