package rt

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/internal/testctx"
)

// TestMainChild is the generated driver test of a pretend package, run in a
// subprocess by TestMainProtocol.
func TestMainChild(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	Main(t, map[string]func(*testing.T){
		"TestABBA":           abba,
		"TestPollingTimeout": pollingTimeout,
		"TestHang": func(t *testing.T) {
			// A channel fed by nobody the scheduler can see, received
			// without instrumentation: only the watchdog can end it.
			ch := make(chan int)
			Gosched()
			<-ch
		},
		"TestRealWait": func(t *testing.T) {
			// A wait on the real clock outside control, as testify's
			// Eventually does between its polls.
			Gosched()
			time.Sleep(800 * time.Millisecond)
			Gosched()
		},
		"TestTimeoutFails":    func(t *testing.T) { awaitDrain(t, true) },
		"TestOwnStale":        func(t *testing.T) { idleCloser(t, false) },
		"TestOwnStaleDrained": func(t *testing.T) { idleCloser(t, true) },
		"TestFarTickFails":    farTest(true),
		"TestHangTimeout":     func(t *testing.T) { replyServer(t, 0) },
		"TestHangTimeoutOK":   func(t *testing.T) { replyServer(t, 1) },
		"TestSleepFlake":      sleepFlake,
		"TestResetOverlap":    resetBatcher(false),
		"TestResetLocked":     resetBatcher(true),
		"TestFreshSelect":     freshSelect,
		"TestLateConsumer":    lateConsumer,
		"TestSleepFlakeLeaks": func(t *testing.T) {
			// A goroutine the test never stops (a reaper), as well.
			Go(func() { Recv(make(chan int)) })
			sleepFlake(t)
		},
		"TestClockCache":     clockCache,
		"TestHandlerGo":      handlerGo(false),
		"TestDaemonOutside":  daemonOutside,
		"TestClockCacheFail": clockCacheFail,
		"TestClockPace":      clockPace,
		"TestFailsAfterReturn": func(t *testing.T) {
			// watermill's TestRouter_wait_for_handlers_before_shutdown:
			// a handler that never returns, and a Close that gives up
			// on it after its timeout and fails the test through a
			// testing.TB (testify's assert.NoError), long after the
			// test returned.
			Go(func() { Recv(make(chan int)) })
			Go(func() {
				Sleep(30 * time.Second)
				var tb testing.TB = t
				tb.Errorf("router close timeout")
			})
		},
		"TestFailsBeforeReturn": func(t *testing.T) {
			done := make(chan int)
			Go(func() {
				var tb testing.TB = t
				tb.Errorf("failed in time")
				Send(done, 1)
			})
			Recv(done)
		},
		"TestTimeoutFailsLate": func(t *testing.T) {
			// A worker with its own timeout fails the test after the
			// test returned (gocron's StopLongRunningJobs).
			results := make(chan int, 1)
			Go(func() {
				tm := NewTimer(50 * time.Millisecond)
				k := Select(false, RecvCase(results), RecvCase(tm.C))
				select {
				case <-PickRecv(k, 0, results):
				case <-PickRecv(k, 1, tm.C):
					Late(t).Fatal("job was not canceled")
				}
			})
			Go(func() { Send(results, 7) })
		},
		"TestPanicWhileBlocked": func(t *testing.T) {
			// The test waits outside control (a receive that is not
			// rewritten, fed by nobody) while a worker panics.
			ch := make(chan int)
			Go(func() {
				Gosched()
				panic("boom")
			})
			<-ch
		},
		"TestUnwoundPartner": func(t *testing.T) {
			// puddle's TestReleaseAfterAcquire: the test waits outside
			// control (a receive that is not rewritten, as
			// x/sync/semaphore's Acquire) for a worker that frees it
			// after its work, longer than the step bound: the bound ends
			// the schedule and unwinds the worker.
			sem := make(chan int)
			var mu sync.Mutex
			Go(func() {
				for i := 0; i < 1000; i++ {
					Lock(&mu)
					Unlock(&mu)
				}
				sem <- 1
			})
			<-sem
		},
		"TestWaitForeignWork": func(t *testing.T) {
			// The test waits outside control (a send on a full semaphore
			// that is not rewritten, as errgroup's SetLimit) for a worker
			// outside control that computes until the scheduler has twice
			// seen the step limit run out while it did, then frees it.
			sem := make(chan int, 1)
			sem <- 1
			go func() {
				for foreignWaitsSeen() < 2 {
					runtime.Gosched() // computing: running or runnable
				}
				<-sem
			}()
			Gosched()
			sem <- 2
		},
		"TestWaitChildProcess": func(t *testing.T) {
			// The test waits for a child process (os/exec's Run: a
			// system call) that reads its standard input to the end; a
			// goroutine outside control closes it once the scheduler has
			// twice seen the step limit run out during the wait.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				for childWaitsSeen() < 2 {
					time.Sleep(time.Millisecond)
				}
				w.Close()
			}()
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildReadsStdin$", "-test.count=1")
			cmd.Env = append(os.Environ(), "RT_MAIN_CHILD=", "RT_STDIN_CHILD=1")
			cmd.Stdin = r
			Gosched()
			if err := cmd.Run(); err != nil {
				t.Errorf("child: %v", err)
			}
			r.Close()
		},
		"TestParentFailNow":         parentFailNow,
		"TestGrandparentFailNow":    grandparentFailNow,
		"TestSubtestGoexit":         subtestGoexit,
		"TestOwnFailNow":            ownFailNow,
		"TestParallelParentFailNow": parallelParentFailNow,
		"TestParallelOwnFailNow":    parallelOwnFailNow,
		"TestFail": func(t *testing.T) {
			Go(func() {})
			t.Errorf("boom")
		},
		"TestSub": func(t *testing.T) {
			// Parallel subtests run after the test function returned, and
			// the test's cleanups after them, as in go test.
			var mu sync.Mutex
			n := 0
			Cleanup(t, func() {
				Lock(&mu)
				if n != 4 {
					t.Errorf("n = %d at cleanup, want 4: the parallel subtests did not all run first", n)
				}
				Unlock(&mu)
			})
			for _, name := range []string{"a", "b"} {
				Run(t, name, func(t *testing.T) {
					Parallel(t)
					var wg sync.WaitGroup
					WaitGroupAdd(&wg, 1)
					Go(func() { Lock(&mu); n++; Unlock(&mu); WaitGroupDone(&wg) })
					Lock(&mu)
					n++
					Unlock(&mu)
					WaitGroupWait(&wg)
				})
			}
			Sleep(time.Second)
			Lock(&mu)
			if n != 0 {
				t.Errorf("n = %d before the test function returned, want 0: a parallel subtest ran early", n)
			}
			Unlock(&mu)
		},
	})
}

