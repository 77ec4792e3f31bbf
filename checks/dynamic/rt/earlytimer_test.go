package rt

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// awaitDrain is the drain idiom of Go before 1.23 after a select that may
// have taken the timer's value already: then the drain blocks for good.
// With fail set, the test also fails on its own timeout.
func awaitDrain(t *testing.T, fail bool) {
	results := make(chan int, 1)
	Go(func() { Send(results, 7) })
	tm := NewTimer(50 * time.Millisecond)
	k := Select(false, RecvCase(results), RecvCase(tm.C))
	select {
	case <-PickRecv(k, 0, results):
	case <-PickRecv(k, 1, tm.C):
		if fail {
			t.Fatal("timed out")
		}
	}
	if !TimerStop(tm) {
		Recv(tm.C)
	}
}

// TestEarlyTimer: the clock used to move only when no goroutine could
// run, so a timeout never beat a worker that could send: the drain that
// blocks for good when the timer's value was taken was never seen. A
// timer may fire before goroutines that could run (a loaded machine): the
// search tries that now and then, never on the unperturbed schedule, and
// a replay fires it where the schedule says. A test failing on its own
// timeout on such a schedule is not a failure of the code.
func TestEarlyTimer(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found *Result
	for _, r := range RunSchedules(t, cfg, func(t *testing.T) { awaitDrain(t, false) }, nil) {
		if r.Outcome == "deadlock" {
			found = &r
			break
		}
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if found == nil {
		t.Fatal("no schedule fired the timer before the worker sent: the drain's deadlock was not found")
	}
	early := false
	for _, d := range found.Decisions {
		early = early || d.Early
	}
	if !early {
		t.Errorf("the deadlock's decisions %+v say no early timer", found.Decisions)
	}
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, func(t *testing.T) { awaitDrain(t, false) }, nil)
	if len(rs) != 1 || rs[0].Outcome != "deadlock" || rs[0].Diverged != "" {
		t.Errorf("replay: %+v, want the deadlock as recorded", rs)
	}

	plain := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second}, func(t *testing.T) { awaitDrain(t, false) }, nil)
	if len(plain) != 1 || plain[0].Outcome != "pass" {
		t.Errorf("unperturbed: %+v, want a pass (no early timer)", plain)
	}

	// In a process of its own: the schedules' tests fail for real.
	rs, out, _ := runMain(t, Config{Test: "TestTimeoutFails", Strategy: "random", Seed: 1, Schedules: 100, StepTimeout: 10 * time.Second})
	timedOut := 0
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: the test's own timeout told as a failure: %s: %s", r.Index, r.Outcome, r.Message)
		}
		if strings.HasPrefix(r.Inconclusive, EarlyFailPrefix) {
			timedOut++
		}
	}
	if len(rs) != 100 || timedOut == 0 {
		t.Errorf("%d schedules, %d of them timed out early; want 100, some\n%s", len(rs), timedOut, out)
	}
}

// TestEarlyTimerLateFail: a worker that fails the test on its own timeout
// after the test returned panics as the testing package does ("Fail in
// goroutine after ... has completed"); after an early timer that is the
// test's own timeout too, not a crash of the code.
func TestEarlyTimerLateFail(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestTimeoutFailsLate", Strategy: "random", Seed: 1, Schedules: 200, StepTimeout: 10 * time.Second})
	timedOut := 0
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: the test's own timeout told as a failure: %s: %s", r.Index, r.Outcome, r.Message)
		}
		if strings.HasPrefix(r.Inconclusive, EarlyFailPrefix) {
			timedOut++
		}
	}
	if len(rs) != 200 || timedOut == 0 {
		t.Errorf("%d schedules, %d of them timed out early; want 200, some\n%s", len(rs), timedOut, out)
	}
}

type replyReq struct {
	key   string
	reply chan string
}

// replyServer: a server answers one request at a time on the request's
// reply channel (of capacity room); a caller gives up on its timeout.
// With room 0 a caller that timed out leaves the server blocked on its
// reply for good, and the next call hangs until its hour-long timeout.
func replyServer(t *testing.T, room int) {
	reqs := make(chan replyReq)
	Go(func() {
		for r := range Range(reqs) {
			Send(r.reply, r.key+"!")
		}
	})
	get := func(key string, d time.Duration) bool {
		r := replyReq{key, make(chan string, room)}
		tm := After(d)
		k := Select(false, SendCase(reqs), RecvCase(tm))
		select {
		case PickSend(k, 0, reqs) <- r:
		case <-PickRecv(k, 1, tm):
			return false
		}
		k = Select(false, RecvCase(r.reply), RecvCase(tm))
		select {
		case <-PickRecv(k, 0, r.reply):
			return true
		case <-PickRecv(k, 1, tm):
			return false
		}
	}
	get("a", 50*time.Millisecond)
	if !get("b", time.Hour) {
		t.Fatal("get(b) timed out")
	}
	Close(reqs)
}

