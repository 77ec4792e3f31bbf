package explore

// Plain go test: what plain go test does with a finding's test (its label:
// fails too, with the exit status, or passes) is decided by running the
// test as its user runs it — the package's own files, not rewritten, `-run`
// of that one test, `-race` when the search used it — and comparing how it
// fails. The only file added is a wrapper
// test that runs the test and then lists the goroutines it left behind,
// which plain go test does not report but a leak finding is about.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/failurelog"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// plainRuns is how many times plain go test runs a test whose unperturbed
// schedule failed before the failure is called the tool's.
const plainRuns = 3

// plainOutcome is what plain go test did with one test, over its runs.
type plainOutcome struct {
	err     error // it could not run (does not build, ...)
	runs    []plainRun
	tested  string // what ran, for messages ("3 runs of plain go test -race")
	command string // "go test -race -run '^TestX$'"
	// stressCommand is the command of the stress run among runs, if any
	// (stressPlain): "go test -race -count=100 -failfast -run '^TestX$'"
	stressCommand string
}

// plainRun is one process of plain go test.
type plainRun struct {
	exitCode int // of the process (-1: killed)
	failed   bool
	timedOut bool
	// deadlocked: the runtime ended it, all its goroutines asleep.
	deadlocked bool
	timeout    time.Duration // it was given
	logs       []string      // the test's log entries
	crash      *failure      // a panic or fatal error, from standard error
	left       []checks.Goroutine
	races      []string // sites ("/abs/file.go:12") in the race detector's reports
	output     string   // tail, for notes
	// stress: the run ran the test up to this many times in a row
	// (stressPlain); 0: once
	stress int
}

// runPlain runs t under plain go test up to n times, stopping at the
// first run that fails the way f does (same says how).
func (s *search) runPlain(ctx context.Context, t *target, bin string, n int, timeout time.Duration, same func(plainRun) bool) *plainOutcome {
	out := &plainOutcome{}
	what := strings.Join(append([]string{"plain go test"}, buildFlags(s.opts.Race, s.opts.Tags)...), " ")
	for i := 0; i < n && ctx.Err() == nil; i++ {
		r, err := s.plainOnce(ctx, t, bin, timeout)
		if err != nil {
			out.err = err
			break
		}
		out.runs = append(out.runs, r)
		if same(r) {
			break
		}
	}
	if s.opts.Runs > 1 {
		what += " -count=" + strconv.Itoa(s.opts.Runs)
	}
	run := strings.Join(runPatterns(t.name, s.runFilter), "|")
	out.tested = fmt.Sprintf("%d %s of %s -run '%s'%s", len(out.runs), checks.Plural(len(out.runs), "run"), what, run, s.skipFlag())
	out.command = fmt.Sprintf("%s -run '%s'%s", strings.TrimPrefix(what, "plain "), run, s.skipFlag())
	return out
}

// A failure go test shows only now and then passes plainRuns runs as a
// rule: cilium/workerpool's TestWorkerPoolLen fails 43 of 3,000 runs of
// go test -race, passed its three, and was filed as the tool's doing.
// So before a failure of the unperturbed schedule is called the tool's,
// one more process runs the test many times in a row (stressPlain): as
// many as fit in its window at what one schedule of it took, at least
// stressMin and at most stressMax. The window is a twentieth of the
// budget, between one and stressWindowMax seconds.
const (
	stressMin       = 100
	stressMax       = 1000
	stressWindowMax = 5 * time.Second
)

// stressPlain runs t under plain go test stressed (plainExec) when the
// plainRuns runs in out all passed, and records
// in same those the stress run fails like. Only failures a run cut short
// cannot pass for are stressed: a test failure, a panic, a fatal error
// other than os.Exit's (the first run shows that).
func (s *search) stressPlain(ctx context.Context, t *target, bin string, fs []*failure, same map[string]bool, out *plainOutcome) {
	var rest []*failure
	var per time.Duration
	for _, f := range fs {
		if !same[f.key()] && stressable(f) {
			rest = append(rest, f)
			per = max(per, f.elapsed)
		}
	}
	if len(rest) == 0 || out.err != nil || len(out.runs) < plainRuns {
		return
	}
	for _, r := range out.runs {
		if r.failed {
			return // it fails another way already (report.go's note says how)
		}
	}
	if per = max(per, t.virtual); per <= 0 {
		per = t.plainCost()
	}
	window := min(max(s.opts.Budget/20, time.Second), stressWindowMax)
	n := stressMax
	if per > 0 {
		n = int(min(max(window/per, stressMin), stressMax))
	}
	r, err := s.plainExec(ctx, t, bin, stressTimeout(window, n, t.virtual, t.plainCost()), n, true)
	if err != nil {
		return // no word from it: the failure stays the tool's suspect
	}
	count := n * max(s.opts.Runs, 1)
	out.runs = append(out.runs, r)
	what := strings.Join(append([]string{"go test"}, buildFlags(s.opts.Race, s.opts.Tags)...), " ")
	out.stressCommand = fmt.Sprintf("%s -count=%d -failfast -run '%s'%s", what, count, strings.Join(runPatterns(t.name, s.runFilter), "|"), s.skipFlag())
	out.tested += fmt.Sprintf(" and 1 of -count=%d -failfast", count)
	for _, f := range rest {
		if sameAsPlain(f, r, t.pkg.Dir) {
			same[f.key()] = true
		}
	}
}

