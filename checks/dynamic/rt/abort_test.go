package rt

import (
	"os"
	"os/exec"
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

// A close run while unwinding is skipped when a controlled goroutine was
// parked sending on the channel when the schedule ended: the program
// closes only after that send completed, and the scheduler's tries of the
// send (probe's non-blocking send) would race with the close (goroutines
// v1.1.3: the worker's deferred close(w.stopChan), unwinding from its
// task, against the recycler's probed stop() send). Both orders of
// unwinding: the sender first (it is no longer at its send when the close
// runs) and the closer first; and a select's send case.
func TestAbortSkipsCloseWithParkedSender(t *testing.T) {
	for _, c := range []struct {
		name         string
		senderFirst  bool
		selectSender bool
	}{
		{"closer first", false, false},
		{"sender first", true, false},
		{"select sender", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			stop := make(chan struct{})
			rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
				never := make(chan int)
				closer := func() {
					defer Close(stop)
					Recv(never) // unwound when the schedule ends
				}
				sender := func() {
					if c.selectSender {
						k := Select(false, SendCase(stop), RecvCase(never))
						if k == 0 {
							PickSend(k, 0, stop) <- struct{}{}
							SelectSent()
						}
						return
					}
					Send(stop, struct{}{})
				}
				if c.senderFirst {
					Go(sender)
					Go(closer)
				} else {
					Go(closer)
					Go(sender)
				}
			}, nil)
			if len(rs) != 1 {
				t.Fatalf("ran %d schedules, want 1", len(rs))
			}
			select {
			case <-stop:
				t.Fatalf("the unwinding close ran while a goroutine was parked sending (schedule: %s %q)", rs[0].Outcome, rs[0].Message)
			default:
			}
		})
	}
}

// The skip is only for sends pending when the schedule ended: a close
// reached while unwinding still runs when nobody waits to send on the
// channel (a goroutine outside control waits for it).
func TestAbortRunsCloseWithoutSender(t *testing.T) {
	done := make(chan struct{})
	RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		never, other := make(chan int), make(chan int)
		Go(func() {
			defer Close(done)
			Recv(never)
		})
		Go(func() { Send(other, 1) }) // parked sending on another channel
	}, nil)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the unwinding close did not run")
	}
}

// TestUnwindCloseChild is run in a subprocess under -race: a goroutine
// parked sending on stop, probed by the scheduler before the leak is
// declared, and one that closes stop while unwinding.
func TestUnwindCloseChild(t *testing.T) {
	if os.Getenv("RT_UNWIND_CLOSE_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		stop, never := make(chan struct{}), make(chan int)
		Go(func() { Send(stop, struct{}{}) })
		Go(func() {
			defer Close(stop)
			Recv(never)
		})
	}, nil)
}

// The race detector sees no race between the unwinding close and the
// scheduler's tries of the parked send (the false IL9005 of goroutines
// v1.1.3: "write at worker.go:72 … previous read at worker.go:104").
func TestUnwindCloseNoRace(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs -race")
	}
	if os.Getenv("RT_UNWIND_CLOSE_CHILD") != "" {
		t.Skip()
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestUnwindCloseChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "RT_UNWIND_CLOSE_CHILD=1")
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "WARNING: DATA RACE") {
		t.Fatalf("the unwinding close raced with the probed send:\n%s", out)
	}
	if !strings.Contains(string(out), "--- PASS: TestUnwindCloseChild") {
		t.Fatalf("child did not run to its end:\n%s", out)
	}
}

// A schedule that ends inside nested subtests unwinds the innermost first,
// and a test unwinds only once its subtest's real t.Run has returned: go
// test never ends a test before its sequential subtest, so a testing.T is
// not done while its subtest still reports (under -race, the subtest's
// check of its parents read their done flags unsynchronized, and a
// parent done first made testing panic "Fail in goroutine after … has
// completed": the tool's panic, reported as the test's).
func TestAbortUnwindsInnermostSubtestFirst(t *testing.T) {
	var mu sync.Mutex
	var order [][]string
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var unwound []string
		note := func(s string) {
			mu.Lock()
			unwound = append(unwound, s)
			mu.Unlock()
		}
		defer func() {
			mu.Lock()
			order = append(order, unwound)
			mu.Unlock()
		}()
		Run(t, "outer", func(t *testing.T) {
			defer note("outer")
			Run(t, "middle", func(t *testing.T) {
				defer note("middle")
				Run(t, "inner", func(t *testing.T) {
					defer note("inner")
					Recv(make(chan int)) // blocks forever
				})
				note("middle's t.Run returned")
			})
			note("outer's t.Run returned")
		})
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "deadlock" {
		t.Fatalf("want one deadlock, got %+v", rs)
	}
	want := []string{"inner", "middle", "outer"}
	if len(order) != 1 || !reflect.DeepEqual(order[0], want) {
		t.Fatalf("unwound %q, want %q", order, want)
	}
}
