package rt

import (
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// leftoverCfg runs n schedules of a small body in this process.
func leftoverCfg(n int) Config {
	return Config{Schedules: n, Seed: 1, StepTimeout: 5 * time.Second}
}

// A janitor on a ticker of its own schedule, started outside control and
// never stopped, is kept: 200 schedules run in one process, each
// beside the ones before.
func TestLeftoverKeptJanitor(t *testing.T) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	dumps := admitDumps
	rs := RunSchedules(t, leftoverCfg(200), func(t *testing.T) {
		tick := make(chan time.Time) // the schedule's own ticker
		var mu sync.Mutex
		n := 0
		go func() { // outside control: the scheduler never sees it
			for {
				select {
				case <-tick:
					mu.Lock()
					n++
					mu.Unlock()
				case <-stop:
					return
				}
			}
		}()
		done := make(chan struct{})
		Go(func() {
			Lock(&mu)
			n++
			Unlock(&mu)
			Close(done)
		})
		Recv(done)
	}, nil)
	if len(rs) != 200 {
		t.Fatalf("%d schedules ran in one process, want 200", len(rs))
	}
	for i, r := range rs {
		if r.Outcome != "pass" || r.Kept != i {
			t.Fatalf("schedule %d: %s %q, kept %d; want a pass beside %d", i, r.Outcome, r.Message, r.Kept, i)
		}
	}
	// The goroutine profile decides the checks between, but the first
	// and every auditEvery-th (and some where goroutines were still
	// runnable: a loaded machine).
	if n := admitDumps - dumps; n > 100 {
		t.Errorf("admit read %d dumps for 199 checks, want at most 100", n)
	}
}

// A kept leftover that a later schedule wakes and that ends, replaced by
// a new one at the same stack, looks the same in a goroutine profile: the
// dump every auditEvery-th check tells them apart and the process ends.
func TestLeftoverReplacedSeenByAudit(t *testing.T) {
	stop, wake := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop) })
	rs := RunSchedules(t, leftoverCfg(4*auditEvery), func(t *testing.T) {
		select {
		case wake <- struct{}{}: // the last schedule's leftover ends
		default:
		}
		go func() {
			select {
			case <-wake:
			case <-stop:
			}
		}()
	}, nil)
	if len(rs) > auditEvery+2 {
		t.Errorf("%d schedules ran in one process, want at most %d", len(rs), auditEvery+2)
	}
}

// parkedAwayPCs takes a goroutine parked in a channel operation of the
// program's frames, as parkedAway does, and no other.
func TestParkedAwayPCs(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	c := sync.NewCond(&sync.Mutex{})
	stop, full := make(chan struct{}), make(chan struct{})
	var gone sync.WaitGroup
	cases := []struct {
		name string
		want bool
		run  func()
	}{
		{"receive", true, func() { <-stop }},
		{"select", true, func() {
			select {
			case <-stop:
			case full <- struct{}{}: // nobody receives
			}
		}},
		{"lock", false, func() {
			mu.Lock() // blocks: the test holds it
			defer mu.Unlock()
		}},
		{"cond", false, func() { c.L.Lock(); c.Wait(); c.L.Unlock() }},
		{"sleep", false, func() { sleepUntil(stop) }},
	}
	for _, cs := range cases {
		gone.Add(1)
		go parkedAwayProbe(cs.name, cs.run, &gone)
	}
	defer func() {
		close(stop)
		mu.Unlock()
		for done := false; !done; {
			c.Broadcast()
			ch := make(chan struct{})
			go func() { gone.Wait(); close(ch) }()
			select {
			case <-ch:
				done = true
			case <-time.After(time.Millisecond):
			}
		}
	}()
	// Counted, not timed: each is where it waits once the text dump says so.
	for i := 0; ; i++ {
		k := newKeeper()
		seen := map[string]bool{}
		for _, r := range profileRecords() {
			name := probeName(r.Stack())
			if name == "" {
				continue
			}
			got := parkedAwayPCs(r.Stack())
			for _, cs := range cases {
				if cs.name == name && got == cs.want {
					seen[name] = true
				}
			}
		}
		if len(seen) == len(cases) {
			return
		}
		if i == 1000 {
			t.Fatalf("classified right: %v of %d cases\n%s", seen, len(cases), k.dump())
		}
		runtime.Gosched()
	}
}

