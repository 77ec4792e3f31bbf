package rt

import (
	"testing"
	"time"
)

// TestDeadlineWaitsForSleeperOutside: a controlled goroutine waits on a
// reply that a goroutine outside control sends after sleeping for real
// (httprc v3.0.6's test handler slept 2 s before answering a request in
// flight) while the test waits with a 5 s deadline. The clock does not
// jump to the deadline before the sleeper wakes: go test's clock would not
// have passed it. Before, the wait for goroutines outside control was
// capped at outsideWait, and the deadline fired first on every schedule.
func TestDeadlineWaitsForSleeperOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps 2.5 s of real time")
	}
	t.Parallel()
	r := RunFunc(Config{Seed: 1, StepTimeout: 10 * time.Second}, 0, func() {
		reply, got := make(chan bool), make(chan bool)
		go func() { // not under control: a server's handler
			Sleep(2500 * time.Millisecond)
			reply <- true
		}()
		Go(func() {
			Recv(reply) // a request in flight
			Send(got, true)
		})
		if Select(false, RecvCase(got), RecvCase(After(5*time.Second))) != 0 {
			panic("the 5 s deadline fired before the reply came back")
		}
	})
	if r.Outcome != "pass" {
		t.Errorf("outcome %s %q, want pass", r.Outcome, r.Message)
	}
}
