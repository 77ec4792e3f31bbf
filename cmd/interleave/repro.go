package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/failurelog"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

// nearDrift is how many lines away repro looks for the log's failure to
// tell that the log may come from another commit.
const nearDrift = 3

// defaultDrift is -line-drift's default: logs in issues come from commits
// near, not at, the release the proxy serves (docs/figures.md, "Reproducing
// real CI logs (seventeenth session)": one line gained suture's deadlock,
// three gained nothing more, no match off the lines was another failure).
const defaultDrift = 1

// repro's own exit codes, next to exitFindings (reproduced) and exitError.
const (
	exitReproNoTest     = 3 // the log shows a failure but names no test
	exitReproNotFound   = 4 // the log's test is not in this module
	exitReproNotReached = 5 // the budget ended without the log's failure
	exitReproBounded    = 6 // every schedule stopped at the step bound
)

const reproHelp = `Reads a CI log (a file, or - for standard input) holding the output of go
test, as text or go test -json events: a panic, a race detector report (WARNING: DATA RACE), a test timeout's
goroutine dump (panic: test timed out after ...), the runtime's deadlock
(fatal error: all goroutines are asleep), another fatal error, or a test's
own failure message. It finds the package and the test (from the stacks,
--- FAIL lines, === RUN lines, -run in the log) and the frames involved,
then searches that test's schedules, preempting first at those frames,
until the same failure happens: the same kind and message, and the same top
in-module frames of the goroutines involved. It writes that schedule, tells
its interleaving and prints the command that replays it. A different
failure met on the way is never reported as the log's.

Exit status: 1 reproduced (the report has the finding); 2 could not run
(bad flags, an unreadable log, a log with no failure, a build failure);
3 the log names no test (pass -test); 4 the test is not in this module;
5 the budget ended without the log's failure; 6 inconclusive: every
schedule stopped at the step bound before the test ended (-max-steps).`

func init() {
	register(&command{
		name:  "repro",
		short: "Turn a failure in a CI log into a schedule that replays it",
		usage: "[flags] LOG",
		run:   parsed(parseReproFlags, runRepro),
	})
}

// reproOptions is what `interleave repro` was asked to do.
type reproOptions struct {
	searchFlags
	log      string // path, or "-"
	test     string // -test: the test, when the log names none
	pkg      string // -pkg: the package, when the log names none
	failure  int    // -failure: which failure of the log, from 1
	drift    int    // -line-drift: how far the log's lines may be
	runs     int    // -runs: runs of the test per schedule (0: from the log)
	maxSteps int    // -max-steps: the step bound of a schedule (0: rt's)
	tags     []string
	tagsFrom string // where tags came from
}

// reproStdin is where `repro -` reads the log (tests replace it).
var reproStdin io.Reader = os.Stdin

