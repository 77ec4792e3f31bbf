package rt

import (
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadinessPollPacedByForeignWork: a server started by code the
// scheduler does not control (a plain goroutine here, a dependency's in
// nats-server's test helper) works for real for 200ms, then opens its
// listener; the controlled test polls for it every 25ms for 10s of the
// clock. The clock must not run through the 10s faster than the server's
// real work: under go test the poll waits for real.
func TestReadinessPollPacedByForeignWork(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var ready atomic.Bool
		var ln net.Listener
		go func() { // outside control
			start := time.Now()
			for time.Since(start) < 200*time.Millisecond {
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err == nil {
				ln = l
				ready.Store(true)
			}
		}()
		for i := 0; i < 400; i++ {
			if Then(AtomicLoad(&ready), ready.Load()) {
				ln.Close()
				return
			}
			Sleep(25 * time.Millisecond)
		}
		t.Error("the server was not ready after 10s")
	}, nil)
	if r := rs[0]; r.Outcome != "pass" {
		t.Fatalf("want a pass, got %s %q", r.Outcome, r.Message)
	}
}