func runMain(t *testing.T, cfg Config) ([]Result, string, int) {
	dir := t.TempDir()
	cfg.Results = filepath.Join(dir, "results.jsonl")
	data, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "config.json")
	os.WriteFile(path, data, 0o644)
	// A hang guard only (a child that never exits): the test binary's own
	// deadline, less a margin to report it, not a wall-clock bound of its own.
	cmd := exec.CommandContext(testctx.New(t), os.Args[0], "-test.run=^TestMainChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "RT_MAIN_CHILD=1", EnvConfig+"="+path)
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	var rs []Result
	if f, err := os.Open(cfg.Results); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var r Result
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("bad result line %q: %v", sc.Text(), err)
			}
			rs = append(rs, r)
		}
		f.Close()
	}
	return rs, string(out), code
}

func TestMainProtocol(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestABBA", Seed: 3, First: 5, Schedules: 200, StopOnFail: true, StepTimeout: 5 * time.Second})
	if len(rs) == 0 || rs[len(rs)-1].Outcome != "deadlock" {
		t.Fatalf("want schedules ending in a deadlock, got %d results\n%s", len(rs), out)
	}
	last := rs[len(rs)-1]
	if rs[0].Index != 5 || rs[0].Seed != 8 || !strings.Contains(out, MarkerStart+"5\n") || !strings.Contains(out, MarkerEnd+itoa(last.Index)+"\n") {
		t.Fatalf("indexes/markers wrong: first %+v\n%s", rs[0], out)
	}
	// Replay the failing schedule in a fresh process.
	sch := &Schedule{Version: ScheduleVersion, Test: "TestABBA", Seed: last.Seed, Decisions: last.Decisions}
	rr, out, _ := runMain(t, Config{Test: "TestABBA", Replay: sch, StepTimeout: 5 * time.Second})
	if len(rr) != 1 || rr[0].Outcome != "deadlock" || rr[0].Site != last.Site || rr[0].Diverged != "" {
		t.Fatalf("replay: %+v\n%s", rr, out)
	}

	rs, out, _ = runMain(t, Config{Test: "TestSub", Seed: 1, Schedules: 20, StepTimeout: 5 * time.Second})
	if len(rs) != 20 {
		t.Fatalf("TestSub: %d results\n%s", len(rs), out)
	}
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("TestSub: %+v\n%s", r, out)
		}
	}
}