// parkedAwayProbe runs f on a goroutine of its own, which probeName finds.
func parkedAwayProbe(name string, f func(), gone *sync.WaitGroup) {
	defer gone.Done()
	probeNames.Store(probeFunc(f), name)
	f()
}

var probeNames sync.Map // function name of a probe's f: its case

func probeFunc(f func()) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// probeName is the case of a stack with a probe's f in it.
func probeName(pcs []uintptr) string {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if v, ok := probeNames.Load(f.Function); ok {
			return v.(string)
		}
		if !more {
			return ""
		}
	}
}

func profileRecords() []runtime.StackRecord {
	recs := make([]runtime.StackRecord, runtime.NumGoroutine()+64)
	n, ok := runtime.GoroutineProfile(recs)
	if !ok {
		return profileRecords()
	}
	return recs[:n]
}

// A leftover that holds one of the program's locks (taken through the
// rewritten calls outside control), one that runs (a real sleep in a
// loop) and one a later schedule wakes all stop the process: the driver
// goes on in a fresh one.
func TestLeftoverInterferes(t *testing.T) {
	var held sync.Mutex
	wake := make(chan struct{}) // package-level in a real program
	cases := []struct {
		name  string
		want  int // schedules in the process
		start func(stop chan struct{}, gone *sync.WaitGroup)
	}{
		{"holds a lock", 1, func(stop chan struct{}, gone *sync.WaitGroup) {
			gone.Add(1)
			go func() {
				defer gone.Done()
				Lock(&held)
				<-stop
				Unlock(&held)
			}()
			// The schedule ends once it holds the lock: on a loaded
			// machine it might not have started yet.
			for held.TryLock() {
				held.Unlock()
				runtime.Gosched()
			}
		}},
		{"runs", 1, func(stop chan struct{}, gone *sync.WaitGroup) {
			gone.Add(1)
			go func() {
				defer gone.Done()
				sleepUntil(stop)
			}()
		}},
		// The second schedule wakes the first one's: no third beside it.
		{"woken by a later schedule", 2, func(stop chan struct{}, gone *sync.WaitGroup) {
			select {
			case wake <- struct{}{}:
			default:
				gone.Add(1)
				go func() {
					defer gone.Done()
					<-wake
					<-stop
				}()
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stop := make(chan struct{})
			var gone sync.WaitGroup
			rs := RunSchedules(t, leftoverCfg(5), func(t *testing.T) { c.start(stop, &gone) }, nil)
			close(stop)
			gone.Wait()
			if len(rs) != c.want {
				t.Errorf("%d schedules ran in one process, want %d", len(rs), c.want)
			}
		})
	}
}

// A goroutine count at the baseline does not keep the process when a lock
// is held outside control (under load a baseline goroutine ended while
// the leftover held its lock, and the next schedule ran beside it).
func TestSettleLockHeldAtBaseline(t *testing.T) {
	atomic.AddInt64(&heldOutside, 1)
	defer atomic.AddInt64(&heldOutside, -1)
	k := newKeeper()
	k.baseline = runtime.NumGoroutine() + 1
	if _, ok := k.settle(); ok {
		t.Errorf("settle kept the process with a lock held outside control")
	}
}

// A goroutine of the baseline still running when it was counted (on a
// loaded machine, the subtest before's, after its gone.Done) and ending
// later does not hide a leftover that runs: the count is back at the
// baseline, yet the next schedule may not run beside it.
// TestLeftoverInterferes/runs ran 2 schedules in one process so.
func TestSettleBaselineGoroutineEnding(t *testing.T) {
	var done atomic.Bool
	ended := make(chan struct{})
	go func() { // runs until told: never parked while newKeeper looks
		for !done.Load() {
			runtime.Gosched()
		}
		close(ended)
	}()
	k := newKeeper()
	if k.counted {
		t.Fatalf("newKeeper trusts counts with a goroutine of its baseline running")
	}
	done.Store(true)
	<-ended
	stop := startRunner(t)
	// Counted, not timed: the baseline's goroutine is gone once the count
	// is back at the baseline (go test's deadline bounds a hang).
	for runtime.NumGoroutine() > k.baseline {
		runtime.Gosched()
	}
	if _, ok := k.settle(); ok {
		t.Errorf("settle kept the process beside a leftover that runs, the count at the baseline")
	}
	stop()
}

// A parked goroutine of the baseline that a schedule wakes and that ends
// (the count goes below the baseline) makes every later settle read the
// dump: a leftover that runs, born later, brings the count back to the
// baseline only.
func TestSettleBaselineGoroutineWokenEnds(t *testing.T) {
	wake, ended := make(chan struct{}), make(chan struct{})
	go func() {
		<-wake
		close(ended)
	}()
	// Parked once it waits on wake: newKeeper yields until it is.
	k := newKeeper()
	if !k.counted {
		t.Skipf("a goroutine of the baseline still runs (%d goroutines)", k.baseline)
	}
	close(wake)
	<-ended
	for runtime.NumGoroutine() >= k.baseline {
		runtime.Gosched()
	}
	if _, ok := k.settle(); !ok {
		t.Fatalf("settle did not keep the process with nothing left")
	}
	stop := startRunner(t)
	if _, ok := k.settle(); ok {
		t.Errorf("settle kept the process beside a leftover that runs, the count at the baseline")
	}
	stop()
}

// startRunner starts a leftover that runs (a real sleep in a loop) and
// returns what stops it and waits until it has.
func startRunner(t *testing.T) func() {
	stop := make(chan struct{})
	var gone sync.WaitGroup
	gone.Add(1)
	go func() {
		defer gone.Done()
		sleepUntil(stop)
	}()
	return func() {
		close(stop)
		gone.Wait()
	}
}

// sleepUntil runs (a real sleep in a loop) until stop is closed.
func sleepUntil(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// os/signal's loop, in a system call for good, does not keep newKeeper
// from trusting counts. In a child process: the loop never ends, and
// other tests count the goroutines of theirs.
func TestKeeperCountsBesideSignalLoop(t *testing.T) {
	if os.Getenv("RT_SIGNAL_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKeeperCountsBesideSignalLoop$", "-test.count=1")
		cmd.Env = append(os.Environ(), "RT_SIGNAL_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the child: %v\n%s", err, out)
		}
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2)
	defer signal.Stop(c)
	if k := newKeeper(); !k.counted {
		t.Errorf("newKeeper does not trust counts beside os/signal's loop:\n%s", k.dump())
	}
}

