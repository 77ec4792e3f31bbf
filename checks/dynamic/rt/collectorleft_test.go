package rt

import (
	"os"
	"testing"
	"time"
)

// TestReadLoopCollectorLeft: a read loop on a real file descriptor feeds a
// collector goroutine over a channel, and the test returns without
// closing either (fsnotify's TestAdd: a watcher and its event collector).
// Once the test returned, the loop in real I/O and the collector blocked
// for real on its channel are both left behind, as under go test, and the
// schedule passes. (The collector kept the schedule from abandoning the
// loop: the watchdog called it a hang, on every schedule.)
func TestReadLoopCollectorLeft(t *testing.T) {
	cfg := Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second}
	var w *os.File
	collected := make(chan struct{}) // closed by the collector, not under control
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		r, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w = pw
		events := make(chan byte)
		Go(func() {
			buf := make([]byte, 1)
			for {
				if _, err := r.Read(buf); err != nil {
					close(events)
					return
				}
				Send(events, buf[0])
			}
		})
		Go(func() {
			defer close(collected)
			for {
				if _, ok := Recv2(events); !ok {
					return
				}
			}
		})
		if _, err := w.Write([]byte{'x'}); err != nil {
			t.Fatal(err)
		}
		Sleep(10 * time.Millisecond)
	}, nil)
	// The two must not stay behind in the tests that follow.
	w.Close()
	<-collected
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the schedule to pass with the loop and its collector left behind, got %+v", rs)
	}
}
