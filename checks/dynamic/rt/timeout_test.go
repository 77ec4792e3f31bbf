package rt

import (
	"strings"
	"testing"
	"time"
)

// janitor starts a goroutine that wakes on a ticker of the given period
// until stop is closed, as a cache's or a pool's janitor does.
func janitor(period time.Duration, stop chan struct{}) {
	Go(func() {
		tk := NewTicker(period)
		for {
			k := Select(false, RecvCase(tk.C), RecvCase(stop))
			select {
			case <-PickRecv(k, 0, tk.C):
			case <-PickRecv(k, 1, stop):
				TickerStop(tk)
				return
			}
		}
	})
}

// stuckBesideJanitor: the test blocks for good on a channel nobody sends
// on, while a janitor ticks every second: go test times out.
func stuckBesideJanitor(t *testing.T) {
	stop := make(chan struct{})
	janitor(time.Second, stop)
	Recv(make(chan int))
	Close(stop)
}

// ticksThenDone: the result comes from a goroutine after n ticks of a
// second, while the test waits for it.
func ticksThenDone(n int) func(t *testing.T) {
	return func(t *testing.T) {
		done := make(chan int)
		Go(func() {
			tk := NewTicker(time.Second)
			for i := 0; i < n; i++ {
				Recv(tk.C)
			}
			TickerStop(tk)
			Send(done, n)
		})
		if got := Recv(done); got != n {
			t.Errorf("got %d", got)
		}
	}
}

// TestTestTimeout: a test blocked for good while a janitor ticks used to
// run to the step bound (inconclusive) on every schedule; go test times
// it out after -timeout. Under control it times out once blocked that
// long of virtual time, its goroutine shown blocked and the janitor left
// out (live), and the schedule replays. Also inside a subtest.
func TestTestTimeout(t *testing.T) {
	sub := func(t *testing.T) { Run(t, "sub", stuckBesideJanitor) }
	for _, k := range []struct {
		name    string
		body    func(*testing.T)
		blocked int // the test's goroutine (and the parent in t.Run)
	}{{"test", stuckBesideJanitor, 1}, {"subtest", sub, 2}} {
		t.Run(k.name, func(t *testing.T) {
			rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, k.body, nil)
			for _, r := range rs {
				if r.Outcome != "deadlock" || !strings.HasPrefix(r.Message, TestTimeoutPrefix) || r.Inconclusive != "" {
					t.Fatalf("schedule %d: %s %q (inconclusive %q), want the test timed out", r.Index, r.Outcome, r.Message, r.Inconclusive)
				}
				if !strings.Contains(r.Message, "10m0s") || len(r.Goroutines) != k.blocked || !strings.Contains(r.Message, "1 live on timers") {
					t.Errorf("schedule %d: %q with %d goroutines; want a 10m0s timeout, %d goroutines blocked, the janitor live", r.Index, r.Message, len(r.Goroutines), k.blocked)
				}
				if r.Virtual < DefaultTestTimeout || r.Virtual > DefaultTestTimeout+time.Minute {
					t.Errorf("schedule %d: timed out at %v of virtual time, want about %v", r.Index, r.Virtual, DefaultTestTimeout)
				}
			}
			r := rs[0]
			sch := &Schedule{Version: ScheduleVersion, Seed: r.Seed, Decisions: r.Decisions}
			again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, k.body)
			if again.Outcome != r.Outcome || again.Message != r.Message || again.Diverged != "" {
				t.Errorf("replay: %s %q (diverged %q), want %s %q", again.Outcome, again.Message, again.Diverged, r.Outcome, r.Message)
			}
		})
	}
}

// TestTestTimeoutResultInTime: a test waiting five virtual minutes for a
// result a ticker drives gets it and passes: it did not wait its timeout.
// With -timeout 2m it times out, as go test -timeout 2m would.
func TestTestTimeoutResultInTime(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, ticksThenDone(300), nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s %q (inconclusive %q), want a pass", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
		if r.Virtual < 300*time.Second {
			t.Errorf("schedule %d: passed at %v of virtual time, want past 5m", r.Index, r.Virtual)
		}
	}
	rs = RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second, TestTimeout: 2 * time.Minute}, ticksThenDone(300), nil)
	if r := rs[0]; r.Outcome != "deadlock" || !strings.HasPrefix(r.Message, TestTimeoutPrefix) || !strings.Contains(r.Message, "2m0s") {
		t.Errorf("with -timeout 2m: %s %q, want the test timed out after 2m0s", r.Outcome, r.Message)
	}
}
