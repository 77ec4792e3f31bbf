package rt

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Aborted schedules unwind every goroutine (running deferred unlocks only
// for held locks) and leave nothing parked behind.
func TestAbortLeavesNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	var a, b sync.Mutex // shared by all schedules: must end unlocked
	rs := explore(t, 60, func(t *testing.T) {
		var wg sync.WaitGroup
		ch := make(chan int)
		WaitGroupAdd(&wg, 3)
		Go(func() {
			defer WaitGroupDone(&wg)
			Lock(&a)
			defer Unlock(&a)
			Lock(&b)
			defer Unlock(&b)
		})
		Go(func() {
			defer WaitGroupDone(&wg)
			Lock(&b)
			defer Unlock(&b)
			Lock(&a)
			defer Unlock(&a)
		})
		Go(func() {
			defer WaitGroupDone(&wg)
			defer Send(ch, 1) // blocks during unwinding: must not hang
			Sleep(time.Hour)
		})
		Recv(ch)
		WaitGroupWait(&wg)
	})
	o := outcomes(rs)
	if o["deadlock"] == 0 || o["pass"] == 0 {
		t.Fatalf("want deadlocks and passes: %v", o)
	}
	if !a.TryLock() || !b.TryLock() {
		t.Fatal("a lock stayed held after the schedules")
	}
	time.Sleep(50 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before+2 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, after, buf[:n])
	}
}

func TestLivelockStepBound(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 2, Seed: 1, MaxSteps: 300, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex
		flag := false
		Go(func() {
			for {
				Lock(&mu)
				f := flag
				Unlock(&mu)
				if f {
					return
				}
				Gosched()
			}
		})
		for {
			Gosched() // never sets flag
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") || r.Steps != 300 || len(r.Goroutines) != 2 {
			t.Fatalf("%+v", r)
		}
	}
}
