package rt

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// daemonOnce: a package-level Once that starts a
// goroutine sleeping in a loop for the process (a clock cache).
var daemonOnce sync.Once

func startDaemon() {
	OnceDoPackage(&daemonOnce, func() {
		Go(func() {
			for {
				Sleep(time.Second)
				Atomic(nil)
			}
		})
	})
}

// TestDaemonNotLeak: what a package-level Once starts outlives the test by
// design (fasthttp's date updater); the schedule passes, on every try.
func TestDaemonNotLeak(t *testing.T) {
	daemonOnce = sync.Once{}
	rs := explore(t, 20, func(t *testing.T) {
		daemonOnce = sync.Once{} // each schedule starts its own
		startDaemon()
	})
	mustPass(t, rs)
}

// TestFieldOnceLeak: the same loop started through a Once of a value the
// test made (a client's start, never stopped) is the test's leak.
func TestFieldOnceLeak(t *testing.T) {
	type client struct{ once sync.Once }
	rs := explore(t, 5, func(t *testing.T) {
		c := &client{}
		OnceDo(&c.once, func() {
			Go(func() {
				for {
					Sleep(time.Second)
					Atomic(nil)
				}
			})
		})
	})
	for _, r := range rs {
		if r.Outcome != "leak" || !strings.HasPrefix(r.Message, LeakRunning) {
			t.Fatalf("outcome %q %q, want a leak of a running goroutine", r.Outcome, r.Message)
		}
	}
}

// TestDaemonBesideLeak: a daemon beside a goroutine the test strands: the
// leak names the stranded one only.
func TestDaemonBesideLeak(t *testing.T) {
	rs := explore(t, 5, func(t *testing.T) {
		daemonOnce = sync.Once{}
		startDaemon()
		ch := make(chan int)
		Go(func() { Send(ch, 1) })
	})
	for _, r := range rs {
		if r.Outcome != "leak" || len(r.Goroutines) != 1 || !strings.Contains(r.Message, "chan send") {
			t.Fatalf("outcome %q %q (%d goroutines), want the stranded sender's leak alone", r.Outcome, r.Message, len(r.Goroutines))
		}
		if strings.Contains(r.Message, "Sleep") || strings.Contains(r.Message, "atomic") {
			t.Fatalf("%q names the daemon", r.Message)
		}
	}
}

// outsideDaemonOnce is started by a goroutine outside control.
var outsideDaemonOnce sync.Once

// daemonOutside: a goroutine outside control runs a package-level Once
// whose function starts a worker that waits for work for ever. Run in
// child processes (TestMainChild), where such a worker joins the schedule.
func daemonOutside(t *testing.T) {
	outsideDaemonOnce = sync.Once{} // each schedule starts its own
	work := make(chan int)
	started, done := make(chan struct{}), make(chan struct{})
	go func() { // outside control
		OnceDoPackage(&outsideDaemonOnce, func() {
			Go(func() {
				Close(started)
				Recv(work)
			})
		})
		close(done)
	}()
	<-done // for real
	Recv(started)
}

// TestDaemonStartedOutside: a package-level Once whose function a
// goroutine outside control runs (kcp-go: a timer goroutine of the
// package, flushing a session, starts its process-wide workers) starts
// daemons too: the worker joins the schedule and waits for work for the
// process's life, never a leak. Before, it was "leak: goroutines still
// blocked after the test returned".
func TestDaemonStartedOutside(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	// The worker left parked stops the process after its first
	// schedule (leftovers in the way): that one schedule says it.
	rs, out, _ := runMain(t, Config{Test: "TestDaemonOutside", Schedules: 5, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second})
	if len(rs) == 0 {
		t.Fatalf("no result:\n%s", out)
	}
	joined := 0
	for _, r := range rs {
		for _, d := range r.Decisions {
			if d.Op == opJoinName {
				joined++
			}
		}
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q, want a pass: the worker is the process's", r.Index, r.Outcome, r.Message)
		}
	}
	if joined == 0 {
		t.Fatalf("the worker never joined a schedule:\n%s", out)
	}
}
