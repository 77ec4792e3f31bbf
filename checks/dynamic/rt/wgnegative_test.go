package rt

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLast runs the other goroutines while it can, and g0 only when it
// is alone; it records whether g0 was offered at WaitGroup.Wait after the
// worker's second Done (the one that takes the counter below zero).
type waitLast struct {
	dones       int  // decisions that ran the worker's WaitGroup.Add (its Dones)
	offeredWait bool // g0 offered at Wait after the second
}

func (w *waitLast) Reset(int64) {}

func (w *waitLast) Next(list []Candidate, _ int, _ int) int {
	pick := -1
	for i, c := range list {
		if c.G == 0 {
			if c.Op == "WaitGroup.Wait" && w.dones >= 2 {
				w.offeredWait = true
			}
		} else if pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		return 0
	}
	if list[pick].Op == "WaitGroup.Add" {
		w.dones++
	}
	return pick
}

func (w *waitLast) Choose(int, int) int { return 0 }

// TestWaitGroupNegativeWait: a Done too many panics with the real counter
// below zero, and the worker's deferred Done is a scheduling point while
// it unwinds. The test's Wait must not be run then: for real it blocks
// for good there, the schedule ended without the test goroutine, and the
// process hung until the driver killed it (recall kernel wgdoubledone:
// the panic was lost as a schedule stopped unfinished).
func TestWaitGroupNegativeWait(t *testing.T) {
	st := &waitLast{}
	r := RunSchedule(t, Config{Seed: 1, StepTimeout: 5 * time.Second}, 0, st, nil, func(t *testing.T) {
		var wg sync.WaitGroup
		WaitGroupAdd(&wg, 1)
		Go(func() {
			defer WaitGroupDone(&wg) // a third, while the second unwinds
			WaitGroupDone(&wg)
			WaitGroupDone(&wg) // below zero: panics
		})
		WaitGroupWait(&wg)
	})
	if st.offeredWait {
		t.Errorf("Wait was enabled with the real counter below zero")
	}
	if r.Outcome != "panic" || !strings.Contains(r.Message, "negative WaitGroup counter") {
		t.Fatalf("outcome %s %q, want the panic of the negative counter", r.Outcome, r.Message)
	}
}
