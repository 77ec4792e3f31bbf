package rt

import (
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
