package rt

import (
	"net"
	"testing"
	"time"
)

// TestDeadlineWaitsForSleeperOutside: a controlled goroutine waits in real
// I/O for a reply that a goroutine outside control sends after sleeping for
// real (httprc v3.0.6's test handler slept 2 s before answering a request
// in flight) while the test waits with a 5 s deadline. The clock does not
// jump to the deadline before the sleeper wakes: go test's clock would not
// have passed it. Before, the wait for goroutines outside control was
// capped at outsideWait, and the deadline fired first.
func TestDeadlineWaitsForSleeperOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps 2.5 s of real time")
	}
	// Not parallel: a goroutine outside control finds its schedule as the
	// process's one (active), as under interleave, where one runs at a time.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	r := RunFunc(Config{Seed: 1, StepTimeout: 10 * time.Second}, 0, func() {
		go func() { // not under control: a server's handler
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			Sleep(2500 * time.Millisecond)
			c.Write([]byte{1})
		}()
		got := make(chan bool, 2) // the sender never waits: nothing is left behind
		Go(func() {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				Send(got, false)
				return
			}
			defer c.Close()
			c.Read(make([]byte, 1)) // a request in flight
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
