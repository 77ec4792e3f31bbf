package rt

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// wgReuse: a waiter in its own goroutine, and the next round's Add right
// after the last Done, not after the waiter's Wait returned.
func wgReuse(t *testing.T) {
	var wg sync.WaitGroup
	WaitGroupAdd(&wg, 1)
	Go(func() { WaitGroupWait(&wg) })
	WaitGroupDone(&wg)
	WaitGroupAdd(&wg, 1) // the next round
	WaitGroupDone(&wg)
}

// A waiter blocked in Wait when the count reaches zero is released for
// good, as the runtime's is: an Add before it runs makes it panic as
// sync.WaitGroup does, and the schedule replays.
func TestWaitGroupReused(t *testing.T) {
	rs := explore(t, 100, wgReuse)
	o := outcomes(rs)
	if o["panic"] == 0 || o["pass"] == 0 {
		t.Fatalf("want both outcomes, got %v", o)
	}
	for _, r := range rs {
		if r.Outcome != "panic" {
			continue
		}
		if !strings.Contains(r.Message, "WaitGroup is reused before previous Wait has returned") {
			t.Fatalf("panic %q, want the runtime's reuse message", r.Message)
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "wgReuse", Seed: r.Seed, Decisions: r.Decisions}
		var rep Result
		t.Run("replay", func(t *testing.T) {
			rep = RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, wgReuse)
		})
		if rep.Outcome != "panic" || rep.Diverged != "" || !reflect.DeepEqual(rep.Decisions, r.Decisions) {
			t.Fatalf("replay: %s (diverged %q), want the panic with the same decisions", rep.Outcome, rep.Diverged)
		}
		return
	}
}

// The correct twin: the next round's Add comes after the waiter's Wait
// returned.
func TestWaitGroupReusedAfterWait(t *testing.T) {
	rs := explore(t, 100, func(t *testing.T) {
		var wg, back sync.WaitGroup
		WaitGroupAdd(&wg, 1)
		WaitGroupAdd(&back, 1)
		Go(func() {
			WaitGroupWait(&wg)
			WaitGroupDone(&back)
		})
		WaitGroupDone(&wg)
		WaitGroupWait(&back)
		WaitGroupAdd(&wg, 1)
		WaitGroupDone(&wg)
		WaitGroupWait(&wg)
	})
	mustPass(t, rs)
}