// stressTimeout is the timeout of a stress run of n runs of a test whose
// sleeps and timers take virtual, one run of which costs cost: twice the
// window, or twice the n runs' waits when longer (at stressMin, a test
// that waits 100 ms runs 10 s: watermill's was killed at 6.3 s and told
// as a failed run), and one run's cost.
func stressTimeout(window time.Duration, n int, virtual, cost time.Duration) time.Duration {
	return 2*max(window, time.Duration(n)*virtual) + cost
}

// stressable: is f a failure a stress run of plain go test can show
// (stressPlain)?
func stressable(f *failure) bool {
	if f.late {
		return false // its process ends before it
	}
	switch f.kind {
	case checks.TestFailure, checks.Panic:
		return true
	case checks.Fatal:
		return !osExitRE.MatchString(f.message) && !f.isLivelock()
	}
	return false
}

// plainOnce runs t once in its plain test binary, under the wrapper that
// lists what it left behind. A run the wrapper saw fail (not hang) is run
// again as go test runs it (-run of the test itself, no wrapper), and that run's
// verdict is plain go test's: a test that reads its own name ("TestX"
// under go test, "TestInterleavePlain/plain/TestX" under the wrapper) may
// fail under the wrapper only (otter's tests find their goroutines in a
// dump by the name).
func (s *search) plainOnce(ctx context.Context, t *target, bin string, timeout time.Duration) (plainRun, error) {
	r, err := s.plainExec(ctx, t, bin, timeout, 0, false)
	if err != nil || !r.failed || r.timedOut || r.deadlocked {
		// A run that hung hangs as go test runs it too: not again for
		// another timeout (10 s and more) to say so.
		return r, err
	}
	d, err := s.plainExec(ctx, t, bin, timeout, 0, true)
	if err != nil {
		return plainRun{}, err
	}
	d.left = r.left
	return d, nil
}

// plainExec runs t's plain test binary once: the test once (stress 0),
// or up to stress times in a row, stopping at the first failure (-count,
// -failfast; not verbose, so that only the failing run's log is printed).
// A stress run, and a direct one, runs the test itself, not under the
// wrapper.
func (s *search) plainExec(ctx context.Context, t *target, bin string, timeout time.Duration, stress int, direct bool) (plainRun, error) {
	timeout, ok, full := plainTimeout(ctx, timeout, t.plainCost())
	if !ok {
		return plainRun{}, errBudgetOut
	}
	direct = direct || stress > 0
	run, skip := plainRunPattern(t.name, s.runFilter), ""
	if s.skipFilter != nil {
		skip = plainSkipPattern(s.skipFilter)
	}
	if direct {
		run = strings.Join(runPatterns(t.name, s.runFilter), "|")
		skip = s.subSkip // as the printed command has it
	}
	args := []string{"-test.run=" + run, "-test.v", "-test.count=" + strconv.Itoa(max(s.opts.Runs, 1))}
	if stress > 0 {
		args = []string{"-test.run=" + run, "-test.failfast", "-test.count=" + strconv.Itoa(stress*max(s.opts.Runs, 1))}
	}
	if skip != "" {
		args = append(args, "-test.skip="+skip)
	}
	kill := timeout
	if s.opts.Race {
		// The race detector keeps the runtime from seeing a deadlock: go
		// test's timeout says it hangs.
		args = append(args, "-test.timeout="+timeout.String())
		kill += childGrace
	}
	dir, removeDir, err := privateDir(s.workDir, t.pkg.Dir)
	if err != nil {
		return plainRun{}, fmt.Errorf("a copy of %s to run %s in: %w", t.pkg.Dir, t.name, err)
	}
	defer removeDir()
	tmpEnv, removeTemp, err := privateTemp()
	if err != nil {
		return plainRun{}, fmt.Errorf("a temporary directory to run %s with: %w", t.name, err)
	}
	defer removeTemp()
	// Else no timer of go test's keeps the runtime from ending a test all
	// of whose goroutines are asleep at once ("all goroutines are asleep -
	// deadlock!", as go test -timeout 0 does); a hang it cannot see is
	// killed at the timeout.
	cctx, cancel := context.WithTimeout(ctx, kill)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin, args...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rt.EnvConfig+"=") && !strings.HasPrefix(kv, rt.EnvChild+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, plainTestEnv+"="+t.name, "GORACE="+gorace(os.Getenv("GORACE")), tmpEnv)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return plainRun{}, ctx.Err()
	}
	r := parsePlain(stdout.String(), stderr.String())
	if cmd.ProcessState != nil {
		r.exitCode = cmd.ProcessState.ExitCode()
	}
	r.failed = r.failed || err != nil
	r.timedOut = r.timedOut || cctx.Err() != nil
	r.timeout = timeout
	r.stress = stress
	if r.timedOut && !full {
		return plainRun{}, errBudgetOut // cut short by the budget: no hang
	}
	if stress > 0 && !r.failed && !strings.Contains(stdout.String(), "PASS") {
		return r, fmt.Errorf("plain go test -count=%d did not run %s:\n%s", stress, t.name, tailLines(stdout.String()+stderr.String(), 10))
	}
	top, _, _ := strings.Cut(t.name, "/")
	if stress == 0 && !r.failed && !strings.Contains(stdout.String(), "--- PASS: TestInterleavePlain") && !(direct && strings.Contains(stdout.String(), "--- PASS: "+top+" ")) {
		return r, fmt.Errorf("plain go test did not run %s:\n%s", t.name, tailLines(stdout.String()+stderr.String(), 10))
	}
	return r, nil
}

