package rt

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ExitWatchdog is the exit status of a test binary whose schedule stopped
// making progress (Config.StepTimeout): a controlled goroutine blocked on
// something outside the scheduler's control. Before exiting, the binary
// appends a Result with Outcome "fatal" and a Message starting with
// MarkerWatchdog to Config.Results and writes the message to standard error,
// without MarkerEnd: the schedule stays open, as for any crash. The driver
// can go on with the next seed.
const ExitWatchdog = 86

// MarkerWatchdog starts the watchdog's message.
const MarkerWatchdog = "interleave: watchdog: "

var (
	resultsMu   sync.Mutex
	resultsPath string
)

// Main is the body of the generated driver test: it reads the Config named
// by EnvConfig, runs the requested test under the scheduler as many times as
// the Config allows, and appends a Result per schedule to Config.Results.
// Without the environment variable it skips, so a plain `go test` of the
// instrumented package is harmless.
//
// Each schedule runs in a subtest named "schedule-<index>"; the subtest's
// goroutine is the test goroutine g0 and receives the subtest's *testing.T.
func Main(t *testing.T, tests map[string]func(*testing.T)) {
	path := os.Getenv(EnvConfig)
	if path == "" {
		if body := testFunc(tests, os.Getenv(EnvChild)); body != nil {
			runChild(t, body)
			return
		}
		t.Skip("interleave: " + EnvConfig + " not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("interleave: %v", err)
	}
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatalf("interleave: config %s: %v", path, err)
	}
	names := cfg.Batch
	if len(names) == 0 {
		names = []string{cfg.Test}
	}
	for _, name := range names {
		if testFunc(tests, name) == nil {
			t.Fatalf("interleave: no test %q in this package", name)
		}
	}
	if _, err := ParseRun(cfg.Run); cfg.Run != "" && err != nil {
		t.Fatalf("interleave: bad run pattern: %v", err)
	}
	if _, err := ParseRun(cfg.Skip); cfg.Skip != "" && err != nil {
		t.Fatalf("interleave: bad skip pattern: %v", err)
	}
	// A test that re-runs its own binary (to test a crash or os.Exit, often
	// with -test.run=t.Name(), which names this driver) gets a child that
	// runs the test plainly, without the scheduler and its results file.
	os.Unsetenv(EnvConfig)
	os.Setenv(EnvChild, names[0])
	var out *os.File
	if cfg.Results != "" {
		out, err = os.OpenFile(cfg.Results, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatalf("interleave: %v", err)
		}
		defer out.Close()
		resultsMu.Lock()
		resultsPath = cfg.Results
		resultsMu.Unlock()
	}
	write := func(r Result) bool {
		if out != nil {
			out.Write(append(marshalResult(r), '\n'))
		}
		return true
	}
	if cfg.Replay != nil && len(cfg.Replay.Prior) > 0 {
		// The schedules the recording process ran first, then this one.
		for _, p := range cfg.Replay.Prior {
			if testFunc(tests, p.Test) == nil {
				t.Fatalf("interleave: no test %q in this package", p.Test)
			}
		}
		prior := cfg.Replay.Prior
		runSchedules(t, cfg, len(prior)+1, func(i int) (string, func(*testing.T)) {
			name := cfg.Test
			if k := i - cfg.First; k < len(prior) {
				name = prior[k].Test
			}
			os.Setenv(EnvChild, name)
			return name, testFunc(tests, name)
		}, write)
		return
	}
	if len(cfg.Batch) == 0 {
		RunSchedules(t, cfg, testFunc(tests, cfg.Test), write)
		return
	}
	// No min or max here: rt compiles at the module's language version.
	per := cfg.Schedules
	if per < 1 {
		per = 1
	}
	runSchedules(t, cfg, per*len(names), func(i int) (string, func(*testing.T)) {
		name := names[(i-cfg.First)/per]
		os.Setenv(EnvChild, name)
		return name, testFunc(tests, name)
	}, write)
}

