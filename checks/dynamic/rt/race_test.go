package rt

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRaceChild is run in a subprocess: two controlled goroutines increment x,
// with or without a mutex.
func TestRaceChild(t *testing.T) {
	mode := os.Getenv("RT_RACE_CHILD")
	if mode == "" {
		t.Skip("subprocess helper")
	}
	cfg := Config{Schedules: 10, Seed: 7, StepTimeout: 5 * time.Second}
	if mode == "local" {
		// An end with no monotonic reading, as the driver passes one.
		cfg.Until = time.Now().Add(time.Minute).Round(0)
	}
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		x := 0
		if mode == "local" {
			// timberjack's TestLocalTime: the test sets time.Local while
			// the scheduler, on its own goroutine, reads the clock for
			// its waits (a goroutine outside control: a real sleep).
			local := time.Local
			defer func() { time.Local = local }()
			time.Local = time.UTC
			done := make(chan struct{})
			Go(func() {
				time.Sleep(20 * time.Millisecond)
				Close(done)
			})
			Recv(done)
			return
		}
		if mode == "synctest" {
			// jrpc2's TestServer_stopCancelsHandlers: a goroutine of the
			// bubble writes what it received and exits; the test reads
			// it after Wait. synctest orders the two for the race
			// detector (bubbleRace).
			SynctestTest(t, func(t *testing.T) {
				ch := make(chan int)
				Go(func() { x = Recv(ch) })
				SynctestWait()
				Send(ch, 1)
				SynctestWait()
				if x != 1 {
					t.Errorf("x = %d, want 1", x)
				}
			})
			return
		}
		if mode == "synctestrace" {
			// The same goroutine's write and a read before any Wait:
			// nothing orders them, in a bubble or not.
			SynctestTest(t, func(t *testing.T) {
				Go(func() {
					Gosched()
					x = 1
					Gosched()
				})
				Gosched()
				_ = x
				Gosched()
				SynctestWait()
			})
			return
		}
		if mode == "timer" {
			// The scheduler fires both timers; it must not carry g1's
			// clock (acquired from the ticker's buffer) over to g2.
			tk := NewTicker(time.Second)
			WaitGroupAdd(&wg, 2)
			Go(func() {
				defer WaitGroupDone(&wg)
				Recv(tk.C)
				x++
				Recv(tk.C)
			})
			Go(func() {
				defer WaitGroupDone(&wg)
				Recv(After(10 * time.Second))
				x++
			})
			WaitGroupWait(&wg)
			return
		}
		for i := 0; i < 2; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				if mode == "mutex" {
					Lock(&mu)
					x++
					Unlock(&mu)
				} else {
					Gosched()
					x++
					Gosched()
				}
			})
		}
		WaitGroupWait(&wg)
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule failed: %+v", r)
		}
	}
}

func runRaceChild(t *testing.T, mode string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRaceChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "RT_RACE_CHILD="+mode)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func TestRaceDetectorSeesThroughHandoffs(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs -race")
	}
	if os.Getenv("RT_RACE_CHILD") != "" {
		t.Skip()
	}
	out := runRaceChild(t, "plain")
	if !strings.Contains(out, "WARNING: DATA RACE") {
		t.Fatalf("unsynchronized x++ under control not reported:\n%s", out)
	}
	for _, f := range schedFiles {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("schedFiles: %v", err)
		}
		if strings.Contains(out, "/rt/"+f+":") {
			t.Errorf("race report involves the scheduler itself (%s):\n%s", f, out)
		}
	}
	out = runRaceChild(t, "timer")
	if !strings.Contains(out, "WARNING: DATA RACE") {
		t.Fatalf("race between timer-driven goroutines not reported:\n%s", out)
	}
	out = runRaceChild(t, "mutex")
	if strings.Contains(out, "WARNING: DATA RACE") {
		t.Fatalf("race reported with a mutex:\n%s", out)
	}

	if !strings.Contains(out, "--- PASS: TestRaceChild") {
		t.Fatalf("child did not pass:\n%s", out)
	}
}

// TestSchedulerLeavesTimeLocal: a test that sets time.Local (timberjack's
// TestLocalTime) races with no read of the scheduler's own: its waits
// measure real time without time.Now, which reads time.Local.
func TestSchedulerLeavesTimeLocal(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs -race")
	}
	if os.Getenv("RT_RACE_CHILD") != "" {
		t.Skip()
	}
	out := runRaceChild(t, "local")
	if strings.Contains(out, "WARNING: DATA RACE") {
		t.Fatalf("the scheduler's clock reads race with the test's time.Local:\n%s", out)
	}
	if !strings.Contains(out, "--- PASS: TestRaceChild") {
		t.Fatalf("child did not pass:\n%s", out)
	}
}

// schedFiles hold the scheduler's code (sched.go before it was split).
var schedFiles = []string{
	"sched.go", "ops.go", "gstate.go", "shadow.go", "enabled.go", "decide.go", "timers.go",
	"outside.go", "foreign.go", "spin.go", "failure.go", "abort.go", "watchdog.go", "sites.go", "goid.go", "monoclock.go",
}

// TestSynctestWaitNoRace: what a bubble's goroutine wrote before it
// exited, read after synctest.Wait, is no data race, as under
// testing/synctest (bubbleRace; jrpc2's TestServer_stopCancelsHandlers
// was one on every schedule); the same read before any Wait still is.
func TestSynctestWaitNoRace(t *testing.T) {
	if ranInRaceChild(t) {
		return
	}
	if os.Getenv("RT_RACE_CHILD") != "" {
		t.Skip()
	}
	out := runRaceChild(t, "synctest")
	if strings.Contains(out, "WARNING: DATA RACE") || !strings.Contains(out, "--- PASS: TestRaceChild") {
		t.Fatalf("a write before synctest.Wait and a read after it: race reported, or the child failed:\n%s", out)
	}
	out = runRaceChild(t, "synctestrace")
	if !strings.Contains(out, "WARNING: DATA RACE") {
		t.Fatalf("a write and a read in a bubble with no Wait between: no race reported:\n%s", out)
	}
}
