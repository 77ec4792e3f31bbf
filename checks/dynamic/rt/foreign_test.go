package rt

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A channel fed by a goroutine outside control wins over an hour-long
// timer: the scheduler sees it ready before the clock moves.
func TestForeignSendBeforeTimer(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 200, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ch := make(chan int)
		go func() { ch <- 7 }() // not controlled
		hour := After(time.Hour)
		k := Select(false, RecvCase(ch), RecvCase(hour))
		select {
		case v := <-PickRecv(k, 0, ch):
			if v != 7 {
				t.Errorf("got %d", v)
			}
		case <-PickRecv(k, 1, hour):
			t.Errorf("the hour passed first")
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// The standard library's context closes Done inside cancel: a select with
// default sees it closed, and a pre-closed Done as well.
func TestContextDoneSeen(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 50, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		Go(cancel)
		hour := After(time.Hour)
		k := Select(false, RecvCase(ctx.Done()), RecvCase(hour))
		if k != 0 {
			t.Errorf("case %d, want ctx.Done()", k)
		}
		k = Select(true, RecvCase(ctx.Done()))
		if k != 0 {
			t.Errorf("select with default took %d", k)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// One clock: Now, Since and context deadlines run on the virtual clock,
// and contexts derived from a virtual deadline say why they ended.
func TestOneClock(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		start := Now()
		Sleep(3 * time.Second)
		if d := Since(start); !nearly(d, 3*time.Second) {
			t.Errorf("Since = %v after sleeping 3s", d)
		}
		ctx, cancel := WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if dl, ok := ctx.Deadline(); !ok || !nearly(dl.Sub(Now()), time.Minute) {
			t.Errorf("deadline %v, %v", dl, ok)
		}
		sub, cancelSub := context.WithCancel(ctx)
		defer cancelSub()
		hour := After(time.Hour)
		k := Select(false, RecvCase(sub.Done()), RecvCase(hour))
		if k != 0 || !errors.Is(sub.Err(), context.DeadlineExceeded) || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("case %d, errs %v, %v", k, sub.Err(), ctx.Err())
		}
		if d := Since(start); !nearly(d, 3*time.Second+time.Minute) {
			t.Errorf("Since = %v at the deadline", d)
		}
		// A cancelled context stops its virtual timer.
		c2, cancel2 := WithTimeout(context.Background(), time.Second)
		cancel2()
		if !errors.Is(c2.Err(), context.Canceled) {
			t.Errorf("err %v", c2.Err())
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// A goroutine blocked outside control (a channel operation the rewriter
// did not see) does not freeze the others: the goroutine it waits for runs.
func TestBlockedOutside(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ch := make(chan int)
		done := make(chan struct{})
		Go(func() {
			<-ch // not rewritten: blocks outside control
			Close(done)
		})
		Go(func() { Sleep(time.Millisecond); ch <- 1 })
		Recv(done)
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// The same for a close outside control.
func TestForeignCloseBeforeTimer(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 200, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ch := make(chan int)
		go func() { close(ch) }() // not controlled
		hour := After(time.Hour)
		if k := Select(false, RecvCase(ch), RecvCase(hour)); k != 0 {
			t.Errorf("the hour passed first")
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// A select send to a parked receiver is completed by a forwarder: what the
// sender does next (closing the channel) is ordered after the send.
func TestSelectSendThenClose(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 30, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		tasks := make(chan int)
		done := make(chan struct{})
		Go(func() {
			for range Range(tasks) {
			}
			Close(done)
		})
		k := Select(true, SendCase(tasks))
		select {
		case PickSend(k, 0, tasks) <- 1:
		default:
		}
		Close(tasks)
		Recv(done)
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// eventually plays testify's assert.Eventually: it runs cond on a
// goroutine of its own (not controlled) every tick until it holds, while
// the caller waits outside control.
func eventually(cond func() bool, waitFor, tick time.Duration) bool {
	res := make(chan bool, 1)
	go func() {
		deadline := time.Now().Add(waitFor)
		for time.Now().Before(deadline) {
			if cond() {
				res <- true
				return
			}
			time.Sleep(tick)
		}
		res <- false
	}()
	return <-res
}

// A controlled goroutine sends on an unbuffered channel whose only
// receiver polls it with a select with default from a goroutine outside
// control (ttlcache's tests with testify's Eventually): the send is
// performed for real, where the poller can find it.
func TestSendToForeignPoller(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, StepTimeout: 30 * time.Second}, func(t *testing.T) {
		ch := make(chan struct{})
		got := make(chan int)
		Go(func() { Send(ch, struct{}{}) })
		Go(func() {
			k := Select(false, RecvCase(got))
			//lint:ignore S1000 the rewriter's form of a one-case select
			select {
			case <-PickRecv(k, 0, got):
			}
		})
		if !eventually(func() bool {
			select {
			case <-ch:
				return true
			default:
				return false
			}
		}, 20*time.Second, time.Millisecond) {
			t.Errorf("the poller never saw the send")
		}
		if !eventually(func() bool {
			select {
			case got <- 1:
				return true
			default:
				return false
			}
		}, 20*time.Second, time.Millisecond) {
			t.Errorf("the poller never saw the select")
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// nearly: d is want, give or take the microsecond that clock reads move
// the virtual clock by (NowTick each), and a few wakes' lateness (wakeLate
// each) later.
func nearly(d, want time.Duration) bool {
	return d >= want-time.Microsecond && d <= want+time.Microsecond+4*wakeLate
}

// A controlled server replies, from a select with a send case, to a
// client outside control (testify's Eventually calling an API from a
// goroutine of its own): the receiver waits in the channel itself, so the
// send case is ready although no partner is parked in the shadow.
func TestSelectSendToForeignReceiver(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		req := make(chan chan int)
		quit := make(chan struct{})
		defer Close(quit)
		Go(func() {
			k := Select(false, RecvCase(req), RecvCase(quit))
			if k != 0 {
				<-PickRecv(k, 1, quit)
				return
			}
			reply := <-PickRecv(k, 0, req)
			switch k := Select(false, SendCase(reply), RecvCase(quit)); k {
			case 0:
				PickSend(k, 0, reply) <- 42
			case 1:
				<-PickRecv(k, 1, quit)
			}
		})
		res := make(chan int)
		go func() { // not controlled
			r := make(chan int)
			req <- r
			res <- <-r
		}()
		if v := <-res; v != 42 {
			t.Errorf("got %d", v)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s %q %q", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// The check at start-up found the channel's wait queues.
func TestQueuesFound(t *testing.T) {
	if !queuesOK {
		t.Fatal("the runtime's channel wait queues were not found where hchanQueues expects them")
	}
}

// While the test goroutine waits outside control for a poller on the real
// clock whose condition keeps calling a controlled server, the virtual
// clock moves with the real time waited: a 100ms timer fires while the
// poller polls, as it would for real or in a synctest bubble. The poller
// gives up after 20s (a loaded machine polls seldom); without the clock
// moving it would never see the timer fire.
func TestClockMovesWhilePolledOutside(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: time.Minute}, func(t *testing.T) {
		reqs := make(chan chan int)
		quit := make(chan struct{})
		defer Close(quit)
		Go(func() {
			for {
				k := Select(false, RecvCase(reqs), RecvCase(quit))
				if k == 1 {
					<-PickRecv(k, 1, quit)
					return
				}
				out := <-PickRecv(k, 0, reqs)
				switch k := Select(false, SendCase(out), RecvCase(quit)); k {
				case 0:
					PickSend(k, 0, out) <- 1
				case 1:
					<-PickRecv(k, 1, quit)
					return
				}
			}
		})
		fired := make(chan struct{})
		AfterFunc(100*time.Millisecond, func() { Close(fired) })
		if !eventually(func() bool {
			out := make(chan int)
			reqs <- out
			<-out
			select {
			case <-fired:
				return true
			default:
				return false
			}
		}, 20*time.Second, 10*time.Millisecond) {
			t.Error("the 100ms timer did not fire while the poller polled for 20s")
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s %q %q", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// TestForeignSleeperHoldsClock (go-pkgz/pool's TestPool_TimingUnderLoad):
// workers a dependency started (errgroup, not rewritten) sleep 10ms for
// real in rewritten code and then report on a channel, while the test
// waits for them with a 2s timeout on the virtual clock. The clock must
// not jump past the sleepers' wake: the timeout fired on 9 of 10
// schedules, where plain go test passes.
func TestForeignSleeperHoldsClock(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 20, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		const workers = 3
		done := make(chan int, workers)
		for i := 0; i < workers; i++ {
			go func() { // not controlled
				Sleep(10 * time.Millisecond)
				Send(done, i)
			}()
		}
		for i := 0; i < workers; i++ {
			after := After(2 * time.Second)
			k := Select(false, RecvCase(done), RecvCase(after))
			select {
			case <-PickRecv(k, 0, done):
			case <-PickRecv(k, 1, after):
				t.Errorf("the 2s timeout fired before worker %d of %d reported", i+1, workers)
				return
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// TestForeignDoneBeforePaceLook: a goroutine outside control that fed a
// channel and ended between settle's probe and paceForeign's first look
// (beforePaceLook feeds it there, as a worker does whose scheduler is
// descheduled on a loaded machine for longer than the worker's sleep) is
// seen before the clock jumps: the 2s timeout must not fire while the
// value waits in the channel (TestForeignSleeperHoldsClock failed so at
// load 10).
func TestForeignDoneBeforePaceLook(t *testing.T) {
	var feed atomic.Pointer[chan int]
	beforePaceLook = func() {
		if p := feed.Swap(nil); p != nil {
			*p <- 1
		}
	}
	t.Cleanup(func() { beforePaceLook = nil })
	rs := RunSchedules(t, Config{Schedules: 20, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		done := make(chan int, 1)
		feed.Store(&done)
		after := After(2 * time.Second)
		k := Select(false, RecvCase(done), RecvCase(after))
		select {
		case <-PickRecv(k, 0, done):
		case <-PickRecv(k, 1, after):
			t.Error("the 2s timeout fired while a value sent outside control waited in the channel")
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// TestOutsideTicksEndWhenBlocked (testify's Eventually, whose time
// operations the rewriter puts on the virtual clock while its loop runs
// outside control): the test waits outside control for a goroutine a
// dependency started, which after each tick of a virtual ticker computes
// a moment and then waits for the next. At the first look after a tick
// it is still computing; once it has blocked again only the clock can
// wake it, and a second look moves the clock (virtualLooks) rather than
// wait the tick's interval of real time: 5 s of Eventually's 10 ms ticks
// took 2.6 s a schedule, most schedules of a budget's share.
func TestOutsideTicksEndWhenBlocked(t *testing.T) {
	saved := RealClockModules
	RealClockModules = nil // this package's code counts as code on the virtual clock
	t.Cleanup(func() { RealClockModules = saved })
	const ticks = 20
	looks := virtualLooks
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		tk := NewTicker(100 * time.Millisecond)
		done := make(chan struct{})
		go func() { // not controlled
			for i := 0; i < ticks; i++ {
				<-tk.C
				for j := 0; j < 2000; j++ {
					runtime.Gosched()
				}
			}
			close(done)
		}()
		<-done // outside control
		TickerStop(tk)
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("%+v", rs)
	}
	// Whether a tick's first look finds the goroutine computing depends
	// on the machine; of twenty, some do.
	if virtualLooks == looks {
		t.Errorf("no wait of %d ticks ended at a second look: each waited its interval of real time", ticks)
	}
}

// TestArrivalBeforeOutsideLook: the test goroutine computes past the
// scheduler's first wait, then panics; it exits (an arrival) and then
// waits for the schedule's end on a channel, and the scheduler's look at
// the goroutines (beforeOutsideLook holds it until then) finds it blocked.
// That is an arrival, not a goroutine outside control: the schedule ends
// on the panic with no decision for the other goroutine, ready to send. Taken for one
// (rt's TestChanLenEitherOrder, 1 in 300 at load), the recording had a
// decision more than its replay, which diverged.
func TestArrivalBeforeOutsideLook(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		// The look needs the scheduler's goroutine to run beside the
		// computing test goroutine (go test -cpu 1: it never does in
		// the 20ms, and the schedule ends on the panic unlooked).
		t.Skip("needs two Ps: the scheduler looks while the test goroutine computes")
	}
	var once atomic.Bool
	beforeOutsideLook = func(g *gstate) { waitArrivedBlocked(g, &once) }
	t.Cleanup(func() { beforeOutsideLook = nil })
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ready, out := make(chan int), make(chan int, 1)
		Go(func() {
			Recv(ready)
			Send(out, 1)
		})
		Gosched() // the sender parks at its Recv
		Close(ready)
		for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); {
		}
		panic("boom")
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "panic" {
		t.Fatalf("want the panic, got %+v", rs)
	}
	if !once.Load() {
		t.Fatal("the scheduler never looked whether the test goroutine was outside control")
	}
	ds := rs[0].Decisions
	if last := ds[len(ds)-1]; last.G != 0 || last.Op != "close" {
		t.Errorf("the last decision is %+v, want the test goroutine's close: another goroutine ran after the test goroutine had exited", last)
	}
}

// waitArrivedBlocked, the first time it runs for the test goroutine, waits
// until it has arrived and then until it blocks.
//
//go:norace
func waitArrivedBlocked(g *gstate, once *atomic.Bool) {
	if g.id != 0 || once.Swap(true) {
		return
	}
	for i := 0; i < 2000 && g.arrSeq == g.arrSeen; i++ {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // it waits for the schedule's end meanwhile
}