// RunSchedules runs body under the scheduler as cfg says (Replay: once;
// else Schedules schedules from index First, stopping at Deadline, once
// StopFile exists, with StopOnFail at the first failure and with
// StopOnPass at the first pass, but always running the first; Schedules
// 0 without a Deadline means one), writes the markers to standard error
// and calls each with every Result (each returning false stops the run).
// It returns the Results.
func RunSchedules(t *testing.T, cfg Config, body func(*testing.T), each func(Result) bool) []Result {
	n := cfg.Schedules
	if cfg.Replay != nil {
		n = 1
	} else if n == 0 && cfg.Deadline.IsZero() {
		n = 1
	}
	return runSchedules(t, cfg, n, func(int) (string, func(*testing.T)) { return cfg.Test, body }, each)
}

// runSchedules runs n schedules (0: until cfg.Deadline) from index
// cfg.First, schedule i of the test bodyAt(i) names and returns, as
// RunSchedules says.
func runSchedules(t *testing.T, cfg Config, n int, bodyAt func(i int) (string, func(*testing.T)), each func(Result) bool) []Result {
	var all []Result
	rerun := rerunWatch{evidence: cfg.RerunEvidence}
	if cfg.Replay != nil || len(cfg.Batch) > 0 {
		rerun.evidence = 0
	}
	strat := NewStrategy(cfg.Strategy, cfg.Targets)
	var seeded Strategy // the recording process's, for earlier runs by seed
	warmThreads()
	keep := newKeeper()
	var longest time.Duration // of the schedules run
	failed := false
	for i := cfg.First; n == 0 || i < cfg.First+n; i++ {
		// A process started late (a loaded machine) still runs its first
		// schedule: the parent started it for that, and bounds it.
		if i > cfg.First && !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
			break
		}
		if failed && !ReplayFits(cfg.ReplayBy, cfg.ReplayTries, longest, time.Now()) {
			break
		}
		if i > cfg.First && cfg.StopFile != "" {
			if _, err := os.Stat(cfg.StopFile); err == nil {
				break
			}
		}
		// No schedule may run beside an earlier one's leftovers (a
		// goroutine the scheduler never saw) that can get in its way (one
		// holding a lock, one that runs): the driver goes on in a fresh
		// process. Leftovers parked on channels out of its way are kept
		// (leftover.go), and the Result says so.
		if i > cfg.First {
			left, ok := keep.settle()
			if !ok {
				fmt.Fprintf(os.Stderr, "%s%d %d\n", MarkerLeftovers, i, left)
				break
			}
		}
		setKept(keep.count())
		fmt.Fprintf(os.Stderr, "%s%d\n", MarkerStart, i)
		c := cfg
		var body func(*testing.T)
		c.Test, body = bodyAt(i)
		replay, st := replayAt(cfg, i), strat
		if replay != nil && replay.bySeed {
			// An earlier run carried by its seed: the recording process's
			// strategy runs it, and it must make the decisions it made.
			if seeded == nil {
				seeded = NewStrategy(cfg.Replay.PriorStrategy, cfg.Replay.PriorTargets)
			}
			st = seeded
		}
		r := RunSchedule(t, c, i, st, replay, body)
		if replay != nil && replay.bySeed && r.Diverged == "" {
			r.Diverged = seedDiverged(cfg.Replay.Prior[i-cfg.First], r.Decisions)
		}
		all = append(all, r)
		if r.Elapsed > longest { // no built-in max: rt compiles as go1.18
			longest = r.Elapsed
		}
		failed = failed || r.Outcome != "pass"
		cont := each == nil || each(r)
		fmt.Fprintf(os.Stderr, "%s%d\n", MarkerEnd, i)
		if !cont || cfg.StopOnFail && r.Outcome != "pass" || cfg.StopOnPass && r.Outcome == "pass" {
			break
		}
		if rerun.add(r) {
			fmt.Fprintf(os.Stderr, "%s%d %d\n", MarkerRerun, i+1, rerun.evidence)
			break
		}
	}
	return all
}

// rerunWatch follows one process's schedules of a test, in order, for
// Config.RerunEvidence.
type rerunWatch struct {
	evidence int    // schedules after the first that must fail one way; 0: off
	n        int    // schedules seen
	first    string // RerunKey of the first schedule's failure, "" if it passed
	key      string // the failure of the schedules after the first so far
	mixed    bool   // one after the first passed, or failed another way or as the first did
}

