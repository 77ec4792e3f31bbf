package rt

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A test that counts goroutines sees only its own: not the scheduler, its
// helpers, the driver's goroutine, nor a goroutine that has returned. It
// runs in a process of its own: goroutines that earlier tests of this
// package left ending (real sleeps, on a loaded machine longer) are the
// program's too, and would come and go between two counts.
func TestNumGoroutineCountsProgramOnly(t *testing.T) {
	if os.Getenv(numgChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNumGoroutineCountsProgramOnly$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), numgChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestNumGoroutineCountsProgramOnly") {
			t.Fatalf("the kernel's process: %v\n%s", err, out)
		}
		return
	}
	numGoroutineKernel(t, NumGoroutine, true)
}

// numgChild is set in the process that runs the kernel.
const numgChild = "INTERLEAVE_RT_NUMG_CHILD"

func numGoroutineKernel(t *testing.T, num func() int, want bool) {
	bad := 0
	report := func(t *testing.T, format string, args ...any) {
		bad++
		if want {
			t.Errorf(format, args...)
		}
	}
	rs := RunSchedules(t, Config{Schedules: 20, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		start := num()
		cmd, out := make(chan int), make(chan int)
		Go(func() {
			for {
				v, ok := Recv2(cmd)
				if !ok {
					return
				}
				k := Select(false, SendCase(out))
				//lint:ignore S1000 the rewriter's form of a one-case select
				select {
				case PickSend(k, 0, out) <- v:
				}
			}
		})
		if n := num(); n != start+1 {
			report(t, "%d goroutines while one runs, want %d", n, start+1)
		}
		Send(cmd, 1)
		Recv(out)
		Close(cmd)
		Sleep(time.Millisecond)
		if n := num(); n != start {
			report(t, "%d goroutines after it returned, want %d", n, start)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
	if !want && bad == 0 {
		t.Errorf("the count never differed: the kernel tests nothing")
	}
}