func parseReproFlags(env *cliEnv, args []string) (opts reproOptions, code int, ok bool) {
	fs := newFlagSet(env, commands["repro"])
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "%s\n\nUsage: interleave repro [flags] LOG\n\n%s\n\nFlags:\n", commands["repro"].short, reproHelp)
		fs.PrintDefaults()
	}
	opts.register(fs, searchHelp{
		budget:   "Wall time of the search, builds excluded",
		target:   "Favour preemption at these `file:line,...` sites too, besides the log's frames",
		seed:     "Seed of the first schedule (default time-based, printed so the run can be repeated)",
		race:     "Build the test with the race detector (a data race log needs it)",
		workers:  "Worker processes (default GOMAXPROCS)",
		watchdog: "Call a schedule hung when a goroutine runs this `long` without reaching a scheduling point",
		verbose:  "Print each failure met that is not the log's, and why",
	})
	fs.StringVar(&opts.test, "test", "", "Search this test `name` when the log names none (or another one)")
	fs.StringVar(&opts.pkg, "pkg", "", "The test's package `import path`, when the log names none")
	fs.IntVar(&opts.failure, "failure", 1, "Reproduce the `n`-th failure of the log")
	fs.IntVar(&opts.runs, "runs", 0, "Run the test `n` times in a row in each schedule, as go test -count=n does in one process (default: as the log shows, else 1)")
	fs.IntVar(&opts.maxSteps, "max-steps", 0, fmt.Sprintf("Stop every schedule after `n` scheduling steps, inconclusive (default: %d for the unperturbed schedule, which runs once more with %d when it stops there and the budget has the time; then twice the steps it took, at least %d; a test that needs more ends at it in every schedule: repro says so and exits 6)", explore.PlainMaxSteps, explore.LongerMaxSteps, rt.DefaultMaxSteps))
	fs.IntVar(&opts.drift, "line-drift", defaultDrift, "Accept the log's frames up to `n` lines away, in the same functions, and a test's failure message logged up to n lines away in the same file (a log from another commit than this checkout; 0: only the log's lines)")
	tags := tagsFlag(fs, "the search, its plain go test runs and the schedule's replays use them")
	if code, ok := opts.parse(env, fs, args); !ok {
		return opts, code, false
	}
	bad := func(format string, a ...any) (reproOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave repro: "+format+"\n", a...)
		fs.Usage()
		return opts, exitError, false
	}
	if fs.NArg() != 1 {
		return bad("want exactly one log file (or - for standard input), got %d arguments", fs.NArg())
	}
	opts.log = fs.Arg(0)
	if opts.drift < 0 {
		return bad("-line-drift counts lines, got %d", opts.drift)
	}
	if opts.maxSteps < 0 {
		return bad("-max-steps counts steps, got %d", opts.maxSteps)
	}
	if opts.runs < 0 {
		return bad("-runs counts runs, got %d", opts.runs)
	}
	if opts.failure < 1 {
		return bad("-failure counts from 1, got %d", opts.failure)
	}
	if opts.test != "" && failurelog.RunPatternTest(opts.test) != opts.test {
		return bad("-test wants a top-level test function name such as TestFoo, got %q", opts.test)
	}
	var err error
	if opts.tags, opts.tagsFrom, err = buildTags(env, fs, *tags); err != nil {
		configError(env, "repro", err)
		return opts, exitError, false
	}
	return opts, 0, true
}