// add takes the process's next schedule and reports whether the evidence
// just became complete.
func (w *rerunWatch) add(r Result) bool {
	if w.evidence <= 0 {
		return false
	}
	w.n++
	if w.n == 1 {
		if r.Outcome != "pass" {
			w.first = RerunKey(r)
		}
		return false
	}
	if w.mixed || r.Outcome == "pass" || r.Inconclusive != "" {
		w.mixed = true
		return false
	}
	k := RerunKey(r)
	if w.key == "" {
		w.key = k
	}
	if k != w.key || k == w.first {
		w.mixed = true
		return false
	}
	return w.n == 1+w.evidence
}

// RerunKey is what Config.RerunEvidence compares of two failures: the
// outcome, the site and the message's first line.
func RerunKey(r Result) string {
	msg := r.Message
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return r.Outcome + "|" + r.Site + "|" + msg
}

// ReplayFits (Config.ReplayBy): may a schedule start at now, after a
// failure, the longest schedule so far taking longest? Yes unless it and
// tries replays as long would end past by (never when by is zero).
func ReplayFits(by time.Time, tries int, longest time.Duration, now time.Time) bool {
	return by.IsZero() || !now.Add(time.Duration(1+tries)*longest).After(by)
}

// replayAt is the schedule index i replays: one of cfg.Replay.Prior,
// in order from cfg.First, then cfg.Replay itself.
func replayAt(cfg Config, i int) *Schedule {
	r := cfg.Replay
	if r == nil {
		return nil
	}
	if k := i - cfg.First; k >= 0 && k < len(r.Prior) {
		p := r.Prior[k]
		if p.BySeed() {
			return &Schedule{Test: p.Test, Seed: p.Seed, ClockBase: p.ClockBase, KeepEarly: r.KeepEarly, Runs: r.Runs, NowTick: r.NowTick, Stretch: r.Stretch, BubbleEnd: r.BubbleEnd, bySeed: true}
		}
		return &Schedule{Test: p.Test, Seed: p.Seed, Decisions: p.Decisions, ClockBase: p.ClockBase, KeepEarly: r.KeepEarly, Runs: r.Runs, NowTick: r.NowTick, Stretch: r.Stretch, BubbleEnd: r.BubbleEnd}
	}
	return r
}

// seedDiverged is where a run of earlier schedule p, carried by its
// seed, left it: "" when its decisions ds are the recorded ones.
func seedDiverged(p Prior, ds []Decision) string {
	if d := DecisionDigest(ds); d != p.Digest {
		return "the end: run from its seed, it made " + strconv.Itoa(len(ds)) + " decisions (digest " + d + "), the recording " + strconv.Itoa(p.Steps) + " (digest " + p.Digest + ")"
	}
	return ""
}

// warmThreads has a few goroutines block in a system call at once, so
// that the runtime starts the threads hand-offs want (a goroutine in a
// system call while the scheduler's runs) before any test code: a thread
// started later allocates inside code a test may be counting. The
// runtime keeps idle threads.
func warmThreads() {
	n := runtime.NumGoroutine()
	done := make(chan struct{}, warmThreadCount)
	for i := 0; i < warmThreadCount; i++ {
		go func() {
			futexSleep(10 * time.Millisecond)
			done <- struct{}{}
		}()
	}
	for i := 0; i < warmThreadCount; i++ {
		<-done
	}
	// Gone before the driver counts its baseline of goroutines: one
	// still ending would hide a leftover of an earlier schedule.
	for i := 0; i < 100000 && runtime.NumGoroutine() > n; i++ {
		runtime.Gosched()
	}
}

// warmThreadCount is how many threads warmThreads asks for.
const warmThreadCount = 6

// runChild runs body plainly in a child process of a test (EnvChild), in
// a subtest named as -test.run asks ("TestInterleaveDriver/schedule-7"),
// so that a pattern built from t.Name() still selects its subtests.
func runChild(t *testing.T, body func(*testing.T)) {
	name := "schedule-0"
	if f := flag.Lookup("test.run"); f != nil {
		if parts := strings.Split(f.Value.String(), "/"); len(parts) > 1 {
			if p := strings.Trim(parts[1], "^$"); strings.HasPrefix(p, "schedule-") {
				name = p
			}
		}
	}
	t.Run(name, body)
}

