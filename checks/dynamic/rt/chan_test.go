package rt

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func mustPass(t *testing.T, rs []Result) {
	t.Helper()
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s at %s\n%+v", r.Index, r.Outcome, r.Message, r.Site, r.Goroutines)
		}
	}
}

func TestUnbufferedPair(t *testing.T) {
	var got []int
	rs := explore(t, 30, func(t *testing.T) {
		ch := make(chan int)
		done := make(chan bool)
		Go(func() {
			for i := 0; i < 3; i++ {
				Send(ch, i)
			}
			Send(done, true)
		})
		sum := 0
		for i := 0; i < 3; i++ {
			sum += Recv(ch)
		}
		Recv(done)
		got = append(got, sum)
	})
	mustPass(t, rs)
	for _, s := range got {
		if s != 3 {
			t.Fatalf("sums %v", got)
		}
	}
	partnered := false
	for _, d := range rs[0].Decisions {
		if d.Partner != nil {
			partnered = true
		}
	}
	if !partnered {
		t.Fatalf("no paired decision: %+v", rs[0].Decisions)
	}
}

func TestBufferedCloseRange(t *testing.T) {
	orders := map[string]bool{}
	rs := explore(t, 40, func(t *testing.T) {
		ch := make(chan int, 2)
		var wg sync.WaitGroup
		for p := 0; p < 2; p++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				for i := 0; i < 2; i++ {
					Send(ch, p*10+i)
				}
			})
		}
		Go(func() { WaitGroupWait(&wg); Close(ch) })
		var seq []string
		for v := range Range(ch) {
			seq = append(seq, string(rune('0'+v%10))+string(rune('a'+v/10)))
		}
		if len(seq) != 4 {
			t.Errorf("got %v", seq)
		}
		orders[strings.Join(seq, ",")] = true
	})
	mustPass(t, rs)
	if len(orders) < 2 {
		t.Fatalf("only one interleaving explored: %v", orders)
	}
}

func TestSelect(t *testing.T) {
	picked := map[int]int{}
	rs := explore(t, 60, func(t *testing.T) {
		a, b := make(chan int), make(chan int, 1)
		Go(func() { Send(a, 1) })
		Send(b, 2)
		for n := 0; n < 2; n++ {
			k := Select(false, RecvCase(a), RecvCase(b))
			select {
			case v := <-PickRecv(k, 0, a):
				if v != 1 {
					t.Errorf("a gave %d", v)
				}
				if n == 0 {
					picked[0]++
				}
			case v := <-PickRecv(k, 1, b):
				if v != 2 {
					t.Errorf("b gave %d", v)
				}
				if n == 0 {
					picked[1]++
				}
			}
		}
	})
	mustPass(t, rs)
	if picked[0] == 0 || picked[1] == 0 {
		t.Fatalf("both cases should be picked first sometimes: %v", picked)
	}
}

func TestSelectDefault(t *testing.T) {
	picked := map[string]int{}
	rs := explore(t, 60, func(t *testing.T) {
		c := make(chan int)
		Go(func() {
			k := Select(true, SendCase(c))
			select {
			case PickSend(k, 0, c) <- 5:
				picked["send"]++
			default:
				picked["default"]++
				Send(c, 6)
			}
		})
		Gosched()
		v := Recv(c)
		if v != 5 && v != 6 {
			t.Errorf("got %d", v)
		}
		if k := Select(true, RecvCase(c)); k != -1 {
			t.Errorf("nothing ready, want default, got %d", k)
		}
	})
	mustPass(t, rs)
	if picked["send"] == 0 || picked["default"] == 0 {
		t.Fatalf("both send case and default should be taken: %v", picked)
	}
	if k := Select(true, RecvCase(make(chan int))); k != -2 {
		t.Fatalf("uncontrolled Select = %d, want -2", k)
	}
}

func TestCondSignalChoice(t *testing.T) {
	first := map[int]int{}
	rs := explore(t, 60, func(t *testing.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := 0
		var order []int
		var wg sync.WaitGroup
		for i := 1; i <= 2; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&mu)
				ready++
				CondWait(c)
				order = append(order, i)
				Unlock(&mu)
			})
		}
		for {
			Lock(&mu)
			if ready == 2 {
				break
			}
			Unlock(&mu)
			Gosched()
		}
		CondSignal(c)
		Unlock(&mu)
		Lock(&mu)
		CondSignal(c)
		Unlock(&mu)
		WaitGroupWait(&wg)
		first[order[0]]++
	})
	mustPass(t, rs)
	if first[1] == 0 || first[2] == 0 {
		t.Fatalf("Signal should wake either waiter first: %v", first)
	}
	sig := 0
	for _, d := range rs[0].Decisions {
		if d.Op == "Cond.Signal" && d.Choice != nil {
			sig++
		}
	}
	if sig != 2 {
		t.Fatalf("signal choices not recorded: %+v", rs[0].Decisions)
	}
}