// swapMu stands for a package's lock that a cron goroutine takes
// (VictoriaMetrics' summariesLock in summariesSwapCron).
var swapMu sync.Mutex

// A controlled goroutine that the schedule's end unwinds while it holds a
// lock (no deferred Unlock) leaves no goroutine behind but the lock held.
// The next schedule's Lock of it would block for real (a hang outside the
// scheduler's control, or a timeout firing meanwhile, told as the test's):
// that schedule ends inconclusive, and the process with it. (Locks left
// held that nobody takes again cost nothing: TestABBADeadlock's schedules
// all run in one process.)
func TestUnwoundWithLockHeldStopsProcess(t *testing.T) {
	swapMu = sync.Mutex{}
	defer func() { leftHeld, processEnds = nil, 0 }()
	cfg := leftoverCfg(3)
	cfg.StepTimeout = time.Second // the hang without the rule
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		Lock(&swapMu) // the test's own use of the lock
		Unlock(&swapMu)
		never := make(chan struct{})
		Go(func() {
			Lock(&swapMu)
			Recv(never) // parked with the lock held when the test returns
			Unlock(&swapMu)
		})
		Gosched()
	}, nil)
	if len(rs) != 2 {
		t.Fatalf("%d schedules ran in one process, want 2 (the second stopped at the lock)", len(rs))
	}
	if r := rs[1]; r.Outcome != "pass" || !strings.HasPrefix(r.Inconclusive, LeftHeldPrefix) {
		t.Errorf("schedule 1: %s %q (inconclusive %q), want inconclusive %q…", r.Outcome, r.Message, r.Inconclusive, LeftHeldPrefix)
	}
}