// RunSchedule runs body once under control, in a subtest of t, as schedule
// index (seed cfg.Seed+index; replay follows replay's decisions and falls
// back to strat after a divergence).
func RunSchedule(t *testing.T, cfg Config, index int, strat Strategy, replay *Schedule, body func(*testing.T)) Result {
	if strat == nil {
		strat = NewStrategy(cfg.Strategy, cfg.Targets)
	}
	var res Result
	site := funcSite(body)
	t.Run("schedule-"+strconv.Itoa(index), func(t *testing.T) {
		// body runs right here, so that its stack is what go test gives
		// it (body, this function, testing.tRunner): tests that read
		// their own stack see no frames of ours.
		run := beginSchedule(cfg, index, strat, replay, site, t, t.Failed, &res)
		defer func() { run.end(recover()) }()
		run.start()
		body(t)
		// Config.Runs: again on what the runs before left, as go test
		// -count=N (on the same T), each after the cleanups of the last.
		for k := 1; k < cfg.Runs && !t.Failed(); k++ {
			if p := runCleanups(run.g0, run.finish); p != nil {
				panic(p)
			}
			body(t)
		}
	})
	return res
}

// A scheduleRun is one schedule, with the calling goroutine as its g0.
type scheduleRun struct {
	s        *sched
	g0       *gstate
	failed   func() bool
	out      *Result
	finished bool
}

// beginSchedule sets up schedule index with the calling goroutine as g0;
// tb (nil for RunFunc) is the test whose t.Cleanup functions run under
// control when the body returns. The caller then calls start, runs the
// body, and calls end with what it recovered, from a deferred function.
func beginSchedule(cfg Config, index int, strat Strategy, replay *Schedule, site string, tb testing.TB, failed func() bool, out *Result) *scheduleRun {
	s := newSched(cfg, index, strat, replay)
	s.testSite, s.testFailed = site, failed
	addrInUse.Store(nil) // an earlier schedule's
	g0 := startSchedule(s)
	g0.tb = tb
	go s.loop()
	return &scheduleRun{s: s, g0: g0, failed: failed, out: out}
}

// start waits for g0's first turn.
func (r *scheduleRun) start() { r.g0.call(&request{op: opStart}) }

// end runs after the body returned or panicked (p): it waits for the
// parallel subtests, cancels t.Context(), runs the cleanups under control
// and stores the result.
func (r *scheduleRun) end(p any) {
	if p == nil {
		p = protect(func() { waitParallel(r.g0) }, r.finish)
	}
	if p == nil {
		cancelTestContext(r.g0.tb)
		p = runCleanups(r.g0, r.finish)
	}
	r.finish(p)
}