func TestOnce(t *testing.T) {
	rs := explore(t, 30, func(t *testing.T) {
		var o sync.Once
		var wg sync.WaitGroup
		n := 0
		for i := 0; i < 3; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				OnceDo(&o, func() { Gosched(); n++ })
				if n != 1 {
					t.Errorf("Once.Do returned before f finished: n=%d", n)
				}
			})
		}
		WaitGroupWait(&wg)
	})
	mustPass(t, rs)
}

func TestVirtualSleep(t *testing.T) {
	start := time.Now()
	rs := explore(t, 5, func(t *testing.T) {
		var wg sync.WaitGroup
		WaitGroupAdd(&wg, 1)
		Go(func() { defer WaitGroupDone(&wg); Sleep(time.Hour) })
		tm := NewTimer(2 * time.Hour)
		Recv(After(time.Minute))
		WaitGroupWait(&wg)
		if !TimerStop(tm) {
			t.Errorf("timer should still be pending")
		}
		tk := NewTicker(time.Second)
		for i := 0; i < 3; i++ {
			Recv(tk.C)
		}
		TickerStop(tk)
		fired := make(chan bool, 1)
		AfterFunc(time.Hour, func() { Send(fired, true) })
		Recv(fired)
	})
	mustPass(t, rs)
	if el := time.Since(start); el > 20*time.Second {
		t.Fatalf("virtual time took %v", el)
	}
}

func TestLeak(t *testing.T) {
	rs := explore(t, 5, func(t *testing.T) {
		ch := make(chan int)
		Go(func() { Send(ch, 1) }) // nobody receives
	})
	for _, r := range rs {
		if r.Outcome != "leak" || len(r.Goroutines) != 1 || r.Goroutines[0].Op != "chan send" ||
			!strings.Contains(r.Site, "chan_test.go") {
			t.Fatalf("want leak of the sender, got %+v", r)
		}
	}
}

// TestLeakRunningOrBlocked: a leak says whether the goroutines left are all
// blocked forever or some still run (a spinner, a sleeper in a loop).
func TestLeakRunningOrBlocked(t *testing.T) {
	var stop int32 // never set
	rs := explore(t, 3, func(t *testing.T) {
		ch := make(chan int)
		Go(func() { Send(ch, 1) }) // nobody receives
		Go(func() {
			for Then(AtomicLoad(&stop), atomic.LoadInt32(&stop)) == 0 {
				Gosched()
			}
		})
		Go(func() {
			for Then(AtomicLoad(&stop), atomic.LoadInt32(&stop)) == 0 {
				Sleep(time.Millisecond)
			}
		})
	})
	for _, r := range rs {
		if r.Outcome != "leak" || !strings.HasPrefix(r.Message, LeakRunning) || len(r.Goroutines) != 3 ||
			!strings.Contains(r.Message, "running at atomic load") && !strings.Contains(r.Message, "running at Gosched") ||
			!strings.Contains(r.Message, "running at time.Sleep") {
			t.Fatalf("want a leak of goroutines still running, got %+v", r)
		}
	}
	rs = explore(t, 3, func(t *testing.T) {
		ch := make(chan int)
		Go(func() { Send(ch, 1) })
		Go(func() { Recv(ch); Recv(ch) }) // the second receive waits forever
	})
	for _, r := range rs {
		if r.Outcome != "leak" || !strings.HasPrefix(r.Message, LeakBlocked) || strings.Contains(r.Message, "running at") {
			t.Fatalf("want a leak of goroutines blocked forever, got %+v", r)
		}
	}
}

// TestLeakClockLoop: a loop that a sleep (a ticker) wakes, left running
// after the test returned, is told by where it waits between wakes, the
// same on every schedule, not by where the window's end stopped it (the
// lock its tick takes): go-limiter's sweeper, parked in its select on a
// six-hour ticker under go test, was told "running at Mutex.Unlock".
func TestLeakClockLoop(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	wait := fmt.Sprintf("%s:%d", filepath.Base(file), line+7)
	rs := explore(t, 4, func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		Go(func() {
			for {
				Sleep(time.Millisecond)
				for k := 0; k < 3; k++ {
					Lock(&mu)
					n++
					Unlock(&mu)
				}
			}
		})
	})
	for _, r := range rs {
		if r.Outcome != "leak" || !strings.HasPrefix(r.Message, LeakRunning) ||
			!strings.Contains(r.Message, "g1 running in a loop the clock wakes: waits on time.Sleep at "+wait) ||
			filepath.Base(r.Site) != wait {
			t.Fatalf("want a leak told by the sleep at %s, got %+v", wait, r)
		}
	}
}

