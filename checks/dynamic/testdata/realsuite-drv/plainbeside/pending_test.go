package plainbeside

import (
	"os"
	"sync"
	"testing"
	"time"
)

// TestPending fails when the test's goroutine takes the lock first, as
// the unperturbed schedule and most plain runs do, and passes when the
// goroutine it starts does. Under plain go test, run by the search, it
// first waits for the file INTERLEAVE_PENDING_GATE names, which the
// explore test makes once the test's search ended: until then whether
// its failure is the code's waits on a schedule that passes.
func TestPending(t *testing.T) {
	if gate := os.Getenv("INTERLEAVE_PENDING_GATE"); gate != "" && os.Getenv("INTERLEAVE_PLAIN_TEST") != "" {
		for {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	var mu sync.Mutex
	first := ""
	done := make(chan struct{})
	go func() {
		mu.Lock()
		if first == "" {
			first = "started"
		}
		mu.Unlock()
		close(done)
	}()
	mu.Lock()
	if first == "" {
		first = "test"
	}
	mu.Unlock()
	<-done
	if first == "test" {
		t.Fatal("the test's goroutine took the lock first")
	}
}