func (r *scheduleRun) finish(p any) {
	if r.finished {
		return
	}
	r.finished = true
	f := r.failed()
	endOfGoroutine()
	r.g0.exit(p)
	<-r.s.done
	setActive(nil)
	runHelpers.Wait()
	endOfGoroutine()
	res := r.s.res
	res.Far = r.s.farFires > 0
	if r.s.goneDaemonAt != "" && res.Inconclusive == "" && (res.Outcome != "pass" || f || r.failed()) {
		// It waited, most likely, for a daemon no schedule of this
		// process starts again (leftover.go): not the code's doing.
		// The next schedule runs in a fresh process.
		res.dropFailure()
		res.Inconclusive = DaemonGonePrefix + "at " + r.s.goneDaemonAt
		endProcess()
	}
	if r.s.farFires > 0 && res.Inconclusive == "" && (res.Outcome != "pass" || f || r.failed()) {
		// The clock jumped further than a loaded machine's delay
		// (farNow): only a data race counts after it, which the
		// race detector reports apart from this result.
		res.dropFailure()
		res.Inconclusive = EarlyFailPrefix + "the test failed or left goroutines after a timer fired further ahead than a loaded machine's delay (only a data race counts there)"
	}
	if r.s.stretchDue && res.Inconclusive == "" && (res.Outcome != "pass" || f || r.failed()) {
		// A loop's stretched clock reached a deadline (stretch.go): only
		// a data race counts, which the race detector reports apart from
		// this result.
		res.dropFailure()
		res.Inconclusive = StretchFailPrefix + "the test failed or left goroutines after the clock, sped up for a loop that worked until a time had passed, reached a timer's deadline (its own timeout, maybe; only a data race counts there)"
	}
	lateFail := r.s.earlyLate && res.Outcome == "panic"
	// A timer's stale value read after its Reset (staleRead) is the
	// code's failure, however early the timer fired.
	earlyFail := r.s.earlyFires > 0 && !r.s.staleRead && res.Inconclusive == "" && (lateFail || !r.s.hungAfterEarly() && (f || r.failed()) && (res.Outcome == "pass" || res.Outcome == "leak" || res.Outcome == "deadlock"))
	if earlyFail && r.s.cfg.KeepEarly {
		// repro's: kept, counted; its caller decides (the log shows it).
		res.Early = r.s.earlyFires
		if res.Outcome == "leak" && (f || r.failed()) {
			// go test tells the test's failure, not what it left running.
			res.dropFailure()
		}
	} else if earlyFail {
		// A timer fired before goroutines that could run (earlyTime) and
		// the test failed, before it returned or after (testing's "Fail
		// in goroutine after ... has completed"): its own timeout, most
		// likely, and what followed from it (a worker it left behind).
		// Not another panic: the code crashed on its timeout path. Not
		// when every goroutine was blocked since for longer than any
		// early move, none outside control taking part: the code hung,
		// a long timeout failed the test.
		res.dropFailure()
		res.Inconclusive = EarlyFailPrefix + "the test failed after a timer fired before goroutines that could run (its own timeout, most likely)"
	}
	if r.s.settled > 0 && !f && res.Inconclusive == "" && (res.Outcome != "pass" || r.failed()) {
		// Only an AfterFunc fired after everything had ended failed
		// (settleAfterFuncs): go test would not have waited for it.
		res.dropFailure()
		res.Inconclusive = SettleFailPrefix + "an AfterFunc callback the test left pending failed after the test had ended"
	}
	if res.Outcome == "leak" && res.Inconclusive == "" && (f || r.failed()) {
		// go test tells the test's failure; the goroutines it left (its
		// t.Fatal skipped the Close) are what followed from it: kept in
		// LeftBehind and Goroutines, one finding with the failure.
		res.LeftBehind, res.Outcome = res.Message, "pass"
	}
	if res.Outcome == "pass" && res.Inconclusive == "" && (f || r.failed()) {
		res.Outcome, res.Message, res.Site = "test-failure", "test failed", r.s.testSite
		if !f {
			// Failed only after it returned, by a goroutine it left,
			// through a testing.TB Late never sees (testify's
			// assertions take one): go test panics then ("Fail in
			// goroutine after TestX has completed") if its process
			// still runs.
			res.AfterReturn = true
			res.Message = AfterReturnMessage
		}
		res.Subtest = r.s.failedSub()
		if r.s.groupSite != "" {
			res.Site = r.s.groupSite
		}
	}
	if res.Outcome == "pass" && res.Inconclusive == "" && r.g0.tb != nil && r.g0.tb.Skipped() {
		res.Inconclusive = SkippedPrefix + "the test skipped itself (t.Skip)"
	}
	res.Kept = keptNow()
	*r.out = res
}

// dropFailure makes r a pass: its failure is not the code's (the caller
// says why in Inconclusive) or is told elsewhere.
func (r *Result) dropFailure() {
	r.Outcome, r.Message, r.Site, r.Goroutines = "pass", "", "", nil
}

// SkippedPrefix starts Result.Inconclusive of a test that skipped itself,
// EarlyFailPrefix that of a test that failed after an early timer,
// StretchFailPrefix that of one that failed after a stretched clock,
// SettleFailPrefix that of a callback failing after the test (settleAfterFuncs).
const (
	// AfterReturnMessage is Result.Message of a test that failed only
	// after it returned (Result.AfterReturn).
	AfterReturnMessage = "test failed after it returned, by a goroutine it left"
	SkippedPrefix      = "skipped: "
	EarlyFailPrefix    = "timeout: "
	SettleFailPrefix   = "after the test: "
	StretchFailPrefix  = "stretched clock: "
)

// runCleanups runs the cleanups g's test registered through Cleanup, last
// first, as the testing package would, but under control. It returns the
// value of the first one to panic (the rest do not run). A cleanup that
// calls runtime.Goexit (t.FailNow) ends the goroutine: finish runs then,
// from the cleanup's deferred call.
func runCleanups(g *gstate, finish func(any)) any {
	for {
		f := takeCleanup(g)
		if f == nil {
			return nil
		}
		if p := protect(f, finish); p != nil {
			return p
		}
	}
}