// TestStopOnPass: a process told to stop at its first pass runs the
// failing schedules before it and that pass, no more (seed 3: a
// deadlock, then a pass).
func TestStopOnPass(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestABBA", Seed: 3, Schedules: 200, StopOnPass: true, StepTimeout: 5 * time.Second})
	if len(rs) < 2 || len(rs) == 200 || rs[len(rs)-1].Outcome != "pass" {
		t.Fatalf("want schedules ending at the first pass, got %d results\n%s", len(rs), out)
	}
	for _, r := range rs[:len(rs)-1] {
		if r.Outcome == "pass" {
			t.Fatalf("schedule %d passed and the process went on (%d results)", r.Index, len(rs))
		}
	}
}

func TestTrace(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestABBA", Seed: 1, Schedules: 1, Trace: true, StepTimeout: 5 * time.Second})
	if len(rs) != 1 {
		t.Fatalf("%s", out)
	}
	var traced []Decision
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, MarkerDecision); ok {
			var d Decision
			if err := json.Unmarshal([]byte(rest[strings.IndexByte(rest, ' ')+1:]), &d); err != nil {
				t.Fatalf("trace line %q: %v", line, err)
			}
			traced = append(traced, d)
		}
	}
	want, _ := json.Marshal(rs[0].Decisions)
	got, _ := json.Marshal(traced)
	if string(want) != string(got) {
		t.Fatalf("traced %s\nrecorded %s", got, want)
	}
}

func TestMainTestFailure(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestFail", Seed: 1, Schedules: 2, StepTimeout: 5 * time.Second})
	if len(rs) != 2 || rs[0].Outcome != "test-failure" || !strings.Contains(rs[0].Site, "main_test.go") {
		t.Fatalf("%+v\n%s", rs, out)
	}
}

func TestWatchdog(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, code := runMain(t, Config{Test: "TestHang", Seed: 1, Schedules: 3, StepTimeout: 300 * time.Millisecond})
	if code != ExitWatchdog || !strings.Contains(out, MarkerWatchdog) || len(rs) != 1 ||
		rs[0].Outcome != "fatal" || !strings.HasPrefix(rs[0].Message, MarkerWatchdog) || strings.Contains(out, MarkerEnd+"0\n") || !strings.Contains(out, MarkerStart+"0\n") {
		t.Fatalf("exit %d, results %+v\n%s", code, rs, out)
	}
}

// A schedule started just before Deadline may run until Until: a wait on
// the real clock outside control is not called stuck because Deadline
// has passed.
func TestRunUntil(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	now := time.Now()
	rs, out, _ := runMain(t, Config{Test: "TestRealWait", Seed: 1, Deadline: now.Add(-time.Second), Until: now.Add(time.Minute), StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("%+v\n%s", rs, out)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A batch runs each named test once, in order, the j-th as schedule
// First+j, each as its own subtest; a failing one does not stop the rest.
func TestMainBatch(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Batch: []string{"TestSub", "TestFail", "TestABBA"}, Strategy: PlainStrategy, Seed: 1, First: 10, Schedules: 1, StepTimeout: 5 * time.Second})
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3\n%s", len(rs), out)
	}
	for j, want := range []string{"pass", "test-failure", "pass"} {
		if rs[j].Index != 10+j || rs[j].Outcome != want || !strings.Contains(out, MarkerStart+itoa(10+j)+"\n") {
			t.Fatalf("result %d: %+v, want index %d, %s\n%s", j, rs[j], 10+j, want, out)
		}
	}
	rs, out, _ = runMain(t, Config{Batch: []string{"TestFail", "TestSub"}, Seed: 1, First: 4, Schedules: 3, StepTimeout: 5 * time.Second})
	if len(rs) != 6 {
		t.Fatalf("%d results, want 6 (3 schedules of each test)\n%s", len(rs), out)
	}
	for j, r := range rs {
		if want := map[bool]string{true: "test-failure", false: "pass"}[j < 3]; r.Index != 4+j || r.Seed != int64(5+j) || r.Outcome != want {
			t.Fatalf("result %d: %+v, want index %d, %s\n%s", j, r, 4+j, want, out)
		}
	}
	if _, out, _ := runMain(t, Config{Batch: []string{"TestSub", "TestNone"}, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}); !strings.Contains(out, `no test "TestNone"`) {
		t.Fatalf("an unknown test in a batch: %s", out)
	}
}