var plainPanicRE = regexp.MustCompile(`(?m)^(panic: |fatal error: )`)

// raceSiteRE finds the sites of a race detector report's frames.
var raceSiteRE = regexp.MustCompile(`(?m)^\s+(\S+\.go:\d+)(?: \+0x[0-9a-f]+)?$`)

// parsePlain reads one plain run's output.
func parsePlain(stdout, stderr string) plainRun {
	r := plainRun{output: tailLines(stdout+stderr, 20)}
	indent := -1
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--- FAIL") {
			r.failed = true
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent >= 0 && ind > indent && len(r.logs) > 0 {
			r.logs[len(r.logs)-1] += "\n" + strings.TrimSpace(line)
			continue
		}
		indent = -1
		if m := logLineRE.FindStringSubmatch(line); m != nil && len(r.logs) < maxLogEntries {
			r.logs = append(r.logs, m[1])
			indent = ind
		}
	}
	rest := stderr
	for {
		i := strings.Index(rest, plainLeftMarker)
		if i < 0 {
			break
		}
		rest = rest[i+len(plainLeftMarker):]
		j := strings.Index(rest, plainEndMarker)
		if j < 0 {
			break
		}
		st := rest[:j]
		rest = rest[j:]
		g := checks.Goroutine{Stack: failurelog.Frames(st)}
		if len(userFrames(g.Stack)) == 0 || plainOwn(g.Stack) {
			continue // the standard library's or the wrapper's
		}
		if f := strings.Fields(st); len(f) > 1 {
			g.ID = "goroutine " + f[1]
		}
		if fr, ok := firstUser(g.Stack); ok {
			g.Site = frameSite(fr)
		}
		r.left = append(r.left, g)
	}
	for _, block := range strings.Split(stdout+"\n"+stderr, "WARNING: DATA RACE")[1:] {
		block, _, _ = strings.Cut(block, "==================")
		for _, m := range raceSiteRE.FindAllStringSubmatch(block, -1) {
			r.races = append(r.races, m[1])
		}
		if len(r.races) == 0 {
			r.races = append(r.races, "") // a report without sites
		}
	}
	if loc := plainPanicRE.FindStringIndex(stderr); loc != nil {
		text := stderr[loc[0]:]
		if i := strings.Index(text, plainLeftMarker); i >= 0 {
			text = text[:i]
		}
		r.crash = fromCrash(text, nil, false)
		r.failed = true
		if strings.HasPrefix(r.crash.message, "panic: test timed out") {
			r.timedOut = true
		}
		r.deadlocked = strings.HasPrefix(r.crash.message, "fatal error: all goroutines are asleep")
	}
	return r
}

// plainOwn reports whether a stack is the wrapper's own.
func plainOwn(frames []checks.Frame) bool {
	for _, f := range frames {
		if strings.Contains(f.Func, ".TestInterleavePlain") || strings.Contains(f.Func, ".interleavePlainStacks") {
			return true
		}
	}
	return false
}

// osExitRE reads the status of a test that called os.Exit.
var osExitRE = regexp.MustCompile(`os\.Exit\((\d+)\) called during the test`)

