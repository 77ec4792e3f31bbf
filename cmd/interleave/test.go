package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/flagvalue"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

func init() {
	register(&command{
		name:  "test",
		short: "Search the schedules of tests for concurrency bugs",
		usage: "[flags] [packages]",
		run:   parsed(parseTestFlags, runTest),
	})
}

// testOptions is what `interleave test` was asked to do.
type testOptions struct {
	searchFlags
	patterns []string
	run      string
	skip     string
	exclude  []string
	tags     []string
	ignore   []prjob.Ignore // from .interleave.yaml
	failOn   checks.Severity
	first    bool          // -first: each test's search ends at its first failure
	maxSteps int           // -max-steps: a schedule's step bound (0: rt's)
	src      prjob.Sources // where each setting of .interleave.yaml came from
	notes    []string      // about the config file, printed before the search
}

// parseTestFlags parses the flags of `interleave test`; ok is false when the
// command should exit with code.
func parseTestFlags(env *cliEnv, args []string) (opts testOptions, code int, ok bool) {
	fs := newFlagSet(env, commands["test"])
	fs.StringVar(&opts.run, "run", "", "Search only tests whose name matches `regexp` (split at / for subtests, as go test does)")
	fs.StringVar(&opts.skip, "skip", "", "Do not search the tests (or subtests: split at / as go test does) whose name matches `regexp`")
	tags := fs.String("tags", "", "Build `tags`, comma-separated, as for go build: the search, its plain go test runs and the schedules' replays use them")
	exclude := fs.String("exclude", "", "Leave out the packages these `patterns` select, comma-separated, relative to the module root: ., ./dir or ./dir/...")
	failOn := &flagvalue.Choice{Value: prjob.DefaultFailOn, Allowed: []string{"note", "warning", "error"}}
	fs.BoolVar(&opts.first, "first", false, "End each test's search at its first failure and give the time it leaves to the other tests (a failure of every schedule, the unperturbed one included, counts once some schedule passed or plain go test failed the same way)")
	fs.Var(failOn, "fail-on", "Exit 1 when a finding has at least this `severity`: note, warning, error (dynamic findings are errors)")
	fs.IntVar(&opts.maxSteps, "max-steps", 0, fmt.Sprintf("Stop every schedule after `n` scheduling steps, inconclusive (default: %d for a test's unperturbed schedule, which runs once more with %d when it stops there and the budget has the time; then twice the steps it took, at least %d; the notes name a test whose schedules stop there)", explore.PlainMaxSteps, explore.LongerMaxSteps, rt.DefaultMaxSteps))
	opts.register(fs, searchHelp{
		budget:   "Wall time after the build, over all tests: unperturbed runs, search, fresh replays, plain go test runs, shrinking",
		target:   "Favour preemption at these `file:line,...` sites (an operation at or within two lines of one)",
		seed:     "Seed of the first schedule (default time-based, printed so the run can be repeated)",
		race:     "Build the tests with the race detector",
		workers:  "Worker processes per test (default GOMAXPROCS)",
		watchdog: "Report a schedule as hung when a goroutine runs this `long` without reaching a scheduling point (a busy loop, blocking I/O)",
		verbose:  "Print how many schedules each test ran (the JSON report always has them)",
	})
	if code, ok := opts.parse(env, fs, args); !ok {
		return opts, code, false
	}
	opts.patterns = packageArgs(fs)
	sev, err := checks.ParseSeverity(failOn.Value)
	if err != nil {
		fmt.Fprintf(env.stderr, "interleave test: %v\n", err)
		return opts, exitError, false
	}
	opts.failOn = sev
	bad := func(format string, a ...any) (testOptions, int, bool) {
		fmt.Fprintf(env.stderr, "interleave test: "+format+"\n", a...)
		fs.Usage()
		return opts, exitError, false
	}
	if opts.run != "" {
		// Split as go test splits it, so that the error names the element.
		if _, err := rt.ParseRun(opts.run); err != nil {
			return bad("bad -run pattern: %v", err)
		}
		if _, err := regexp.Compile(opts.run); err != nil {
			return bad("bad -run pattern: %v", err)
		}
	}
	if opts.maxSteps < 0 {
		return bad("-max-steps counts steps, got %d", opts.maxSteps)
	}
	if opts.skip != "" {
		if _, err := rt.ParseRun(opts.skip); err != nil {
			return bad("bad -skip pattern: %v", err)
		}
	}
	for _, p := range strings.Split(*exclude, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if err := prjob.CheckPattern(p); err != nil {
			return bad("-exclude: %v", err)
		}
		opts.exclude = append(opts.exclude, p)
	}
	opts.tags = append(opts.tags, flagvalue.Split(*tags)...)
	// .interleave.yaml at the module root, under the flags.
	src, notes, err := applyTestFile(env, fs, &opts)
	if err != nil {
		configError(env, "test", err)
		return opts, exitError, false
	}
	opts.src, opts.notes = src, notes
	return opts, 0, true
}

