package rt

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func explore(t *testing.T, n int, body func(t *testing.T)) []Result {
	t.Helper()
	return RunSchedules(t, Config{Schedules: n, Seed: 1, StepTimeout: 5 * time.Second}, body, nil)
}

func outcomes(rs []Result) map[string]int {
	m := map[string]int{}
	for _, r := range rs {
		m[r.Outcome]++
	}
	return m
}

func TestMutexExclusion(t *testing.T) {
	var bad int
	rs := explore(t, 50, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		inside, x := 0, 0
		for i := 0; i < 3; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				for k := 0; k < 3; k++ {
					Lock(&mu)
					inside++
					if inside != 1 {
						bad++
					}
					Gosched()
					x++
					inside--
					Unlock(&mu)
				}
			})
		}
		WaitGroupWait(&wg)
		if x != 9 {
			t.Errorf("x = %d", x)
		}
	})
	if o := outcomes(rs); o["pass"] != 50 || bad != 0 {
		t.Fatalf("outcomes %v, exclusion violated %d times; first %+v", o, bad, rs[0])
	}
	if len(rs[0].Decisions) < 10 {
		t.Fatalf("few decisions: %+v", rs[0].Decisions)
	}
}

func abba(t *testing.T) {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	WaitGroupAdd(&wg, 2)
	Go(func() {
		defer WaitGroupDone(&wg)
		Lock(&a)
		Lock(&b)
		Unlock(&b)
		Unlock(&a)
	})
	Go(func() {
		defer WaitGroupDone(&wg)
		Lock(&b)
		Lock(&a)
		Unlock(&a)
		Unlock(&b)
	})
	WaitGroupWait(&wg)
}

func TestABBADeadlock(t *testing.T) {
	rs := explore(t, 100, abba)
	var dl *Result
	for i := range rs {
		if rs[i].Outcome == "deadlock" {
			dl = &rs[i]
			break
		}
	}
	o := outcomes(rs)
	if dl == nil || o["pass"] == 0 {
		t.Fatalf("want both deadlocks and passes, got %v", o)
	}
	var locks int
	for _, g := range dl.Goroutines {
		if g.Op == "Mutex.Lock" && strings.Contains(g.Site, "rt_test.go") && strings.Contains(g.Stack, "abba") {
			locks++
		}
	}
	if locks != 2 || !strings.Contains(dl.Message, "deadlock") || !strings.Contains(dl.Site, "rt_test.go") {
		t.Fatalf("deadlock report: %+v", dl)
	}
	if o["pass"]+o["deadlock"] != 100 {
		t.Fatalf("outcomes %v", o)
	}
}

// TestResultVirtual: a Result says how far the virtual clock moved until
// the test returned, the real time the test's sleeps take under plain go
// test (not a goroutine's sleep after it, which go test does not wait for).
func TestResultVirtual(t *testing.T) {
	rs := explore(t, 1, func(t *testing.T) {
		Sleep(2 * time.Second)
		Go(func() { Sleep(time.Hour) })
	})
	if len(rs) != 1 || rs[0].Virtual < 2*time.Second || rs[0].Virtual > time.Minute {
		t.Fatalf("want a virtual 2s, got %+v", rs)
	}
}
