package rt

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestGoroutineAt(t *testing.T) {
	dump := "goroutine 7 [running]:\n" +
		"example.com/p.spin(...)\n\t/src/p/p_test.go:9 +0x1d\n" +
		"testing.tRunner(0xc0001, 0x5)\n\t" + stdSrc + "testing/testing.go:1934 +0x93\n\n" +
		"goroutine 12 [IO wait, 2 minutes]:\n" +
		"internal/poll.runtime_pollWait(0x7f, 0x72)\n\t" + stdSrc + "runtime/netpoll.go:351 +0x85\n" +
		"os.(*File).Read(0xc000, {0xc00, 0x1, 0x1})\n\t" + stdSrc + "os/file.go:144 +0x4f\n" +
		"example.com/p.TestRead(0xc0002)\n\t/src/p/p_test.go:24 +0x8a\n\n" +
		"goroutine 120 [select]:\n" +
		"example.com/p.other()\n\t/src/p/p.go:3 +0x1\n"
	tests := []struct {
		gid         uint64
		state, site string
	}{
		{7, "running", "/src/p/p_test.go:9"},
		{12, "IO wait", "/src/p/p_test.go:24"},
		{120, "select", "/src/p/p.go:3"},
		{1, "", ""}, // not in the dump; must not match goroutine 12 or 120
	}
	for _, tt := range tests {
		state, site, stack := goroutineAt(dump, tt.gid)
		if state != tt.state || site != tt.site {
			t.Errorf("goroutine %d: got %q at %q, want %q at %q (stack %q)", tt.gid, state, site, tt.state, tt.site, stack)
		}
	}
	if stdSrc == "" {
		t.Error("stdSrc is empty: standard library frames cannot be told from user frames")
	}
	if got := stuckWhy("IO wait"); got != "IO wait: blocked outside the scheduler's control" {
		t.Errorf("stuckWhy(IO wait) = %q", got)
	}
}

// TestStarvedMore: a goroutine computing past the step timeout is waited
// for longer only while the process got less CPU time than the timeout,
// up to a bound, and never past the end of the run.
func TestStarvedMore(t *testing.T) {
	defer func(f func() (time.Duration, bool)) { cpuNow = f }(cpuNow)
	cpu := 10 * time.Second
	cpuNow = func() (time.Duration, bool) { return cpu, true }
	s := &sched{timeout: 4 * time.Second}
	if got := s.starvedMore(9*time.Second, 4*time.Second); got != time.Second {
		t.Errorf("starved (1s of CPU in a 4s limit): %v more, want 1s", got)
	}
	if got := s.starvedMore(6*time.Second, 4*time.Second); got != 0 {
		t.Errorf("4s of CPU used: %v more, want none", got)
	}
	if got := s.starvedMore(9*time.Second, maxStarvedStretch*4*time.Second); got != 0 {
		t.Errorf("stretched to the bound: %v more, want none", got)
	}
	s.replay = &Schedule{}
	if got := s.starvedMore(9*time.Second, maxStarvedStretch*4*time.Second); got != time.Second {
		t.Errorf("a replay stretched to the search's bound: %v more, want 1s (a replay waits while starved)", got)
	}
	s.replay = nil
	s.cfg.Deadline = time.Now().Add(-time.Second)
	if got := s.starvedMore(9*time.Second, 4*time.Second); got != 0 {
		t.Errorf("past the end of the run: %v more, want none", got)
	}
	s.cfg.Deadline = time.Time{}
	cpuNow = func() (time.Duration, bool) { return 0, false }
	if got := s.starvedMore(0, 4*time.Second); got != 0 {
		t.Errorf("CPU time unknown: %v more, want none", got)
	}
}

// TestHeldBackNamesFew: a hang's message names a few of the goroutines
// that could have run and counts the rest (860 of them made a 21 KB note).
func TestHeldBackNamesFew(t *testing.T) {
	s := &sched{}
	for i := 0; i < 100; i++ {
		s.gs = append(s.gs, &gstate{id: i, parked: true, req: request{op: opStart}})
	}
	got := s.heldBack(s.gs[0])
	if n := strings.Count(got, "not started yet"); n != 8 {
		t.Errorf("%d goroutines named, want 8: %s", n, got)
	}
	if !strings.HasSuffix(got, ", and 91 more") {
		t.Errorf("the rest not counted: %s", got)
	}
}

// TestWaitStepStarved: the scheduler's own requests to a parked goroutine
// (its stack for a deadlock's report, a poll) and its helpers are waited
// for past the step timeout while the process is starved of CPU, as
// arrivals are: a deadlock's replay on a loaded machine ended in the
// watchdog before. Run in a process of its own (the watchdog exits it).
func TestWaitStepStarved(t *testing.T) {
	if os.Getenv(waitStepChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWaitStepStarved$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), waitStepChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWaitStepStarved") {
			t.Fatalf("a slow answer in a starved process ended it: %v\n%s", err, out)
		}
		return
	}
	defer func(f func() (time.Duration, bool)) { cpuNow = f }(cpuNow)
	cpuNow = func() (time.Duration, bool) { return time.Second, true } // no CPU time passes
	// A replay's: no cap of wall time on the stretch, so a slower
	// machine does not fail the test.
	s := &sched{timeout: 20 * time.Millisecond, replay: &Schedule{}}
	g := &gstate{}
	go slowAnswer(g, 100*time.Millisecond)
	s.sendAndWait(g, mDump)
	w := new(uint32)
	go func() { time.Sleep(100 * time.Millisecond); bump(w) }()
	if v := s.waitStep(nil, w, 0); v != 1 {
		t.Errorf("waitStep returned %d, want 1", v)
	}
	s = &sched{timeout: 20 * time.Millisecond, replay: &Schedule{}}
	s.viaHelper(func() { time.Sleep(100 * time.Millisecond) })
}