// trackerOnce and trackerCh: a package's tracker, a daemon a package-level
// Once starts that serves requests on a channel (nxadm/tail's inotify
// tracker); logOnce and logCh: a log queue's daemon, which nobody waits
// for.
var (
	trackerOnce sync.Once
	trackerCh   chan chan int
	logOnce     sync.Once
	logCh       chan string
)

func startTracker() {
	OnceDoPackage(&trackerOnce, func() {
		trackerCh = make(chan chan int)
		Go(func() {
			for {
				reply := Recv(trackerCh)
				Send(reply, 1)
			}
		})
	})
}

func askTracker() int {
	startTracker()
	reply := make(chan int)
	Send(trackerCh, reply)
	return Recv(reply)
}

func logToQueue(msg string) {
	OnceDoPackage(&logOnce, func() {
		logCh = make(chan string, 100)
		Go(func() {
			for {
				Recv(logCh)
			}
		})
	})
	Send(logCh, msg)
}

// A daemon started by a package-level Once is unwound with the schedule
// that started it, and its Once is done: a later schedule's request to it
// waits for ever, a deadlock that is not the code's. That schedule ends
// inconclusive, and the process with it (the next one starts the daemon
// again), also when the daemon was not at that channel when it was
// unwound (here, sending a reply nobody took). A test that does not use
// the daemon's channel, or that passes without it (a log queue), runs on
// in the process; a failure before the channel is met stays a failure.
func TestGoneDaemonStopsProcess(t *testing.T) {
	reset := func() {
		trackerOnce, trackerCh, logOnce, logCh = sync.Once{}, nil, sync.Once{}, nil
		daemonSends, daemonRecvs, processEnds = nil, nil, 0
	}
	reset()
	defer reset()
	first, logged := true, 0
	rs := RunSchedules(t, leftoverCfg(3), func(t *testing.T) {
		if first {
			first = false
			startTracker()
			Send(trackerCh, make(chan int)) // the daemon is left sending the reply
			return
		}
		if got := askTracker(); got != 1 {
			panic("tracker replied " + strconv.Itoa(got))
		}
	}, nil)
	if len(rs) != 2 || rs[0].Outcome != "pass" || rs[0].Inconclusive != "" {
		var got []string
		for _, r := range rs {
			got = append(got, r.Outcome+" "+r.Message+r.Inconclusive)
		}
		t.Fatalf("%d schedules ran in one process (%q), want 2: a pass, then one stopped at the tracker's channel", len(rs), got)
	}
	if r := rs[1]; r.Outcome != "pass" || !strings.HasPrefix(r.Inconclusive, DaemonGonePrefix) || !strings.Contains(r.Inconclusive, "leftover_test.go:") {
		t.Errorf("schedule 1: %s %q (inconclusive %q), want inconclusive %q… at the request", r.Outcome, r.Message, r.Inconclusive, DaemonGonePrefix)
	}

	for _, body := range []func(){
		func() { // not the daemon's channel
			ch := make(chan int, 1)
			Send(ch, 1)
			Recv(ch)
		},
		func() { // a gone daemon nobody waits for
			logToQueue("hello")
			for logCh != nil && ChanLen(logCh) > 0 && logged == 0 { // the first schedule's takes it
				Gosched()
			}
			logged++
		},
	} {
		processEnds = 0 // a fresh process, but for the channels noted
		rs = RunSchedules(t, leftoverCfg(3), func(t *testing.T) { body() }, nil)
		mustPass(t, rs)
		if len(rs) != 3 {
			t.Errorf("%d schedules ran in one process, want 3", len(rs))
		}
		for _, r := range rs {
			if r.Inconclusive != "" {
				t.Errorf("schedule %d inconclusive: %s", r.Index, r.Inconclusive)
			}
		}
	}

	// A failure that came first stays the code's, though the unwinding
	// that follows it comes to a gone daemon's channel (a deferred log).
	processEnds = 0
	rs = RunSchedules(t, leftoverCfg(2), func(t *testing.T) {
		defer Send(logCh, "bye")
		Recv(make(chan int))
	}, nil)
	if len(rs) != 2 || rs[0].Outcome != "deadlock" || rs[1].Outcome != "deadlock" {
		t.Errorf("%d schedules, first %s %q, want 2 deadlocks", len(rs), rs[0].Outcome, rs[0].Inconclusive)
	}
}
