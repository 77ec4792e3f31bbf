package rt

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// lineHere returns this file's name and the caller's line plus d.
func lineHere(d int) string {
	_, file, line, _ := runtime.Caller(1)
	return file + ":" + strconv.Itoa(line+d)
}

// The unperturbed run counts the decisions at each target: the lock taken
// three times on one line, the unlock two lines further (within
// TargetNear) too, and a target nothing runs at stays out.
func TestTargetHitsUnperturbed(t *testing.T) {
	var at, never string
	body := func(t *testing.T) {
		var mu sync.Mutex
		for i := 0; i < 3; i++ {
			Lock(&mu)
			Unlock(&mu)
		}
	}
	at = lineHere(-5)      // the Lock line
	never = lineHere(-100) // far from any operation of body
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second, Targets: []string{at, never}}, body, nil)
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	if got := rs[0].TargetHits[at]; got != 6 {
		t.Errorf("hits at the Lock line: %d, want 6 (3 locks, 3 unlocks next to it); all: %v", got, rs[0].TargetHits)
	}
	if _, ok := rs[0].TargetHits[never]; ok {
		t.Errorf("a target nothing ran at has hits: %v", rs[0].TargetHits)
	}
	if rs[0].TargetPreempts != nil {
		t.Errorf("the unperturbed run preempts nothing: %v", rs[0].TargetPreempts)
	}
	// Without targets, nothing is counted.
	rs = RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, body, nil)
	if rs[0].TargetHits != nil {
		t.Errorf("hits without targets: %v", rs[0].TargetHits)
	}
}

// A targeted search counts its preemptions at the target, per schedule.
func TestTargetPreempts(t *testing.T) {
	var target string
	body := func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		WaitGroupAdd(&wg, 2)
		for i := 0; i < 2; i++ {
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&mu)
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
	}
	target = lineHere(-7) // the Lock line
	rs := RunSchedules(t, Config{Schedules: 20, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second, Targets: []string{target}}, body, nil)
	pre, hits := 0, 0
	for _, r := range rs {
		pre += r.TargetPreempts[target]
		hits += r.TargetHits[target]
		if r.TargetPreempts[target] > 2*r.TargetHits[target] {
			t.Errorf("schedule %d: %d preemptions, %d hits", r.Index, r.TargetPreempts[target], r.TargetHits[target])
		}
	}
	// Per goroutine: the deferred Done, Lock and Unlock are within TargetNear.
	if hits != 20*6 || pre == 0 {
		t.Errorf("over 20 schedules: %d hits (want 120), %d preemptions (want some)", hits, pre)
	}
}
