package rt

import (
	"net"
	"testing"
	"time"
)

// TestListenAddrInUse: a listen (net.Listen, rewritten) on an address in
// use is told in the schedule's Result even when the program drops the
// error; the schedule after it, which listens on a free port, tells none.
func TestListenAddrInUse(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	defer held.Close()
	addr := held.Addr().String()
	runs := 0
	rs := RunSchedules(t, Config{Schedules: 2, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		runs++
		to := addr
		if runs > 1 {
			to = "127.0.0.1:0"
		}
		if l, err := Listen("tcp", to); err == nil {
			l.Close()
		}
	}, nil)
	if len(rs) != 2 {
		t.Fatalf("results %+v", rs)
	}
	if rs[0].AddrInUse != addr {
		t.Errorf("schedule 0: AddrInUse %q, want %q", rs[0].AddrInUse, addr)
	}
	if rs[1].AddrInUse != "" {
		t.Errorf("schedule 1: AddrInUse %q, want none", rs[1].AddrInUse)
	}
}
