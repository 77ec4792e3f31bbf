package rt

import (
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
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

// A step bound ends a schedule as inconclusive: a pass with a note, never
// a finding.
func TestStepBoundInconclusive(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 2, Seed: 1, MaxSteps: 300, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex
		for i := 0; i < 1000; i++ { // finite, longer than the bound
			Lock(&mu)
			Unlock(&mu)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || !strings.HasPrefix(r.Inconclusive, "step bound:") || r.Steps != 300 {
			t.Fatalf("outcome %s, inconclusive %q after %d steps", r.Outcome, r.Inconclusive, r.Steps)
		}
	}
}

// Goroutines that only spin, with nothing pending that could end it, are
// a livelock.
func TestLivelockEvidence(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var flag int32
		Go(func() {
			for Then(AtomicLoad(&flag), atomic.LoadInt32(&flag)) == 0 {
				Gosched()
			}
		})
		for Then(AtomicLoad(&flag), atomic.LoadInt32(&flag)) == 0 {
			Gosched() // nobody sets flag
		}
	}, nil)
	r := rs[0]
	if r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") || len(r.Goroutines) != 2 {
		t.Fatalf("%s %q", r.Outcome, r.Message)
	}
}

// A loop polling a flag that a timer sets lets the virtual clock move.
func TestSpinLetsTimeAdvance(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var flag int32
		AfterFunc(time.Hour, func() { Atomic(&flag); atomic.StoreInt32(&flag, 1) })
		start := Now()
		for Then(AtomicLoad(&flag), atomic.LoadInt32(&flag)) == 0 {
		}
		if d := Since(start); !nearly(d, time.Hour) {
			t.Errorf("the flag was set after %v, want 1h", d)
		}
		tm := NewTimer(time.Minute)
		for n := 0; ; n++ {
			k := Select(true, RecvCase(tm.C))
			if k == 0 {
				<-PickRecv(k, 0, tm.C)
				break
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("%s %q %q", r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// A process whose deadline passed before it started still runs one schedule.
func TestLateProcessRunsOneSchedule(t *testing.T) {
	rs := RunSchedules(t, Config{Seed: 1, Deadline: time.Now().Add(-time.Second), StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex
		mu.Lock()
		//lint:ignore SA2001 any body will do: the schedule is what counts
		mu.Unlock()
	}, nil)
	if len(rs) != 1 {
		t.Fatalf("ran %d schedules, want 1", len(rs))
	}
}

// A close run while unwinding is skipped when a goroutine outside control
// waits for real to send on the channel: the close would make that send
// panic (and race with it), which the program never does — it closes
// after the send completed (goroutines v1.1.3's worker: a deferred
// close(w.stopChan) against stop()'s send).
func TestAbortSkipsCloseWithSenderForReal(t *testing.T) {
	stop := make(chan struct{})
	var panicked atomic.Bool
	RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		never := make(chan int)
		Go(func() {
			defer Close(stop)
			Recv(never) // unwound when the schedule ends
		})
		go func() { // outside control
			defer func() {
				if recover() != nil {
					panicked.Store(true)
				}
			}()
			stop <- struct{}{}
		}()
		for !waiterForReal(chanPtr(reflect.ValueOf(stop)), false) {
			runtime.Gosched()
		}
	}, nil)
	if panicked.Load() {
		t.Fatal("the unwinding close made the waiting send panic")
	}
	<-stop // frees the sender
}