// TestLeakJudgedFairly: a goroutine that ends on its own once it runs (a
// janitor that sees the pool closed) is not left "running" because the
// strategy starved it behind a spinner: the unperturbed strategy runs the
// spinner on, but the last decisions after the test returned are fair.
func TestLeakJudgedFairly(t *testing.T) {
	var stop, closed int32
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		started := make(chan bool)
		Go(func() { // the janitor: ends once closed is set
			Send(started, true)
			for Then(AtomicLoad(&closed), atomic.LoadInt32(&closed)) == 0 {
				Gosched()
			}
		})
		Go(func() { // never stopped
			for Then(AtomicLoad(&stop), atomic.LoadInt32(&stop)) == 0 {
				Gosched()
			}
		})
		Recv(started)
		Atomic(&closed)
		atomic.StoreInt32(&closed, 1)
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "leak" || !strings.HasPrefix(rs[0].Message, LeakRunning) || len(rs[0].Goroutines) != 1 {
		t.Fatalf("want the spinner alone still running, got %+v", rs)
	}
}

// TestLeakEndingSlowly: goroutines the test did not wait for that each
// take a lock and end (freecache's TestConcurrentGetTTL: a thousand
// Sets) are ending, not running for ever, though more decisions than a
// fair window are needed: the schedule passes, as go test does. A
// spinner among them is still a leak.
func TestLeakEndingSlowly(t *testing.T) {
	const n = 1000
	rs := explore(t, 2, func(t *testing.T) {
		var mu sync.Mutex
		count := 0
		for i := 0; i < n; i++ {
			Go(func() {
				for k := 0; k < 5; k++ {
					Lock(&mu)
					count++
					Unlock(&mu)
				}
			})
		}
	})
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("want a pass, got %s %q %s", r.Outcome, r.Message, r.Inconclusive)
		}
	}
	var stop int32 // never set
	rs = explore(t, 1, func(t *testing.T) {
		var mu sync.Mutex
		for i := 0; i < n; i++ {
			Go(func() {
				Lock(&mu)
				Unlock(&mu)
			})
		}
		Go(func() {
			for Then(AtomicLoad(&stop), atomic.LoadInt32(&stop)) == 0 {
				Gosched()
			}
		})
	})
	if len(rs) != 1 || rs[0].Outcome != "leak" || !strings.HasPrefix(rs[0].Message, LeakRunning) || len(rs[0].Goroutines) != 1 {
		t.Fatalf("want the spinner alone still running, got %+v", rs)
	}
}

func TestPanicInChild(t *testing.T) {
	rs := explore(t, 5, func(t *testing.T) {
		var mu sync.Mutex
		done := make(chan bool)
		Go(func() {
			Lock(&mu)
			defer Unlock(&mu)
			var m map[string]int
			//lint:ignore SA5000 the goroutine must panic
			m["x"] = 1
		})
		Go(func() { Lock(&mu); Unlock(&mu) })
		Recv(done)
	})
	for _, r := range rs {
		if r.Outcome != "panic" || !strings.Contains(r.Message, "nil map") || !strings.Contains(r.Site, "chan_test.go") {
			t.Fatalf("want panic, got %+v", r)
		}
	}
}

func TestTestFailureAndFatal(t *testing.T) {
	rs := explore(t, 3, func(t *testing.T) {
		var mu sync.Mutex
		Unlock(&mu)
	})
	for _, r := range rs {
		if r.Outcome != "fatal" || !strings.Contains(r.Message, "unlock of unlocked mutex") {
			t.Fatalf("want fatal, got %+v", r)
		}
	}
}

func TestReplay(t *testing.T) {
	rs := explore(t, 100, abba)
	var failing *Result
	for i := range rs {
		if rs[i].Outcome == "deadlock" {
			failing = &rs[i]
			break
		}
	}
	if failing == nil {
		t.Fatal("no deadlock found")
	}
	sch := &Schedule{Version: ScheduleVersion, Test: "abba", Seed: failing.Seed + 1000, Decisions: failing.Decisions}
	for i := 0; i < 5; i++ {
		r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, abba)
		if r.Outcome != failing.Outcome || r.Site != failing.Site || r.Diverged != "" {
			t.Fatalf("replay %d: got %s at %s (diverged %q), want %s at %s", i, r.Outcome, r.Site, r.Diverged, failing.Outcome, failing.Site)
		}
	}
	bad := *sch
	bad.Decisions = append([]Decision(nil), sch.Decisions...)
	k := len(bad.Decisions) - 1
	bad.Decisions[k].Site = "elsewhere.go:1"
	r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, &bad, abba)
	if !strings.Contains(r.Diverged, "decision ") || !strings.Contains(r.Diverged, "elsewhere.go:1") || !strings.Contains(r.Diverged, " is at ") {
		t.Fatalf("tampered schedule: diverged = %q", r.Diverged)
	}
}