// entrySiteInRE finds the "file.go:12" a test failure's words start with.
var entrySiteInRE = regexp.MustCompile(`(\S+\.go:\d+): `)

// sameAsPlain reports whether a plain run failed the way f did: a test
// failure at the same line (or the same words), a panic or fatal error at
// the same site (or with the same message), a leak of the same goroutines
// (each of f's matches one left by the plain run), a deadlock or hang
// where plain go test timed out.
func sameAsPlain(f *failure, r plainRun, dir string) bool {
	switch {
	case f.kind == checks.Leak || f.kind == checks.TestFailure && f.late:
		// A failure after the test returned, by a goroutine it left:
		// plain go test's process ends first, so it is the same when
		// plain go test leaves the goroutines the failure left (the one
		// that failed it may have ended since), as for a leak.
		return leavesSame(f, r)
	case f.kind == checks.TestFailure:
		if !r.failed || r.crash != nil || r.timedOut {
			return false
		}
		m := entrySiteInRE.FindStringSubmatch(f.message)
		if m == nil {
			return true // nothing more precise to compare
		}
		var plainEntry string
		if len(r.logs) > 0 {
			plainEntry = failureEntry(r.logs, dir)
		}
		pm := entrySiteInRE.FindStringSubmatch(plainEntry)
		return pm != nil && filepath.Base(pm[1]) == filepath.Base(m[1])
	case f.kind == checks.Deadlock || f.isHang():
		return r.timedOut || r.deadlocked
	case f.kind == checks.DataRace:
		// The race detector reported a race through f's site (any race,
		// when f has none).
		for _, site := range r.races {
			if f.site == "" || site != "" && sameSite(f.site, site) {
				return true
			}
		}
		return false
	case f.kind == checks.Fatal && osExitRE.MatchString(f.message):
		m := osExitRE.FindStringSubmatch(f.message)
		return r.crash == nil && !r.timedOut && strconv.Itoa(r.exitCode) == m[1]
	case f.kind == checks.Panic || f.kind == checks.Fatal:
		if r.crash == nil || r.timedOut {
			return false
		}
		if f.site != "" && r.crash.site != "" && sameSite(f.site, r.crash.site) {
			return true
		}
		return normalizeMessage(f.message) == normalizeMessage(r.crash.message)
	}
	return false
}

// leavesSame: did plain run r leave behind every goroutine f (a leak, or
// a failure after the test returned) names?
func leavesSame(f *failure, r plainRun) bool {
	if len(f.goroutines) == 0 || len(r.left) == 0 {
		return false
	}
	var funcs sourceFuncs
	running := f.isRunningLeak() && someRunning(f)
	for _, g := range f.goroutines {
		if running && !leakRunning(f, g) {
			// A loop left running ran on under the virtual clock to
			// timers plain go test's real clock had not reached (a
			// rotation due at the next half hour): what it started
			// meanwhile and left blocked is its doing, not another
			// goroutine the test left.
			continue
		}
		found := false
		for _, p := range r.left {
			if sameGoroutine(g, p, &funcs) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// someRunning: does running leak f say one of its goroutines runs?
func someRunning(f *failure) bool {
	for _, g := range f.goroutines {
		if leakRunning(f, g) {
			return true
		}
	}
	return false
}

// leakRunning: does leak f's message say g is running ("g1 running at
// Once.Do at p.go:9", "g1 running in a loop the clock wakes: …"), not
// blocked (rt's blockedFailure)?
func leakRunning(f *failure, g checks.Goroutine) bool {
	return g.ID != "" && strings.Contains(f.message, " "+g.ID+" running ")
}

// sameGoroutine reports whether a goroutine of a leak finding and one a
// plain run left are the same: the function one is stuck in is on the
// other's stack (the rewrite may wrap the function a goroutine starts in
// a literal, so the outermost frames can differ). Functions are the same
// by name, or by the function declaration or literal around their lines
// in the source (funcs): the rewrite turns a go statement into a call, so
// the compiler may inline the function holding it, which renames its
// literals (go-generics-cache's janitor, (*janitor).run.func1 under plain
// go test, is NewContext[...].(*janitor).run.func2 under interleave).
func sameGoroutine(g, p checks.Goroutine, funcs *sourceFuncs) bool {
	gu, pu := userFrames(g.Stack), userFrames(p.Stack)
	if len(gu) == 0 || len(pu) == 0 {
		return false
	}
	has := func(fs []checks.Frame, fn checks.Frame) bool {
		for _, f := range fs {
			if funcs.same(f, fn) {
				return true
			}
		}
		return false
	}
	return has(pu, gu[0]) || has(gu, pu[0])
}

// sourceFuncs finds the function around a frame's line in its source file,
// each file parsed once.
type sourceFuncs struct {
	files map[string][]funcSpan // nil: the file did not parse
}

// funcSpan is the lines of one function declaration or literal, and where
// it starts.
type funcSpan struct {
	from, to int
	at       string
}

// same reports whether frames a and b are in the same function: the same
// name without closure numbers, or the same innermost function declaration
// or literal around their lines in one source file.
func (sf *sourceFuncs) same(a, b checks.Frame) bool {
	if closureRE.ReplaceAllString(a.Func, ".func") == closureRE.ReplaceAllString(b.Func, ".func") {
		return true
	}
	if a.File == "" || filepath.Clean(a.File) != filepath.Clean(b.File) {
		return false
	}
	fa, fb := sf.around(a.File, a.Line), sf.around(b.File, b.Line)
	return fa != "" && fa == fb
}

// around returns where the innermost function around line of file starts
// ("" when none, or the file does not parse).
func (sf *sourceFuncs) around(file string, line int) string {
	if sf.files == nil {
		sf.files = map[string][]funcSpan{}
	}
	spans, ok := sf.files[file]
	if !ok {
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution); err == nil {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					from, to := fset.Position(n.Pos()), fset.Position(n.End())
					spans = append(spans, funcSpan{from: from.Line, to: to.Line, at: from.String()})
				}
				return true
			})
		}
		sf.files[file] = spans
	}
	at, from := "", 0
	for _, s := range spans {
		// The innermost: a literal starts after what holds it (two on
		// one line are one function here).
		if s.from <= line && line <= s.to && s.from >= from {
			at, from = s.at, s.from
		}
	}
	return at
}

