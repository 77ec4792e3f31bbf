package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// pond v1.9.2's TestGroupContextWithCanceledContext failed at one
// assertion on two schedules that left the pool's purger caught at
// different calls of its loop: two findings with one message, their
// function the purger's callee. The failure is the test's, whatever its
// leftovers were doing.
func TestTestFailureKeyIgnoresLeftovers(t *testing.T) {
	t.Parallel()
	failed := func(callee string, line string) rt.Result {
		return rt.Result{
			Outcome: "test-failure", Message: "test failed", Site: "/m/group_test.go:124",
			LeftBehind: "goroutines still running after the test returned",
			Goroutines: []rt.GoroutineState{{ID: 1, Op: "select", Site: "/m/pond.go:391",
				Stack: "goroutine 1 [select]:\nm.(*WorkerPool)." + callee + "(...)\n\t/m/pond.go:" + line + " +0x1\nm.(*WorkerPool).purge(...)\n\t/m/pond.go:391 +0x2\n"}},
		}
	}
	a, ok := fromResult(failed("decrementWorkerCount", "517"))
	b, ok2 := fromResult(failed("IdleWorkers", "503"))
	if !ok || !ok2 {
		t.Fatal("a failing result gave no failure")
	}
	if a.key() != b.key() {
		t.Errorf("one assertion's failure has two keys:\n%s\n%s", a.key(), b.key())
	}
	if len(a.frames) != 0 {
		t.Errorf("the test's failure took the frames of a goroutine it left: %+v", a.frames)
	}
	if a.site != "/m/group_test.go:124" {
		t.Errorf("site %q, want the test's", a.site)
	}
}