// TestPanicWhileTestBlocked: a worker panics while the test's goroutine
// waits outside control for something nobody will do. The schedule ends
// on the panic and leaves the test's goroutine behind (abandon), which
// never returns to end the test: the process hung until the driver killed
// it at its deadline, and the panic was lost as a schedule stopped
// unfinished. It ends the process with the panic's result instead.
// TestWaitForeignWork (go-pkgz/pool's TestPoolPerf): the test's goroutine
// blocks outside control on errgroup's semaphore while the workers that
// will free it, started outside control, compute for longer than the
// step limit. That is progress, not a hang: it was reported as IL9006
// "hang: g1 did not reach a scheduling point within 5s" where plain go
// test passes. The worker computes until the scheduler has judged two step
// limits run out while it did (foreignWorkWaits), however long the machine
// takes: without the rule the first of them is the watchdog's exit.
func TestWaitForeignWork(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, code := runMain(t, Config{Test: "TestWaitForeignWork", Seed: 1, Schedules: 1, StepTimeout: time.Second})
	if len(rs) != 1 || rs[0].Outcome != "pass" || code != 0 {
		t.Fatalf("want a pass, got exit %d, %+v\n%s", code, rs, out)
	}
}

// TestWaitChildProcess (go.uber.org/atomic's TestNocmpIntegration, whose
// `go build` took 130 s at load 23): the test's goroutine waits in a
// system call for a child process that works longer than the step limit.
// That is progress, not a hang: it was reported as IL9006 "hang: g0 did
// not reach a scheduling point within 5s … (syscall …)" where plain go
// test passes. The child runs until the scheduler has judged two step
// limits run out during the wait (childWaits), however long the machine
// takes: without the rule the first of them is the watchdog's exit.
func TestWaitChildProcess(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" || os.Getenv("RT_STDIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, code := runMain(t, Config{Test: "TestWaitChildProcess", Seed: 1, Schedules: 1, StepTimeout: time.Second})
	if len(rs) != 1 || rs[0].Outcome != "pass" || code != 0 {
		t.Fatalf("want a pass, got exit %d, %+v\n%s", code, rs, out)
	}
}

// TestChildReadsStdin is TestWaitChildProcess's child: it reads its
// standard input to the end.
func TestChildReadsStdin(t *testing.T) {
	if os.Getenv("RT_STDIN_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	if _, err := io.ReadAll(os.Stdin); err != nil {
		t.Fatal(err)
	}
}

// childWaitsSeen reads childWaits, which the scheduler writes in norace
// code.
//
//go:norace
func childWaitsSeen() int { return childWaits }

// foreignWaitsSeen reads foreignWorkWaits, which the scheduler writes in
// norace code.
//
//go:norace
func foreignWaitsSeen() int { return foreignWorkWaits }

func TestPanicWhileTestBlocked(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, code := runMain(t, Config{Test: "TestPanicWhileBlocked", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "panic" || !strings.Contains(rs[0].Message, "boom") || code != ExitWatchdog {
		t.Fatalf("want the panic's result and exit %d, got exit %d, %+v\n%s", ExitWatchdog, code, rs, out)
	}
}

// TestUnwoundPartner: a schedule that the step bound ends while the
// test's goroutine waits outside control for a goroutine the end unwinds
// ends at once, inconclusive (not a finding), and so does its process:
// the next schedule runs in a fresh one. Before, the schedule's result
// was never written and the process hung until the driver's hard stop
// (puddle-stat's TestReleaseAfterAcquire: 49 s, 0 schedules). Counted:
// the bound is 100 steps, the worker's work 2000.
func TestUnwoundPartner(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, code := runMain(t, Config{Test: "TestUnwoundPartner", Seed: 1, Schedules: 3, MaxSteps: 100, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "pass" || !strings.HasPrefix(rs[0].Inconclusive, StepBoundPrefix) || !strings.HasSuffix(rs[0].Inconclusive, LostTestNote) || code != 0 {
		t.Fatalf("want one inconclusive result at the step bound and exit 0, got exit %d, %+v\n%s", code, rs, out)
	}
	if !strings.Contains(out, MarkerEnd+"0\n") || strings.Contains(out, MarkerStart+"1\n") {
		t.Errorf("want schedule 0 ended and no other started in this process:\n%s", out)
	}
}

// TestStopFile: once Config.StopFile exists, the process starts no
// further schedule (its first always runs); until then it runs them all.
func TestStopFile(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	stop := filepath.Join(t.TempDir(), "stop")
	rs, out, _ := runMain(t, Config{Test: "TestSub", Seed: 1, Schedules: 4, StopFile: stop, StepTimeout: 5 * time.Second})
	if len(rs) != 4 {
		t.Fatalf("no stop file: %d results, want 4\n%s", len(rs), out)
	}
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rs, out, _ = runMain(t, Config{Test: "TestSub", Seed: 1, Schedules: 4, StopFile: stop, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("stop file: %+v, want the first schedule only\n%s", rs, out)
	}
}