// BenchmarkHandoff measures a decision that switches goroutines: two
// goroutines pass a token back and forth over unbuffered channels
// (go test -run '^$' -bench Handoff); ns/handoff is per decision.
func BenchmarkHandoff(b *testing.B) {
	n := b.N
	b.ResetTimer()
	r := RunFunc(Config{Seed: 1, MaxSteps: 4*n + 100}, 0, func() {
		ping, pong := make(chan int), make(chan int)
		Go(func() {
			for i := 0; i < n; i++ {
				Send(pong, Recv(ping))
			}
		})
		for i := 0; i < n; i++ {
			Send(ping, i)
			Recv(pong)
		}
	})
	if r.Outcome != "pass" {
		b.Fatalf("%+v", r.Message)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(r.Steps), "ns/handoff")
}

// Senders blocked on an unbuffered channel are received first in, first
// out, as the runtime queues them: the one that blocked first (here, a
// virtual second earlier) is received first on every schedule.
func TestPartnerFirstIn(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 8, Seed: 1}, func(t *testing.T) {
		ch := make(chan int)
		for _, d := range []int{3, 2, 1} {
			Go(func() {
				Sleep(time.Duration(d) * time.Second)
				Send(ch, d)
			})
		}
		Sleep(5 * time.Second)
		for want := 1; want <= 3; want++ {
			if got := Recv(ch); got != want {
				t.Errorf("received %d, want %d (the sender that blocked first)", got, want)
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// Receivers too: the one that blocked first gets the first value.
func TestPartnerFirstInReceivers(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 30, Seed: 1}, func(t *testing.T) {
		jobs, done := make(chan int), make(chan [2]int, 3)
		for _, d := range []int{3, 2, 1} {
			Go(func() {
				Sleep(time.Duration(d) * time.Second)
				Send(done, [2]int{d, Recv(jobs)})
			})
		}
		Sleep(5 * time.Second)
		for v := 1; v <= 3; v++ {
			Send(jobs, v)
		}
		for i := 0; i < 3; i++ {
			if r := Recv(done); r[0] != r[1] {
				t.Errorf("the receiver that blocked %d. got value %d", r[0], r[1])
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// TestSelectDefaultLateReceiver: a receiver parked at its receive's
// scheduling point may not have reached the receive yet, so a select's
// default is a choice too; one that has waited since an earlier virtual time
// is in the channel's queue, and the send is taken.
func TestSelectDefaultLateReceiver(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		picked := map[string]int{}
		rs := explore(t, 60, func(t *testing.T) {
			c := make(chan int)
			Go(func() {
				if sleep {
					Sleep(time.Second)
				}
				k := Select(true, SendCase(c))
				select {
				case PickSend(k, 0, c) <- 5:
					picked["send"]++
				default:
					picked["default"]++
					Send(c, 6)
				}
			})
			if v := Recv(c); v != 5 && v != 6 {
				t.Errorf("got %d", v)
			}
		})
		mustPass(t, rs)
		if picked["send"] == 0 || (picked["default"] == 0) != sleep {
			t.Fatalf("sleep %v: picked %v", sleep, picked)
		}
	}
}

// TestCondSignalReplays: a Signal records the goroutine it woke; a replay
// wakes that one. (It read the id as an index among the waiters: a
// replay then woke another waiter, or none, and left the schedule, so a
// deadlock of Signal instead of Broadcast did not replay alone.)
func TestCondSignalReplays(t *testing.T) {
	body := func(t *testing.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := 0
		var wg sync.WaitGroup
		for range 3 {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&mu)
				ready++
				CondWait(c)
				Unlock(&mu)
			})
		}
		for {
			Lock(&mu)
			if ready == 3 {
				break
			}
			Unlock(&mu)
			Gosched()
		}
		for range 3 {
			CondSignal(c)
		}
		Unlock(&mu)
		WaitGroupWait(&wg)
	}
	rs := explore(t, 20, body)
	mustPass(t, rs)
	for _, r := range rs {
		again := RunSchedules(t, Config{Replay: &Schedule{Seed: r.Seed, Decisions: r.Decisions}, StepTimeout: 5 * time.Second}, body, nil)
		if len(again) != 1 || again[0].Diverged != "" || again[0].Outcome != "pass" {
			t.Fatalf("schedule %d replayed: %+v", r.Index, again)
		}
	}
}