// waitStepChild is set in the process TestWaitStepStarved runs.
const waitStepChild = "INTERLEAVE_RT_WAITSTEP_CHILD"

// slowAnswer plays a parked goroutine that takes d to answer the
// scheduler (a starved process).
//
//go:norace
func slowAnswer(g *gstate, d time.Duration) {
	g.runSeen = g.waitTurn(g.runSeen)
	time.Sleep(d)
	bump(&g.arrSeq)
}

// TestProgressed: once the watchdog fires, the goroutine it waited for is
// sampled again; it is not stuck when a frame of its stack is called with
// other arguments (coder/websocket's TestMask: a race-instrumented loop
// over fresh buffers, past the watchdog at load), when it has returned or
// reached a scheduling point. A spin is stuck: the same frames and
// arguments at another line or offset, in a callee, in the runtime, or
// with arguments the dump marks stale. The dumps are given: no real time.
func TestProgressed(t *testing.T) {
	defer func(f func() string, d time.Duration) { dumpAll, sampleGap = f, d }(dumpAll, sampleGap)
	sampleGap = 0
	g := func(state string, frames ...string) string {
		return "goroutine 7 [" + state + "]:\n" + strings.Join(frames, "\n") + "\ncreated by example.com/m.TestX in goroutine 6\n\t/m/x_test.go:9 +0x1e\n"
	}
	loop := func(off string) string {
		return "example.com/m.testMask.func1(0xc000102380)\n\t/m/mask_test.go:40 " + off
	}
	mask := func(buf, key string) string {
		return "example.com/m.maskGo({" + buf + ", 0x8000, 0x8000?}, " + key + ")\n\t/m/mask.go:12 +0x3e"
	}
	tRunner := "testing.tRunner(0xc000102380, 0xc0000a2000)\n\t/go/src/testing/testing.go:1934 +0xea"
	for _, tc := range []struct {
		name  string
		first string
		later []string
		want  bool
	}{
		{"fresh buffers", g("running", mask("0xc000200000", "0x1a2b"), loop("+0x65"), tRunner),
			[]string{g("runnable", loop("+0x40"), tRunner), g("running", mask("0xc000300000", "0x77"), loop("+0x65"), tRunner)}, true},
		{"returned", g("running", loop("+0x65"), tRunner), []string{"goroutine 1 [chan receive]:\nmain.main()\n\t/m/main.go:3 +0x1\n"}, true},
		{"at a scheduling point", g("running", loop("+0x65"), tRunner),
			[]string{g("semacquire", "runtime.futex(0x1)\n\t/go/src/runtime/sys.s:1 +0x1", rtPrefix+"(*sched).park(0xc0)\n\t/rt/s.go:1 +0x1", loop("+0x70"), tRunner)}, true},
		{"spin", g("running", loop("+0x65"), tRunner),
			[]string{g("running", loop("+0x6d"), tRunner), g("runnable", "runtime.raceread(0x1)\n\t/go/src/runtime/race.go:1 +0x1", loop("+0x61"), tRunner)}, false},
		{"spin through a callee", g("running", loop("+0x65"), tRunner),
			[]string{g("running", "example.com/m.ready(...)\n\t/m/mask_test.go:30", loop("+0x61"), tRunner), g("running", mask("0xc000200000", "0x1a2b"), loop("+0x65"), tRunner)}, false},
		{"stale arguments", g("running", "example.com/m.mix({0x24797b7bcfc8?, 0x0?, 0x0?}, 0x0?)\n\t/m/mix.go:16 +0xd", loop("+0x4b"), tRunner),
			[]string{g("running", "example.com/m.mix({0x11?, 0x3?, 0x0?}, 0x5?)\n\t/m/mix.go:16 +0xd", loop("+0x4b"), tRunner)}, false},
		{"blocked", g("IO wait", "internal/poll.(*FD).Read(0xc0)\n\t/go/src/internal/poll/fd_unix.go:165 +0x1", loop("+0x65"), tRunner), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			dumpAll = func() string {
				d := tc.first
				if len(tc.later) > 0 {
					d = tc.later[min(n, len(tc.later)-1)]
				}
				n++
				return d + "\ngoroutine 1 [chan receive]:\nmain.main()\n\t/m/main.go:3 +0x1\n"
			}
			_, _, first := goroutineAt(tc.first, 7)
			if got := progressed(7, first); got != tc.want {
				t.Errorf("progressed = %v, want %v (%d samples)", got, tc.want, n)
			}
		})
	}
}