// RunFunc runs body once under control on a new goroutine (no testing.T),
// as schedule index of cfg. Used by benchmarks and tools.
func RunFunc(cfg Config, index int, body func()) Result {
	var res Result
	done := make(chan struct{})
	go func() {
		defer close(done)
		run := beginSchedule(cfg, index, NewStrategy(cfg.Strategy, cfg.Targets), cfg.Replay, funcSite(body), nil, func() bool { return false }, &res)
		defer func() { run.end(recover()) }()
		run.start()
		body()
	}()
	<-done
	return res
}

//go:norace
func startSchedule(s *sched) *gstate {
	g0 := s.newG()
	g0.gid = goid()
	s.tab = s.tab.with(g0.gid, g0)
	s.running = append(s.running[:0], g0)
	setActive(s)
	return g0
}

// Group is the test a package and its external test package both declare
// under one name: go test runs both as top-level tests of that name (the
// package's first), and -run '^Name$' selects both. It runs fns[i] as the
// subtest names[i], each after the other; a test failure is sited at the
// first that failed (at fns[0] when none returned failed: a parallel one).
func Group(names []string, fns ...func(*testing.T)) func(*testing.T) {
	return func(t *testing.T) {
		s := active
		if current() == nil {
			s = nil
		}
		if s != nil {
			s.groupSite = funcSite(fns[0])
			s.groupNames = names
		}
		failed := false
		for i, f := range fns {
			if !Run(t, names[i], f) && !failed && s != nil {
				failed = true
				s.groupSite = funcSite(f)
			}
		}
	}
}

func funcSite(f any) string {
	pc := reflect.ValueOf(f).Pointer()
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return ""
	}
	file, line := fn.FileLine(fn.Entry())
	return file + ":" + strconv.Itoa(line)
}

func panicString(p any) string {
	if e, ok := p.(error); ok {
		return e.Error()
	}
	return fmt.Sprint(p)
}

// panicSite is the first user frame of a panicking goroutine, called from
// the deferred function that recovered.
func panicSite() string {
	var pcs [64]uintptr
	n := runtime.Callers(1, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	seenPanic := false
	first := ""
	for {
		fr, more := frames.Next()
		if fr.Function == "runtime.gopanic" || fr.Function == "runtime.sigpanic" || fr.Function == "runtime.panicmem" {
			seenPanic = true
		}
		if isUserFrame(fr) {
			site := fr.File + ":" + strconv.Itoa(fr.Line)
			if seenPanic {
				return site
			}
			if first == "" {
				first = site
			}
		}
		if !more {
			return first
		}
	}
}

// watchdogExit reports a stuck schedule and ends the process.
func watchdogExit(index int, r Result) {
	r.Kept = keptNow()
	writeResult(r)
	fmt.Fprintf(os.Stderr, "%s (schedule %d)\n", r.Message, index)
	os.Exit(ExitWatchdog)
}

// LostTestNote ends Result.Inconclusive of a schedule that ended with the
// test's goroutine left blocked outside control (lostTestExit).
const LostTestNote = "the schedule ended with the test's goroutine blocked outside control (in code that is not rewritten), waiting for what no goroutine left could do; its process ended there"

// lostTestExit ends the process after schedule index, undecided (r
// passed, most likely at the step bound), whose test's goroutine was left
// blocked outside control: r is the schedule's result, inconclusive, and
// the schedule ends normally (MarkerEnd), so the driver goes on from the
// next in a fresh process.
func lostTestExit(index int, r Result) {
	if r.Inconclusive == "" {
		r.Inconclusive = LostTestNote
	} else {
		r.Inconclusive += "; " + LostTestNote
	}
	r.Kept = keptNow()
	writeResult(r)
	fmt.Fprintf(os.Stderr, "%s%d\n", MarkerEnd, index)
	os.Exit(0)
}

// writeResult appends r to the results file of a process about to end.
func writeResult(r Result) {
	line := marshalResult(r)
	resultsMu.Lock()
	path := resultsPath
	resultsMu.Unlock()
	if path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
	}
}