// runRepro reads the log, searches its test for the log's failure and
// writes the report; it returns the exit code.
func runRepro(ctx context.Context, env *cliEnv, opts reproOptions) int {
	say := func(format string, a ...any) { fmt.Fprintf(env.stderr, "interleave repro: "+format+"\n", a...) }
	w, err := report.New(opts.format)
	if err != nil {
		say("%v", err)
		return exitError
	}
	f, mod, runs, code := reproFailure(ctx, env, opts, say)
	if code != 0 {
		return code
	}
	inMod := failurelog.InModule(mod)
	sig := f.Signature(inMod)
	sig.Drift = opts.drift
	// near is the signature with lines a few away: met, it says the log
	// may come from another commit (told, never taken for the log's).
	// nearAt[d] counts those the drift d is the least to accept, and
	// nearWhat[d] is the first of them.
	var nearAt, nearWhat = map[int]int{}, map[int]string{}
	// valuesNear counts the failures met that are the log's but for the
	// values of its message or testify assertion (an expected value
	// differs, a count measured is on the other side of it; counts of
	// goroutines, of a process's state, differ between machines): told,
	// never taken for the log's.
	var valuesNear int
	var valuesWhat string
	noValues := sig
	noValues.Expected, noValues.Actual, noValues.Numbers = "", "", ""
	hasValues := sig.Expected != "" || sig.Actual != "" || sig.Numbers != ""
	nearOf := func(fd checks.Finding) int {
		for d := sig.Drift + 1; d <= max(sig.Drift, nearDrift); d++ {
			nd := sig
			nd.Drift = d
			if ok, _ := nd.Match(fd, inMod); ok {
				return d
			}
		}
		return 0
	}
	if len(f.Live) > 0 {
		var ls []string
		for _, g := range f.Live {
			fn := "?"
			if len(g.Frames) > 0 {
				fn = g.Frames[0].Func
			}
			ls = append(ls, fmt.Sprintf("goroutine %d [%s] in %s", g.ID, g.State, fn))
		}
		say("not in the signature: %s: waiting less than a minute when others had waited minutes, so live (a timer wakes them), not blocked in the hang", strings.Join(ls, ", "))
	}
	if len(sig.Stacks) == 0 && f.Kind == failurelog.Timeout {
		say("note: the log shows none of the hung goroutines of module %s: any hang of %s is the log's", mod, f.Test)
	} else if len(sig.Stacks) == 0 && f.Kind != failurelog.TestFailure {
		say("note: the log shows no frame of module %s for this failure; only its kind and message can be matched", mod)
	}
	if f.Kind == failurelog.DataRace && !opts.race {
		say("the log is a data race and the race detector is off (-race=false, or no cgo here): it cannot be reproduced")
		return exitError
	}
	targets := append(sig.Targets(), opts.targets...)
	say("signature: %s", sig)
	if len(targets) > 0 {
		say("preempting first at %s", strings.Join(targets, ", "))
	}
	say("seed %d (repeat with -seed %d), budget %v", opts.seed, opts.seed, opts.budget)
	if len(opts.tags) > 0 {
		say("build tags %s (%s)", strings.Join(opts.tags, ","), opts.tagsFrom)
	}

	var mu sync.Mutex
	misses := map[string]int{}
	var order []string
	until := func(fd checks.Finding) bool {
		ok, why := sig.Match(fd, inMod)
		if !ok {
			mu.Lock()
			if d := nearOf(fd); d > 0 {
				if nearAt[d] == 0 {
					nearWhat[d] = firstLineOf(fd.Message) + " at " + fd.Pos.String()
				}
				nearAt[d]++
			}
			if hasValues {
				if ok, _ := noValues.Match(fd, inMod); ok {
					if valuesNear == 0 {
						valuesWhat = firstLineOf(fd.Message)
					}
					valuesNear++
				}
			}
			if misses[why] == 0 {
				order = append(order, why)
			}
			misses[why]++
			mu.Unlock()
		}
		return ok
	}
	// A failure after an early timer (rt files it inconclusive: most
	// likely the test's own timeout) is the log's when it matches: the
	// log shows plain go test failing so. Any other stays inconclusive.
	keepEarly := func(fd checks.Finding) bool {
		ok, why := sig.Match(fd, inMod)
		if !ok {
			why = "after a timer fired early (inconclusive): " + why
			mu.Lock()
			if misses[why] == 0 {
				order = append(order, why)
			}
			misses[why]++
			mu.Unlock()
		}
		return ok
	}
	prog := newProgress(env.stderr)
	prog.name = "repro"
	began := time.Now()
	o := opts.options(env.dir)
	o.Patterns, o.Tags = []string{f.Package}, opts.tags
	o.Tests = []explore.TestRef{{Package: f.Package, Name: f.Test}}
	o.Targets = targets
	o.Progress, o.Stage = prog.update, prog.stage
	o.Until = until
	o.KeepEarly = keepEarly
	o.Runs = runs
	o.MaxSteps = opts.maxSteps
	o.TestTimeout = f.TestTimeout()
	isLog := func(fd checks.Finding) bool { ok, _ := sig.Match(fd, inMod); return ok }
	// The log is plain go test showing its failure: met on the
	// unperturbed schedule, it is not the tool's doing because plain runs
	// here pass (a run as long as the log's may be what it needs).
	o.PlainShown = isLog
	res, err := searchRounds(ctx, o, isLog, say)
	prog.done()
	if err != nil {
		var be *explore.BuildError
		var nt *explore.NoTestsError
		switch {
		case errors.As(err, &be):
			say("%s", buildFailed(be.Package, "does not compile", be.Output))
		case errors.As(err, &nt):
			say("test %s.%s not found in this checkout (renamed or removed since the log?)", f.Package, f.Test)
			return exitReproNotFound
		default:
			say("%v", err)
		}
		return exitError
	}
	for _, n := range res.Notes {
		say("note: %s", n)
	}
	var match *checks.Finding
	var others []checks.Finding
	// The log's failure happened under plain go test: the search labels
	// it so (plain go test fails too), which is still it.
	for _, fd := range res.Findings {
		if ok, _ := sig.Match(fd, inMod); ok && match == nil && res.Met {
			fd := fd
			match = &fd
			continue
		}
		others = append(others, fd)
	}
	st := res.Stats
	if opts.verbose || match == nil {
		for _, why := range order {
			say("met a failure that is not the log's (%d×): %s", misses[why], why)
		}
	}
	for _, o := range others {
		say("also found, not the log's failure: %s (schedule %s)", firstLineOf(o.Message), o.Schedule)
	}
	// Schedules stopped by the step bound say nothing either way: a
	// search where every one did is inconclusive, not a miss.
	bounded := 0
	at, bound := fmt.Sprintf("%d scheduling steps", cmp.Or(opts.maxSteps, rt.DefaultMaxSteps)), cmp.Or(opts.maxSteps, rt.DefaultMaxSteps)
	for _, ts := range st.Tests {
		bounded += ts.StepBound
		if ts.StepBound > 0 {
			at, bound = prjob.StepBoundOf(ts, opts.maxSteps)
		}
	}
	allBounded := match == nil && bounded > 0 && bounded >= st.Schedules
	var boundNote string
	if match == nil && bounded > 0 {
		boundNote = fmt.Sprintf("%d of %d schedules of %s stopped at the step bound (%s) before the test ended: inconclusive, neither the log's failure nor a pass", bounded, st.Schedules, f.Test, at)
		if allBounded {
			boundNote += fmt.Sprintf("; the test needs more steps than that (try -max-steps %d)", 10*bound)
		}
	}
	notes := res.Notes
	if boundNote != "" {
		notes = append(notes[:len(notes):len(notes)], boundNote)
	}
	rep := &report.Report{Root: env.dir, ToolVersion: toolVersion(), Tests: prjob.TestRuns(st), Notes: notes}
	if match != nil {
		rep.Findings = []checks.Finding{*match}
	}
	if err := writeReport(env, w, rep, opts.output); err != nil {
		say("%v", err)
		return exitError
	}
	if match == nil && len(nearAt) > 0 {
		var ds []int
		for d := range nearAt {
			ds = append(ds, d)
		}
		sort.Ints(ds)
		for _, d := range ds {
			say("%d of the failures met are the log's but for line numbers, -line-drift %d accepts them (at most %d lines away, in the same functions; the first: %s): the log may come from another commit than this checkout", nearAt[d], d, d, nearWhat[d])
		}
	}
	if boundNote != "" {
		say("%s", boundNote)
	}
	if allBounded {
		say("inconclusive: step bound: every one of the %d schedules stopped at the step bound (%s) before the test ended, so none could show the log's %s", st.Schedules, at, f.Kind)
		return exitReproBounded
	}
	if match == nil && valuesNear > 0 {
		values := fmt.Sprintf("expected %s, actual %s", sig.Expected, sig.Actual)
		if sig.Numbers != "" {
			values = fmt.Sprintf("the log's %q", sig.Numbers)
		}
		say("%d of the failures met are the log's assertion at its line but with other values than %s (the first: %s): not the log's failure, or values that depend on the machine", valuesNear, values, valuesWhat)
	}
	if match == nil {
		say("not reproduced: %d schedules in %.1fs (budget %v) did not show the log's %s; try a larger -budget or another -seed",
			st.Schedules, st.Elapsed.Seconds(), opts.budget, f.Kind)
		return exitReproNotReached
	}
	say("reproduced %s's %s after %d schedules, %.1fs of search (%.1fs in all, with the build)",
		f.Test, f.Kind, st.Schedules, st.Elapsed.Seconds(), time.Since(began).Seconds())
	if exact := sig; exact.Drift > 0 {
		exact.Drift = 0
		if ok, why := exact.Match(*match, inMod); !ok {
			say("matched within -line-drift %d only, not at the log's lines (%s): the log's code is a few lines off this checkout's, or this is another failure in the same functions", sig.Drift, why)
		}
	}
	if opts.format != "text" || opts.output != "" {
		// The text report on standard output tells it already.
		if lines := report.StoryLines(match.Interleaving); len(lines) > 0 {
			say("interleaving (%s):\n\t%s", report.StoryHeading(match.Interleaving), strings.Join(lines, "\n\t"))
		}
	}
	if match.EarlyTimers != nil {
		say("%s; the log shows plain go test failing so (on its machine they had not run by then), and replay keeps the failure", match.EarlyTimers.Label())
	}
	say("schedule: %s", match.Schedule)
	say("replay: %s", match.Replay)
	return exitFindings
}