// runTest runs the search and writes the report; it returns the exit code.
func runTest(ctx context.Context, env *cliEnv, opts testOptions) int {
	w, err := report.New(opts.format)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave test:", err)
		return exitError
	}
	for _, n := range opts.notes {
		fmt.Fprintln(env.stderr, "interleave test: note:", n)
	}
	patterns, dropped, err := excludePackages(ctx, env.dir, opts.patterns, opts.exclude)
	if err != nil {
		fmt.Fprintln(env.stderr, "interleave test:", err)
		return exitError
	}
	if dropped > 0 {
		fmt.Fprintf(env.stderr, "interleave test: %d %s left out by exclude (%s, %s)\n", dropped, checks.Plural(dropped, "package"), strings.Join(opts.exclude, " "), opts.src["exclude"])
		if len(patterns) == 0 {
			fmt.Fprintln(env.stderr, "interleave test: nothing to search: exclude leaves out every package")
			return exitOK
		}
	}
	fmt.Fprintf(env.stderr, "interleave test: seed %d (repeat with -seed %d), budget %v\n", opts.seed, opts.seed, opts.budget)
	prog := newProgress(env.stderr)
	o := opts.search(env.dir, patterns)
	o.Progress, o.Stage = prog.update, prog.stage
	res, err := explore.Run(ctx, o)
	prog.done()
	if err != nil {
		var be *explore.BuildError
		var nt *explore.NoTestsError
		switch {
		case errors.As(err, &be):
			fmt.Fprintf(env.stderr, "interleave test: %s\n", buildFailed(be.Package, "does not compile", be.Output))
		case errors.As(err, &nt) && opts.run == "":
			// Like go test on a package without tests: nothing to do is
			// not an error.
			fmt.Fprintln(env.stderr, "interleave test: nothing to search:", nt)
			return exitOK
		case errors.As(err, &nt):
			// A -run pattern that matches nothing is most likely a typo.
			fmt.Fprintln(env.stderr, "interleave test:", nt)
		default:
			fmt.Fprintln(env.stderr, "interleave test:", ranFailed(err))
		}
		return exitError
	}
	res.Notes = append(res.Notes, prjob.StepBoundNotes(res.Stats.Tests, opts.maxSteps, "-max-steps")...)
	for _, n := range res.Notes {
		fmt.Fprintln(env.stderr, "interleave test: note:", n)
	}
	// Known failures of .interleave.yaml: out of the report and the exit status.
	var ignored []string
	res.Findings, ignored = prjob.FilterIgnored(res.Findings, opts.ignore, prjob.ModuleRoot(env.dir), env.dir)
	for _, n := range ignored {
		fmt.Fprintln(env.stderr, "interleave test: note:", n)
	}
	st := res.Stats
	if opts.verbose {
		for _, ts := range st.Tests {
			stopped := ""
			if ts.Stopped > 0 {
				stopped = fmt.Sprintf(", %d stopped unfinished at the end of its share", ts.Stopped)
			}
			fmt.Fprintf(env.stderr, "interleave test: %s %s: %d schedules in %.1fs (%.0f/s; one process, one schedule: %v), unperturbed run %s, %d failing%s\n",
				ts.Package, ts.Test, ts.Schedules, ts.Elapsed.Seconds(), ts.PerSecond, ts.Cost.Round(time.Millisecond), cmp.Or(ts.Plain, "did not finish"), ts.Failures, stopped)
		}
	}
	if opts.verbose {
		fmt.Fprintf(env.stderr, "interleave test: wall time after the build %.1fs, budget %v (%s)\n",
			st.Elapsed.Seconds(), opts.budget, overrun(st.Elapsed, opts.budget))
		fmt.Fprintf(env.stderr, "interleave test: %s, in %d test processes\n", scheduledTests(st.Tests), st.Processes)
	}
	fmt.Fprintf(env.stderr, "interleave test: %d schedules in %.1fs (%.0f/s), %d finding(s)%s, seed %d\n",
		st.Schedules, st.Elapsed.Seconds(), st.PerSecond, len(res.Findings), labelCounts(res.Findings), opts.seed)
	rep := &report.Report{Findings: res.Findings, Root: env.dir, ToolVersion: toolVersion(), Tests: prjob.TestRuns(st),
		Search: &report.SearchTime{BudgetMS: opts.budget.Milliseconds(), AfterBuildMS: st.Elapsed.Milliseconds()},
		Notes:  append(res.Notes, ignored...)}
	if err := writeReport(env, w, rep, opts.output); err != nil {
		fmt.Fprintln(env.stderr, "interleave test:", err)
		return exitError
	}
	// Every finding replayed in a fresh process; whether plain go test
	// fails too is a label, never a reason to exit 0.
	return prExitCode(res.Findings, opts.failOn)
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// writeReport renders rep to standard output or, atomically, to a file.
func writeReport(env *cliEnv, w report.Writer, rep *report.Report, output string) error {
	if output == "" {
		return w.Write(env.stdout, rep)
	}
	if !filepath.IsAbs(output) {
		output = filepath.Join(env.dir, output)
	}
	return report.WriteFile(output, func(f io.Writer) error { return w.Write(f, rep) })
}