// TestEarlyTimerHang: after an early timer (a caller's 50 ms timeout) the
// server hangs on a reply nobody reads, and the next call's hour-long
// timeout fails the test once every goroutine has been blocked that
// long. That is the code's hang, not a timeout that came too soon: a
// finding, which replays. With room for the reply, no schedule fails.
func TestEarlyTimerHang(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestHangTimeout", Strategy: "random", Seed: 1, Schedules: 300, StepTimeout: 10 * time.Second})
	var found *Result
	for i, r := range rs {
		if r.Outcome != "pass" && r.Inconclusive == "" {
			found = &rs[i]
			break
		}
	}
	if found == nil {
		t.Fatalf("%d schedules, none reported the hang: %v\n%s", len(rs), outcomes(rs), out)
	}
	sch := &Schedule{Version: ScheduleVersion, Test: "TestHangTimeout", Seed: found.Seed, Decisions: found.Decisions}
	rep, out, _ := runMain(t, Config{Test: "TestHangTimeout", Replay: sch, StepTimeout: 10 * time.Second})
	if len(rep) != 1 || rep[0].Outcome != found.Outcome || rep[0].Diverged != "" {
		t.Fatalf("replay: %+v, want %s as recorded\n%s", rep, found.Outcome, out)
	}

	rs, out, _ = runMain(t, Config{Test: "TestHangTimeoutOK", Strategy: "random", Seed: 1, Schedules: 300, StepTimeout: 10 * time.Second})
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d of the correct server: %s: %s\n%s", r.Index, r.Outcome, r.Message, out)
		}
	}
	if len(rs) != 300 {
		t.Fatalf("%d schedules of the correct server, want 300\n%s", len(rs), out)
	}
}

// sleepFlake is a sleep-based flaky test: it sleeps "long enough" for
// three workers that could run and fails when one has not run by then.
func sleepFlake(t *testing.T) {
	var mu sync.Mutex
	n := 0
	for i := 0; i < 3; i++ {
		Go(func() {
			Lock(&mu)
			n++
			Unlock(&mu)
		})
	}
	Sleep(10 * time.Millisecond)
	Lock(&mu)
	if n != 3 {
		t.Errorf("%d of 3 workers ran", n)
	}
	Unlock(&mu)
}

// TestKeepEarlySleeper: with Config.KeepEarly (repro's), the clock may
// jump to a sleeper's wake-up while goroutines that could run have not
// run, and the failure that follows is kept, counted in Result.Early; the
// schedule replays it. Without KeepEarly no schedule fails: the sleeper
// wakes only when nothing else can run.
func TestKeepEarlySleeper(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	cfg := Config{Test: "TestSleepFlake", Strategy: "random", Seed: 1, Schedules: 200, StepTimeout: 10 * time.Second}
	rs, out, _ := runMain(t, cfg)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("without KeepEarly, schedule %d: %s %q (%s)", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
	if len(rs) != 200 {
		t.Fatalf("%d schedules without KeepEarly, want 200\n%s", len(rs), out)
	}
	cfg.KeepEarly = true
	rs, out, _ = runMain(t, cfg)
	var found *Result
	for i, r := range rs {
		if r.Outcome == "test-failure" {
			found = &rs[i]
			break
		}
	}
	if found == nil {
		t.Fatalf("with KeepEarly no schedule woke the sleeper before the workers ran (%d schedules)\n%s", len(rs), out)
	}
	clock := false
	for _, d := range found.Decisions {
		clock = clock || d.Early && d.Clock > 0
	}
	if found.Early == 0 || !clock || !strings.Contains(found.Message, "of 3 workers ran") && found.Message != "test failed" {
		t.Errorf("failure %q, Early %d, an early decision with its clock %v; want the test's failure after an early jump, recorded", found.Message, found.Early, clock)
	}
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions, KeepEarly: true}
	again, out, _ := runMain(t, Config{Test: "TestSleepFlake", Replay: sched, KeepEarly: true, StepTimeout: 10 * time.Second})
	if len(again) != 1 || again[0].Outcome != "test-failure" || again[0].Diverged != "" || again[0].Early == 0 {
		t.Errorf("replay with KeepEarly: %+v, want the failure as recorded\n%s", again, out)
	}
	// The same decisions without KeepEarly: the jump replays, the failure
	// after it is inconclusive as ever.
	plain, out, _ := runMain(t, Config{Test: "TestSleepFlake", Replay: sched, StepTimeout: 10 * time.Second})
	if len(plain) != 1 || plain[0].Outcome != "pass" || !strings.HasPrefix(plain[0].Inconclusive, EarlyFailPrefix) {
		t.Errorf("replay without KeepEarly: %+v, want inconclusive (%s)\n%s", plain, EarlyFailPrefix, out)
	}
}

// TestKeepEarlyLeaks: a sleep-based flake whose test also leaves a
// goroutine behind. Every schedule leaks; with KeepEarly, a schedule whose
// test failed after an early jump is that test failure (go test tells it,
// not what the test left), as repro needs to match a log's --- FAIL.
func TestKeepEarlyLeaks(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	// 50 schedules (each leaks, and a leak's check waits for the
	// goroutines left): seed 1 fails after an early jump at the 9th and
	// seven more.
	const schedules = 50
	rs, out, _ := runMain(t, Config{Test: "TestSleepFlakeLeaks", Strategy: "random", Seed: 1, Schedules: schedules, StepTimeout: 10 * time.Second, KeepEarly: true})
	failed := 0
	for _, r := range rs {
		switch {
		case r.Outcome == "test-failure" && r.Early > 0:
			failed++
		case r.Outcome != "leak":
			t.Fatalf("schedule %d: %s %q (early %d), want a leak or the test's failure after an early jump", r.Index, r.Outcome, r.Message, r.Early)
		}
	}
	if len(rs) != schedules || failed == 0 {
		t.Errorf("%d schedules, %d test failures after an early jump; want %d, some\n%s", len(rs), failed, schedules, out)
	}
}
