package cleanup

import "testing"

// Tester is a test helper's own interface for the test it is given, as
// helper libraries declare it (miniredis's RunT takes one).
type Tester interface {
	Helper()
	Cleanup(func())
}

// startFor starts a worker and registers its stop with t, through the
// helper's interface rather than *testing.T.
func startFor(t Tester) *worker {
	t.Helper()
	w := start()
	t.Cleanup(func() {
		close(w.stop)
		<-w.done
	})
	return w
}

// TestTesterCleanupStopsWorker: the worker the helper started is stopped
// by the cleanup the helper registered; not a leak.
func TestTesterCleanupStopsWorker(t *testing.T) {
	w := startFor(t)
	w.reqs <- 1
}

// TestTesterCleanupClosesEarly is TestCleanupClosesEarly with its cleanup
// registered through the helper's interface: the search sees the send
// after the close only if that cleanup runs inside the schedule.
func TestTesterCleanupClosesEarly(t *testing.T) {
	results := make(chan int, 1)
	var tt Tester = t
	tt.Cleanup(func() {
		close(results)
	})
	go func() {
		results <- 42
	}()
}