// howTold is howPlain for a note about a finding labelled p, or why
// plain go test could not be run to tell when it was not.
func (o *plainOutcome) howTold(p *checks.PlainGo, dir string) string {
	if p.Runs == 0 {
		return "plain go test could not be run to tell (" + p.NotRun + ")"
	}
	return o.howPlain(dir)
}

// howPlain says what plain go test did, for a note: how many of its runs
// failed, with the last one's exit status and failure line (dir: the
// package's, for the line's file).
func (o *plainOutcome) howPlain(dir string) string {
	failed, last := o.failedRuns()
	if failed == 0 {
		return o.tested + " passed"
	}
	return fmt.Sprintf("%s: %d failed (%s: %s)", o.tested, failed, checks.ExitStatus(last.exitCode), last.failureLine(dir))
}

// failedRuns returns how many runs of o failed and the last that did.
func (o *plainOutcome) failedRuns() (int, plainRun) {
	failed := 0
	var last plainRun
	for _, r := range o.runs {
		if r.failed {
			failed++
			last = r
		}
	}
	return failed, last
}

// plainWindow builds t's package for plain go test and returns the binary
// and the timeout of one run: long enough for a test that passes, within
// end. ok is false when the build failed (recorded in *out) or less than
// a second is left before end (not decided; nothing is built then).
func (s *search) plainWindow(ctx context.Context, t *target, out **plainOutcome, end time.Time) (bin string, timeout time.Duration, ok bool) {
	if time.Until(end) < time.Second {
		return "", 0, false
	}
	pb := s.plainBin(ctx, t.pkg)
	if pb.err != nil {
		s.mu.Lock()
		*out = &plainOutcome{err: pb.err}
		s.mu.Unlock()
		return "", 0, false
	}
	timeout = min(max(2*t.plainCost(), 10*time.Second), time.Until(end))
	if timeout < time.Second {
		return "", 0, false
	}
	return pb.bin, timeout, true
}

// beforeReplays is when the plain go test runs that only label failures
// (checkLeftRunning) must end while the search goes on: the search's
// deadline, or earlier, so that the replays of the failures found so far
// (replaysReserve) still fit before the hard stop. A finding must replay;
// its label can say plain go test was not run. Before, a ticker loop's
// leak (tickerstopsignal, 600 ms a schedule) had its three plain runs take
// 2.3 s of the 2.9 s its replays were kept (load 33), and was dropped, "no
// time was left in the budget to replay its schedule alone".
func (s *search) beforeReplays() time.Time {
	if s.hardStop.IsZero() {
		return s.deadline
	}
	return minTime(s.deadline, s.hardStop.Add(-s.replaysReserve()))
}