// progress shows the search's state on standard error: a bar over the
// budget on a terminal, a plain line every plainEvery otherwise.
type progress struct {
	mu   sync.Mutex
	w    io.Writer
	tty  bool
	bar  *progressbar.ProgressBar // on a terminal, once the search runs
	last time.Time
	name string // the command in each line (default "test")
}

// plainEvery is how often a non-terminal gets a progress line: often enough
// that a CI log shows the search is alive, rarely enough to stay readable.
const plainEvery = 10 * time.Second

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// stage prints a stage of the search as it starts and ends, so that the
// slow steps (a cold build with the race detector takes minutes) say what
// they do and how long they took.
func (p *progress) stage(ev explore.StageEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintln(p.w, "interleave "+cmp.Or(p.name, "test")+": "+prjob.StageLine(ev))
	p.last = time.Now()
}

func (p *progress) update(st explore.Stats) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st.Building {
		return
	}
	left := st.Budget - st.Elapsed
	if left < 0 {
		left = 0
	}
	line := fmt.Sprintf("%d schedules, %.0f/s, %d finding(s), %s left", st.Schedules, st.PerSecond, st.Findings, left.Round(time.Second))
	if st.Current != "" {
		line += ", " + st.Current
	}
	if p.tty {
		if p.bar == nil {
			p.bar = progressbar.NewOptions64(max(st.Budget.Milliseconds(), 1),
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetWidth(20),
				progressbar.OptionShowDescriptionAtLineEnd(),
				progressbar.OptionSetElapsedTime(false),
				progressbar.OptionSetPredictTime(false),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish())
		}
		p.bar.Describe(line)
		_ = p.bar.Set64(min(st.Elapsed.Milliseconds(), st.Budget.Milliseconds()))
		return
	}
	if time.Since(p.last) >= plainEvery {
		p.last = time.Now()
		fmt.Fprintln(p.w, "interleave "+cmp.Or(p.name, "test")+":", line)
	}
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Clear()
		p.bar = nil
	}
}

// parseTargets splits "file.go:12,dir/other.go:30" into sites, each a file
// name and a positive line.
func parseTargets(list string) ([]string, error) {
	var out []string
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		i := strings.LastIndexByte(t, ':')
		if i <= 0 {
			return nil, fmt.Errorf("%q is not file:line", t)
		}
		if n, err := strconv.Atoi(t[i+1:]); err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not file:line (line must be a positive number)", t)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no file:line given")
	}
	return out, nil
}

// overrun says how far the wall time after the build went past the
// budget, or how much of it was left.
func overrun(took, budget time.Duration) string {
	if budget <= 0 {
		return "no budget"
	}
	if took > budget {
		return fmt.Sprintf("%.1f%% over", 100*float64(took-budget)/float64(budget))
	}
	return fmt.Sprintf("%.1f%% under", 100*float64(budget-took)/float64(budget))
}

// scheduledTests says how many of tests ran a schedule, and how many more
// than their unperturbed one.
func scheduledTests(tests []explore.TestStats) string {
	var one, more int
	for _, ts := range tests {
		if ts.Schedules > 0 {
			one++
		}
		if ts.Schedules > 1 {
			more++
		}
	}
	return fmt.Sprintf("%d of %d tests ran a schedule, %d more than the unperturbed one", one, len(tests), more)
}

// search is the search of the packages patterns (what exclude left) in
// dir. A time.Sleep may end before goroutines that could run, as pr's
// does (explore.Options.EarlySleep): a loaded machine delays them past
// it. A test that then fails stays inconclusive (its sleep was its
// synchronization); a hang, a leak or a panic it left is kept.
// Measured on the second applicability set (docs/recall.md, 2026-11-30
// nineteenth session): no finding added once synctest bubbles were left
// out.
func (opts *testOptions) search(dir string, patterns []string) explore.Options {
	o := opts.options(dir)
	o.Patterns, o.Run, o.Skip, o.Tags = patterns, opts.run, opts.skip, opts.tags
	o.EarlySleep = true
	o.MaxSteps = opts.maxSteps
	if opts.first {
		o.TestUntil = explore.StopAtFirst
	}
	return o
}