// checkLeftRunning runs t under plain go test once its search is over, when
// a later schedule left goroutines still running after the test returned
// (rt.LeakRunning) that the unperturbed schedule did not, and the
// unperturbed schedule's check did not run plain go test already: Run
// then labels the leak with whether plain go test leaves the same
// goroutines behind (the test's own clean-up). It waits, and the runs
// end, by stop (the end of the stage's part of the budget) and
// beforeReplays; with too little time left, labelPlain asks after the
// replays.
func (s *search) checkLeftRunning(ctx context.Context, t *target, stop time.Time) {
	s.mu.Lock()
	pending := t.plainCheck
	s.mu.Unlock()
	if pending != nil {
		// Its plainGo, when it ran, answers for the leak too; one still
		// running at stop answers later (Run waits for it before the
		// labels), as when it ran.
		waitCtx, cancel := context.WithDeadline(ctx, stop)
		defer cancel()
		select {
		case <-pending:
		case <-waitCtx.Done():
			return
		}
	}
	s.mu.Lock()
	var fs []*failure
	for _, k := range s.order {
		if f := s.failures[k]; s.owners[k] == t && f.isRunningLeak() && !t.plainKeys[f.key()] {
			fs = append(fs, f)
		}
	}
	asked := t.plainGo != nil || t.leftGo != nil
	s.mu.Unlock()
	if len(fs) == 0 || asked {
		return
	}
	end := minTime(stop, s.beforeReplays())
	bin, timeout, ok := s.plainWindow(ctx, t, &t.leftGo, end)
	if !ok {
		return // labelPlain runs it after the replays, if time is left
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	out := s.runPlain(ctx, t, bin, plainRuns, timeout, func(r plainRun) bool {
		for _, f := range fs {
			if !sameAsPlain(f, r, t.pkg.Dir) {
				return false
			}
		}
		return true
	})
	s.mu.Lock()
	t.leftGo = out
	s.mu.Unlock()
}

// toolFailure is a failure noted as the tool's doing: the unperturbed
// schedule of its test fails, plain go test does not fail so. place is
// failPlace's; plainFailed: plain go test failed every run, another way.
type toolFailure struct {
	pkg, test, msg, site, place string
	plainFailed                 bool
}

// toolFailureOf is f, of t's unperturbed schedule, as a toolFailure.
func toolFailureOf(t *target, f *failure) toolFailure {
	tf := toolFailure{pkg: t.pkg.ImportPath, test: t.name, msg: normalizeMessage(f.message), site: f.site, place: failPlace(f)}
	if t.plainGo != nil {
		failed, _ := t.plainGo.failedRuns()
		tf.plainFailed = failed > 0 && failed == len(t.plainGo.runs)
	}
	return tf
}

// plainSays is what plain go test did with tf's test, for a note.
func (tf *toolFailure) plainSays() string {
	if tf.plainFailed {
		return "plain go test fails only another way"
	}
	return "plain go test passes"
}

// sibling returns the failure the tool caused in t's package that f is
// taken for (nil when none). In t itself: one with f's message
// or at f's site (go-pkgz/pool's TestPool_WaitTimeAccuracy: "wait time
// (436µs) should be greater than 35ms" there, a note, and "(4.6ms)" on a
// later schedule, a finding). In another test: one with f's message at
// f's place, both. A place alone is shared by every failure through one
// helper line (a panic in a helper many tests call), and a message alone
// by every failure worded alike (each generated test's "not
// linearizable" before its first line named its type and calls: one
// generated test the tool failed filed every true finding of its package
// as the tool's); the same words at the same line are a server helper's
// panic that several tests call (the NATS client of issue 21).
func sibling(tools []toolFailure, t *target, f *failure) *toolFailure {
	msg, place := normalizeMessage(f.message), failPlace(f)
	for i := range tools {
		tf := &tools[i]
		if tf.pkg != t.pkg.ImportPath {
			continue
		}
		sameMsg := tf.msg == msg
		if tf.test == t.name && (sameMsg || tf.site != "" && tf.site == f.site) {
			return tf
		}
		if tf.test != t.name && sameMsg && place != "" && tf.place == place {
			return tf
		}
	}
	return nil
}

// failPlace is where f failed, for sibling: for a test failure, the
// file:line its failing entry starts with (the test's own line, or a
// helper's that does not call t.Helper; its site is the test function),
// "" when it has none; for any other failure, its site.
func failPlace(f *failure) string {
	if f.kind != checks.TestFailure {
		return f.site
	}
	if m := entrySiteInRE.FindStringSubmatch(firstLine(f.message)); m != nil {
		return m[1]
	}
	return ""
}

// labelPlain labels each finding (fs[i] is the failure keys[i]) with what
// plain go test did with its test, running it for the tests it has not run
// for yet. A finding sibling takes for a failure the tool caused (in its
// test or another of its package), which plain go test ran and neither
// failed this way nor left its goroutines behind, is the tool's doing too:
// a note, not a finding. It returns the findings and
// keys kept.
func (s *search) labelPlain(ctx context.Context, fs []checks.Finding, keys []string, tools []toolFailure) ([]checks.Finding, []string) {
	byTarget := map[*target][]*failure{}
	var order []*target
	for _, k := range keys {
		t := s.owners[k]
		if t.plainGo != nil && t.plainGo.err == nil || t.leftGo != nil && t.leftGo.err == nil {
			continue
		}
		if byTarget[t] == nil {
			order = append(order, t)
		}
		byTarget[t] = append(byTarget[t], s.failures[k])
	}
	// Each test takes its fair part of what is left of the budget (a
	// minute in all for a search built by hand, without one).
	end := s.hardStop
	if end.IsZero() {
		end = time.Now().Add(time.Minute)
	}
	for i, t := range order {
		now := time.Now()
		t.labelGo = s.plainForLabels(ctx, t, byTarget[t], now.Add(fairShare(now, end, len(order)-i)))
	}
	var outF []checks.Finding
	var outK []string
	for i, k := range keys {
		f, t := s.failures[k], s.owners[k]
		var o *plainOutcome
		for _, c := range []*plainOutcome{t.plainGo, t.leftGo, t.labelGo} {
			if c != nil && (o == nil || o.err != nil) {
				o = c
			}
		}
		if o == nil {
			o = &plainOutcome{err: errBudgetOut}
		}
		fs[i].PlainGo = o.label(f, t.pkg.Dir)
		keepOrderIfAloneFails(&fs[i])
		if p := fs[i].PlainGo; !p.Fails() && countsAllocs(f) {
			// A count of allocations plain go test does not fail on: an
			// instrumented build allocates where the code does not.
			s.note(fmt.Sprintf("%s: not reported, the tool's doing: it fails counting allocations (%s) %s, and %s: the instrumented build allocates where the code does not (a scheduling point of interleave's runtime, a rewritten statement); please report it; to look: %s",
				t.name, firstLine(f.message), fs[i].Frequency.Label(), o.howTold(p, t.pkg.Dir), fs[i].Replay))
			continue
		}
		if p := fs[i].PlainGo; !p.Fails() && !p.LeavesSame {
			if sib := sibling(tools, t, f); sib != nil {
				// Like a failure the tool caused in a sibling test: a
				// finding only when plain go test fails this way too;
				// when it passes, or could not be run to tell, it is a
				// note (precision first).
				s.note(fmt.Sprintf("%s: not reported, most likely the tool's doing: it fails (%s) %s, as %s does on its unperturbed schedule where %s, and %s; to look: %s",
					t.name, firstLine(f.message), fs[i].Frequency.Label(), sib.test, sib.plainSays(), o.howTold(p, t.pkg.Dir), fs[i].Replay))
				continue
			}
		}
		outF = append(outF, fs[i])
		outK = append(outK, k)
	}
	return outF, outK
}

// plainForLabels runs t under plain go test after its search, to label
// its failures fs: until a run fails the way all of them do, at most
// plainRuns times, until end (its part of the budget).
func (s *search) plainForLabels(ctx context.Context, t *target, fs []*failure, end time.Time) *plainOutcome {
	if !time.Now().Before(end) {
		return &plainOutcome{err: errBudgetOut} // and nothing built past it
	}
	pb := s.plainBin(ctx, t.pkg)
	if pb.err != nil {
		return &plainOutcome{err: pb.err}
	}
	n := plainRuns
	for _, f := range fs {
		if f.kind == checks.Deadlock || f.isHang() || f.isLivelock() {
			n = 1 // seen hanging once is enough
		}
	}
	timeout := max(2*t.plainCost(), 10*time.Second)
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	out := s.runPlain(ctx, t, pb.bin, n, timeout, func(r plainRun) bool {
		for _, f := range fs {
			if r.exitCode == 0 || !sameAsPlain(f, r, t.pkg.Dir) {
				return false
			}
		}
		return true
	})
	if out.err != nil && (ctx.Err() != nil || errors.Is(out.err, errBudgetOut)) {
		out.err = errBudgetOut
	}
	return out
}

// errBudgetOut is why plain go test did not run (or not as often as it
// would have): the label says "plain go test not run: the budget ran out".
var errBudgetOut = errors.New("the budget ran out")

// plainCost is what one plain go test run of t costs at least: its
// measured cost under control, or, when longer, the time its sleeps and
// timers take for real (virtual). A timeout under it is no hang: chanx's
// TestLen sleeps 2 s, costs 0.1 s under control, and its plain run cut at
// 2.97 s was told as "plain go test fails too: test timed out".
func (t *target) plainCost() time.Duration { return max(t.cost, t.virtual) }

// plainTimeout is the -test.timeout of a plain run that must end by the
// deadline of ctx (if any): want, or less when less is left; ok is false
// when what is left is not enough for one run of a test that costs cost.
// full is false when the timeout is less than want and less than twice
// the cost and a second: a run that times out then is cut short, no hang.
func plainTimeout(ctx context.Context, want, cost time.Duration) (timeout time.Duration, ok, full bool) {
	dl, has := ctx.Deadline()
	if !has {
		return want, true, true
	}
	// The process exits some time after its timeout fires: a quarter of
	// what is left, at most childGrace, is kept for that.
	left := time.Until(dl)
	left -= min(left/4, childGrace)
	timeout = min(want, left)
	return timeout, timeout >= cost+processStartup, timeout >= min(want, 2*cost+time.Second)
}

// label says what plain go test (o) did with f: how many runs exited
// non-zero the way f fails, else how the first non-zero one failed; when
// only its stress run failed so, that run, with its command.
func (o *plainOutcome) label(f *failure, dir string) *checks.PlainGo {
	p := &checks.PlainGo{Command: o.command}
	if o.err != nil && len(o.runs) == 0 {
		p.NotRun = firstLine(o.err.Error())
		return p
	}
	var stressed *plainRun
	for i, r := range o.runs {
		if r.stress > 0 {
			stressed = &o.runs[i]
			continue
		}
		p.Runs++
		same := sameAsPlain(f, r, dir)
		leftOnly := same && (f.kind == checks.Leak && !failsOnGoroutines(r) || f.late)
		switch {
		case same && r.exitCode != 0 && !leftOnly:
			if p.Failed == 0 {
				p.ExitCode, p.Failure = r.exitCode, r.failureLine(dir)
			}
			p.Failed++
		case r.exitCode != 0 && p.Failed == 0 && p.ExitCode == 0:
			p.ExitCode, p.Failure = r.exitCode, r.failureLine(dir)
		}
		if same && (f.kind == checks.Leak || f.late) {
			p.LeavesSame = true
		}
	}
	if r := stressed; p.Failed == 0 && r != nil && r.exitCode != 0 && sameAsPlain(f, *r, dir) {
		return &checks.PlainGo{Command: o.stressCommand, Runs: 1, Failed: 1, ExitCode: r.exitCode, Failure: r.failureLine(dir)}
	}
	return p
}

// failsOnGoroutines: the run failed for goroutines left behind (goleak's
// "found unexpected goroutines", a check of runtime.NumGoroutine), not for
// something else that happened while they were left.
func failsOnGoroutines(r plainRun) bool {
	if r.exitCode == 0 || r.crash != nil || r.timedOut || len(r.races) > 0 {
		return false
	}
	for _, e := range r.logs {
		if strings.Contains(strings.ToLower(e), "goroutine") {
			return true
		}
	}
	return strings.Contains(strings.ToLower(r.output), "unexpected goroutines")
}

// failureLine is the first line of how a run failed.
func (r plainRun) failureLine(dir string) string {
	switch {
	case r.crash != nil:
		return firstLine(r.crash.message)
	case r.timedOut:
		return fmt.Sprintf("timed out after %v", r.timeout)
	case len(r.races) > 0:
		return "WARNING: DATA RACE"
	case len(r.logs) > 0:
		return firstLine(failureEntry(r.logs, dir))
	}
	return fmt.Sprintf("exit status %d", r.exitCode)
}

var allocWordRE = regexp.MustCompile(`(?i)\b(allocs?|allocations?|allocated|mallocs)\b`)

// messageNumberRE finds the numbers of a message, not those of a
// file:line or a name.
var messageNumberRE = regexp.MustCompile(`(?:^|[^\w.:])(\d+(?:\.\d+)?)`)

// countsAllocs: f is a test's failure on a count of allocations. Its
// schedule read one (rt's AllocsPerRun, ReadMemStats), and its message
// holds a nonzero count read (testify's "expected: 0 actual : 45") or
// names allocations and a number. A test that counts nothing fails on
// its own words, whatever they say.
func countsAllocs(f *failure) bool {
	if f.kind != checks.TestFailure || f.allocReads == 0 {
		return false
	}
	if allocWordRE.MatchString(f.message) && strings.ContainsAny(f.message, "0123456789") {
		return true
	}
	for _, m := range messageNumberRE.FindAllStringSubmatch(f.message, -1) {
		x, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			continue
		}
		if slices.Contains(f.allocCounts, x) {
			return true
		}
	}
	return false
}

// keepOrderIfAloneFails drops fd's "passed only after other tests" unless
// plain go test, the test alone, failed on every run: only then does the
// order decide it; else the schedule may.
func keepOrderIfAloneFails(fd *checks.Finding) {
	q, p := fd.Frequency, fd.PlainGo
	if q != nil && q.PassedOnlyAfterOthers && (p == nil || p.Runs == 0 || p.Failed < p.Runs) {
		q.PassedOnlyAfterOthers = false
	}
}
