package prjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/checks/static"
	"github.com/interleave-dev/interleave/internal/machine"
	"github.com/interleave-dev/interleave/report"
)

// Scopes of the job: which findings it reports.
const (
	ScopeChanged = "changed" // findings on changed lines, or whose related location is
	ScopePackage = "package" // every finding in the changed packages
	ScopeAll     = "all"     // every finding in the module
)

// maxDynamicTests caps the tests a run searches: the budget split over more
// tests leaves each too few schedules to find anything.
const maxDynamicTests = 40

// Options is one run of the job: its Config and what the command
// supplies besides.
type Options struct {
	Config
	Notes []string // how base and head were chosen, when from an event

	// Set by the caller, not by flags.
	Dir         string // the working directory: the repository, and the base of relative file names
	ToolVersion string // interleave's version, in the reports
	VetTool     string // the go vet tool static.Run drives; "" runs the passes in process
}

// Result is what a run that got as far as its report produced.
type Result struct {
	// Report is what the outputs were rendered from; its Findings are the
	// reported ones, to compare with FailOn.
	Report *report.Report
	// Incomplete is why the dynamic search failed part-way; the report
	// holds everything else.
	Incomplete error
}

// job is the state of one run.
type job struct {
	opts           *Options
	givenBudget    time.Duration // -budget before gen's automatic share
	stdout, stderr io.Writer
	change         *affected.Change
	timings        []stageTime
	budget         *ledger // -budget over the stages after their builds (budget.go)
	notes          []string
	confirm        confirmStats     // confirm.go
	candidates     []checks.Finding // the static candidates in scope, before the search (confirm.go)
	broken         brokenSet        // broken.go
	genFocused     map[string]bool  // gen.Result.Focused once gen ran (genscope.go)

	genOnBase []checks.Finding // gen.Result.OnBase: their tests fail on the base too
	// From the dynamic search: the schedules per test.
	testRuns []report.TestRun
	changed  *report.ChangedSites // the search at the changed sites (aim.go)
	targets  []string             // the dynamic search's Options.Targets, for the base's (baseTargets)
	// baseVerdicts, when set, stands for checkBase (tests).
	baseVerdicts func(context.Context, []checks.Finding) ([]explore.BaseVerdict, error)
}

type stageTime struct {
	name string
	d    time.Duration
}

func (r *job) logf(format string, a ...any) {
	fmt.Fprintf(r.stderr, "interleave pr: "+format+"\n", a...)
}

// stage runs f and records its time.
func (r *job) stage(name string, f func() error) error {
	r.logf("%s …", name)
	start := time.Now()
	err := f()
	d := time.Since(start)
	r.timings = append(r.timings, stageTime{name, d})
	if d >= time.Second {
		r.logf("%s stage took %v", name, d.Round(100*time.Millisecond))
	}
	return err
}

// Run runs the job: diff and load, static passes, the affected tests, the
// dynamic search, confirmation, the base commit for dynamic failures, and
// the outputs (the report to stdout or opts.Output, SARIF and the
// summary). It logs its progress to stderr. An error means the job could
// not run; it is already on stderr and, when opts.Summary is set, in the
// summary.
func Run(ctx context.Context, opts Options, stdout, stderr io.Writer) (*Result, error) {
	r := &job{opts: &opts, stdout: stdout, stderr: stderr, notes: opts.Notes, budget: newLedger(0)}
	res, err := r.run(ctx)
	if opts.Verbose {
		var parts []string
		for _, s := range r.timings {
			parts = append(parts, fmt.Sprintf("%s %v", s.name, s.d.Round(time.Millisecond)))
		}
		r.logf("stages: %s", strings.Join(parts, ", "))
	}
	return res, err
}

func (r *job) run(ctx context.Context) (*Result, error) {
	opts := r.opts
	var buildFlags []string
	if len(opts.Tags) > 0 {
		buildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	for _, n := range r.notes {
		r.logf("%s", n)
	}

	// diff and load: the change, its files, functions and packages.
	c, err := affected.Analyze(ctx, affected.Options{Dir: r.opts.Dir, Base: opts.Base, Head: opts.Head, BuildFlags: buildFlags, NoTests: true})
	if err != nil {
		return r.fail(err)
	}
	r.change = c
	r.timings = append(r.timings, stageTime{"diff", c.Timings["diff"]}, stageTime{"load", c.Timings["load"]})

	// static: the passes over the changed packages.
	var staticFindings, candidateFindings []checks.Finding // candidates: reported only when confirmed (confirm.go)
	var outOfScope int
	if len(c.Packages) > 0 {
		patterns := c.Packages
		if opts.Scope == ScopeAll {
			patterns = []string{"./..."}
		}
		var res *static.Result
		err := r.stage("static", func() (err error) {
			res, err = static.Run(ctx, static.Options{Dir: c.ModuleDir, Patterns: patterns, Tests: true, BuildFlags: buildFlags,
				Enable: staticEnable(r.opts.Enable, r.opts.Disable), Disable: r.opts.Disable, VetTool: r.opts.VetTool, KeepGoing: true})
			return err
		})
		if err != nil {
			var le *static.LoadError
			if errors.As(err, &le) {
				return r.couldNotRun("the head does not compile", le.Error())
			}
			return r.fail(fmt.Errorf("static analysis: %w", err))
		}
		r.addStatic(res)
		reported, candidates := splitCandidates(res.Findings, r.opts.Enable)
		for _, f := range reported {
			if r.inScope(&f) {
				staticFindings = append(staticFindings, f)
			} else {
				outOfScope++
			}
		}
		for _, f := range candidates {
			if r.inScope(&f) || r.inChangedFunc(&f) {
				candidateFindings = append(candidateFindings, f)
			}
		}
	}

	// affected: the tests that reach the changed code.
	if len(c.Packages) > 0 && opts.Budget > 0 {
		if err := r.stage("affected", func() error { return c.FindTests(ctx, buildFlags) }); err != nil {
			return r.fail(fmt.Errorf("affected tests: %w", err))
		}
	}
	// compile: the packages left out because they do not compile; the
	// job fails only when the change broke one it touches.
	r.addAffected()
	if len(r.broken.pkgs) > 0 {
		var byChange []*brokenPkg
		_ = r.stage("compile", func() error {
			byChange = r.judgeBroken(ctx, buildFlags)
			return nil
		})
		if ctx.Err() != nil {
			return r.fail(errors.New("interrupted"))
		}
		if p := r.broken.onMachine(); p != nil {
			return r.couldNotRun(onMachine(p.machine), fmt.Sprintf("package %s: %s", p.path, p.why()))
		}
		if len(byChange) > 0 {
			return r.brokenByChange(byChange)
		}
		r.logBroken()
	}
	r.printChange()
	r.candidates = candidateFindings
	r.splitGenBudget()
	// gen's automatic share is part of -budget (splitGenBudget took it
	// out); -gen-budget D is on top.
	r.budget = newLedger(opts.Budget + r.genOwed())

	// dynamic: the search over the ranked tests, targeted at the static
	// findings' sites.
	var dynamicFindings []checks.Finding
	var dynErr error
	if err := r.stage("dynamic", func() error {
		r.budget.charge("dynamic", func() {
			dynamicFindings, dynErr = r.dynamic(ctx, slices.Concat(staticFindings, candidateFindings))
		})
		return nil
	}); err != nil {
		return r.fail(err)
	}
	if dynErr != nil {
		var be *explore.BuildError
		if errors.As(dynErr, &be) {
			return r.couldNotRun(fmt.Sprintf("the tests of %s do not compile", be.Package), strings.TrimRight(be.Output, "\n"))
		}
		if ctx.Err() != nil {
			return r.fail(errors.New("interrupted"))
		}
		if f := machine.Fault(dynErr.Error()); f != "" {
			return r.couldNotRun(onMachine(f), dynErr.Error())
		}
		r.logf("dynamic search failed: %v", dynErr)
		r.notes = append(r.notes, fmt.Sprintf("the dynamic search failed: %v", dynErr))
	}

	// merge: a static finding a schedule reproduces is reported once.
	merged := confirmAll(staticFindings, candidateFindings, explore.Group(dynamicFindings), c.ModuleDir, &r.confirm)
	var final, dyn []checks.Finding
	for _, f := range merged {
		if f.Evidence == checks.Dynamic {
			dyn = append(dyn, f)
			continue
		}
		final = append(final, f)
	}
	// A dynamic failure is the change's by cause, not by line (base.go).
	news, preExisting, uncompared := r.byCause(ctx, dyn)
	// gen: generated tests for the changed types that claim thread safety
	// or hold a mutex or atomic; their findings with a side in the changed
	// code are the change's (genscope.go).
	if opts.GenBudget > 0 && opts.Shard <= 1 {
		var genFindings []checks.Finding
		var genErr error
		_ = r.stage("gen", func() error {
			r.budget.charge("gen", func() { genFindings, genErr = r.genTests(ctx) })
			return nil
		})
		if genErr != nil {
			if ctx.Err() != nil {
				return r.fail(errors.New("interrupted"))
			}
			r.logf("gen failed: %v", genErr)
			r.notes = append(r.notes, fmt.Sprintf("gen failed: %v", genErr))
		}
		final, news = r.addGenFindings(genFindings, final, news)
		preExisting = append(preExisting, r.genPreExisting()...)
	}
	final = dedupe(append(final, news...))
	if outOfScope > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d %s outside the changed lines not reported (-scope package or all shows them)", outOfScope, checks.Plural(outOfScope, "finding")))
	}

	// packages: only the findings in the selected packages.
	final, pkgNote := FilterPackages(final, opts.Dir, c.Root, opts.Packages)
	var pkgSummary string
	if pkgNote != "" {
		r.logf("note: %s", pkgNote)
		pkgSummary = "\n- note: " + pkgNote + "\n"
	}
	// the configuration's excluded packages and known failures.
	var exNote string
	final, exNote = FilterExcluded(final, c.ModuleDir, c.Root, opts.Exclude)
	var ignored []string
	final, ignored = FilterIgnored(final, opts.Ignore, c.ModuleDir, c.Root)
	if exNote != "" {
		r.logf("note: %s", exNote)
		pkgSummary += "\n- note: " + exNote + "\n"
	}
	for _, n := range ignored { // in the report's notes, which the summary lists
		r.logf("note: %s", n)
	}

	if r.budget != nil && r.budget.total > 0 {
		r.logf("%s", r.budget.line())
	}
	// report.
	rep := &report.Report{Findings: final, Root: c.Root, ToolVersion: r.opts.ToolVersion,
		PreExisting: preExisting, Uncompared: uncompared, Tests: r.testRuns, Changed: r.changed,
		Notes: append(append([]string(nil), r.notes[len(opts.Notes):]...), ignored...)}
	if r.budget != nil && r.budget.total > 0 {
		rep.Search = &report.SearchTime{BudgetMS: r.budget.total.Milliseconds(), AfterBuildMS: r.budget.afterBuild().Milliseconds()}
	}
	err = r.stage("report", func() error {
		return WriteOutputs(rep, Outputs{Dir: opts.Dir, Stdout: r.stdout, Format: opts.Format, Output: opts.Output,
			SARIF: opts.SARIF, Summary: opts.Summary, Extra: pkgSummary + r.brokenSummary() + r.confirm.summary(c.Root) + aimSummary(r.changed) + r.summaryExtra()})
	})
	if err != nil {
		return r.fail(err)
	}
	for _, n := range r.notes[len(opts.Notes):] {
		r.logf("note: %s", n)
	}
	byEvidence := map[checks.Evidence]int{}
	for _, f := range final {
		byEvidence[f.Evidence]++
	}
	if r.confirm.targeted > 0 || len(r.confirm.unconfirmed) > 0 {
		r.logf("%s", r.confirm.logLine())
		if opts.Verbose {
			for _, l := range r.confirm.verbose(c.Root) {
				r.logf("%s", l)
			}
		}
	}
	r.logf("%d %s reported (%d static, %d confirmed by a schedule, %d dynamic)", len(final), checks.Plural(len(final), "finding"),
		byEvidence[checks.Static], byEvidence[checks.Confirmed], byEvidence[checks.Dynamic])
	return &Result{Report: rep, Incomplete: dynErr}, nil
}

// fail reports an error that kept the job from running.
func (r *job) fail(err error) (*Result, error) {
	if errors.Is(err, context.Canceled) {
		err = errors.New("interrupted")
	}
	if f := machine.Fault(err.Error()); f != "" {
		return r.couldNotRun(onMachine(f), err.Error())
	}
	r.logf("%v", err)
	r.writeFailureSummary(err.Error(), "")
	return nil, err
}

// machinePrefix starts what a job says when the machine, not the code,
// failed a build or a run.
const machinePrefix = "could not build or run the code on this machine, which is not the change's doing: "

// onMachine is what a job says when the machine failed it (f:
// machine.Fault's words).
func onMachine(f string) string { return machinePrefix + f }

// couldNotRun reports that the code under review cannot be analyzed, with
// the compiler's words, on stderr and in the summary.
func (r *job) couldNotRun(what, detail string) (*Result, error) {
	if f := machine.Fault(detail); f != "" && !strings.HasPrefix(what, machinePrefix) {
		// A build the machine failed says nothing about the change.
		what = onMachine(f)
	}
	r.logf("%s:\n%s", what, detail)
	r.writeFailureSummary(what, detail)
	return nil, fmt.Errorf("%s:\n%s", what, detail)
}

// writeFailureSummary makes the job summary say why nothing was analyzed,
// so the pull request shows the reason rather than no summary at all.
func (r *job) writeFailureSummary(what, detail string) {
	if r.opts.Summary == "" {
		return
	}
	md := fmt.Sprintf("## interleave could not run\n\n%s\n", what)
	if detail != "" {
		md = fmt.Sprintf("## interleave could not run\n\n%s:\n\n```\n%s\n```\n", what, strings.ReplaceAll(detail, "```", "'''"))
	}
	if err := report.WriteFileBytes(AbsIn(r.opts.Dir, r.opts.Summary), []byte(md)); err != nil {
		r.logf("write summary: %v", err)
	}
}

// inScope reports whether a finding is reported under -scope.
func (r *job) inScope(f *checks.Finding) bool {
	if r.opts.Scope != ScopeChanged {
		return true
	}
	c := r.change
	on := func(file string, line int) bool {
		return file != "" && line > 0 && c.OnChangedLine(AbsIn(c.ModuleDir, file), line)
	}
	if on(f.Pos.File, f.Pos.Line) {
		return true
	}
	for _, rel := range f.Related {
		if on(rel.File, rel.Line) {
			return true
		}
	}
	for _, g := range f.Goroutines {
		if file, line, ok := splitSite(g.Site); ok && on(file, line) {
			return true
		}
		if !f.Pos.IsValid() {
			for _, fr := range g.Stack {
				if on(fr.File, fr.Line) {
					return true
				}
			}
		}
	}
	return false
}

// inChangedFunc reports whether a candidate's own access is in a function
// the change touched, though not on a changed line: a pull request that
// deletes a lock leaves the access it guarded as it was. Such a candidate
// is confirmed like the others (only a schedule posts it).
func (r *job) inChangedFunc(f *checks.Finding) bool {
	if r.opts.Scope != ScopeChanged {
		return true
	}
	return f.Pos.File != "" && f.Pos.Line > 0 && r.change.InChangedFunc(AbsIn(r.change.ModuleDir, f.Pos.File), f.Pos.Line)
}

// selectedTests is the tests run selects, by their names' first element
// (a test "TestX/Sub" searched alone by its top-level subtest by both).
func selectedTests(tests []affected.Test, run *rt.RunFilter) []affected.Test {
	var kept []affected.Test
	for _, t := range tests {
		if run.Matches(strings.Split(t.Name, "/")...) {
			kept = append(kept, t)
		}
	}
	return kept
}

// subtestPattern is f's pattern when it selects among subtests (the
// search applies it inside the affected tests), else "": the affected
// tests are already chosen by their names.
func subtestPattern(f *rt.RunFilter) string {
	if f == nil || !f.Subtests() {
		return ""
	}
	return f.String()
}

// unsearched reports whether err, the search's, only says the affected
// tests were not searched, and notes why: none matched, or the budget
// ended before a test process started a schedule, none seen hanging (a
// loaded machine). Any other err fails the job.
func (r *job) unsearched(err error) bool {
	var nt *explore.NoTestsError
	if errors.As(err, &nt) {
		r.notes = append(r.notes, nt.Error())
		return true
	}
	if line, ok := explore.NoScheduleLine(err); ok {
		r.notes = append(r.notes, "the affected tests were not searched: "+line)
		return true
	}
	return false
}

// dynamic runs this run's share of the search.
func (r *job) dynamic(ctx context.Context, staticFindings []checks.Finding) ([]checks.Finding, error) {
	opts, c := r.opts, r.change
	if opts.Budget == 0 {
		r.notes = append(r.notes, "dynamic search skipped (-budget 0)")
		return nil, nil
	}
	tests := c.Tests
	if opts.Run != nil {
		kept := selectedTests(tests, opts.Run)
		if len(kept) == 0 && len(tests) > 0 {
			r.notes = append(r.notes, fmt.Sprintf("no affected test matches -run %q: dynamic search skipped", opts.Run))
			return nil, nil
		}
		tests = kept
	}
	if kept, dropped := FilterTests(tests, &opts.Config, c.ModuleDir, c.ModulePath); dropped > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d affected %s left out by -skip or -exclude", dropped, checks.Plural(dropped, "test")))
		if len(kept) == 0 {
			return nil, nil
		}
		tests = kept
	}
	tests = shardTests(tests, opts.Shard, opts.Shards)
	if len(tests) == 0 {
		if len(c.Packages) > 0 {
			r.notes = append(r.notes, "no affected test reaches the changed code: dynamic search skipped")
		}
		return nil, nil
	}
	var refs []explore.TestRef
	pkgSet := map[string]bool{}
	var pkgs []string
	for _, t := range tests {
		refs = append(refs, explore.TestRef{Package: t.Package, Name: t.Name, Weight: t.Score})
		if !pkgSet[t.Package] {
			pkgSet[t.Package] = true
			pkgs = append(pkgs, t.Package)
		}
	}
	var targets []string
	seen := map[string]bool{}
	for _, f := range staticFindings {
		for site := range sites(&f, c.ModuleDir, false) {
			if !seen[site] {
				seen[site] = true
				targets = append(targets, site)
			}
		}
	}
	changed := changedSites(c)
	for _, site := range changed {
		if !seen[site] {
			seen[site] = true
			targets = append(targets, site)
		}
	}
	sort.Strings(targets)
	r.targets = targets
	seed, schedules := r.seedAndSchedules()
	// gen's replay reserve comes out of this share (genKeep).
	budget := opts.Budget - r.genKeep()
	r.logf("dynamic search: %d %s, budget %v, seed %d, %d target %s (%d changed)", len(refs), checks.Plural(len(refs), "test"), budget, seed, len(targets), checks.Plural(len(targets), "site"), len(changed))
	var (
		progressMu   sync.Mutex // Progress may be called from the search's goroutines
		lastProgress time.Time
	)
	res, err := explore.Run(ctx, explore.Options{
		Dir:          c.ModuleDir,
		Patterns:     pkgs,
		Tests:        refs,
		Run:          subtestPattern(opts.Run),
		Skip:         subtestPattern(opts.Skip),
		Budget:       budget,
		Seed:         seed,
		Race:         opts.Race,
		Tags:         opts.Tags,
		SchedulesDir: schedules,
		Workers:      opts.Workers,
		Schedules:    opts.Count,
		MaxSteps:     opts.MaxSteps,
		Strategy:     opts.Strategy,
		Targets:      targets,
		KeepFor:      r.baseKeepFor,
		// A sleep may end before goroutines that could run (a loaded
		// machine): a Stop before its Start. The base check searches so too.
		EarlySleep: true,
		Stage: r.budget.watch(func(ev explore.StageEvent) {
			progressMu.Lock()
			defer progressMu.Unlock()
			fmt.Fprintln(r.stderr, "interleave pr: dynamic: "+StageLine(ev))
			lastProgress = time.Now()
		}),
		Progress: func(st explore.Stats) {
			const every = 10 * time.Second
			progressMu.Lock()
			defer progressMu.Unlock()
			if st.Building || time.Since(lastProgress) < every {
				return
			}
			lastProgress = time.Now()
			r.logf("dynamic: %v of %v, %d schedules, %d %s, now %s", st.Elapsed.Round(time.Second), st.Budget, st.Schedules, st.Findings, checks.Plural(st.Findings, "finding"), st.Current)
		},
	})
	if err != nil {
		if r.unsearched(err) {
			return nil, nil
		}
		return nil, err
	}
	r.notes = append(r.notes, res.Notes...)
	r.notes = append(r.notes, StepBoundNotes(res.Stats.Tests, opts.MaxSteps, "max-steps:")...)
	r.confirm.searched = res.Stats.Schedules > 0
	r.logf("dynamic search: %d schedules in %v, %d %s", res.Stats.Schedules, res.Stats.Elapsed.Round(time.Millisecond), len(res.Findings), checks.Plural(len(res.Findings), "finding"))
	if r.changed = changedReport(changed, res.Stats, c.Root); r.changed != nil {
		r.logf("%s", aimLine(r.changed))
		if opts.Verbose {
			for _, l := range aimVerbose(r.changed) {
				r.logf("%s", l)
			}
		}
	}
	if r.opts.Verbose {
		for _, ts := range res.Stats.Tests {
			none := ""
			if ts.NoChoice {
				none = "; no choice in its unperturbed run, not searched further"
			}
			r.logf("dynamic search: %s.%s: %d schedules in %.1fs (%.0f/s)%s", ts.Package, ts.Test, ts.Schedules, ts.Elapsed.Seconds(), ts.PerSecond, none)
		}
	}
	r.testRuns = TestRuns(res.Stats)
	return r.fromRoot(res.Findings), nil
}

// fromRoot names the findings' schedules relative to the repository
// root, so that the replay command works from a fresh clone's top level
// (the search's and gen's schedules are the module directory's).
func (r *job) fromRoot(fs []checks.Finding) []checks.Finding {
	c := r.change
	out := make([]checks.Finding, len(fs))
	for i, f := range fs {
		if f.Schedule != "" {
			p := AbsIn(c.ModuleDir, f.Schedule)
			f.Schedule = p
			if rel, err := filepath.Rel(c.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
				f.Replay = "interleave replay" + report.TriesFlag(&f) + " " + filepath.ToSlash(rel)
			}
		}
		out[i] = f
	}
	return out
}

// shardTests returns shard i of n of the ranked tests (all when n is 0),
// capped at maxDynamicTests: round robin, so every shard gets some of the
// best-ranked tests.
func shardTests(tests []affected.Test, i, n int) []affected.Test {
	if n == 0 {
		return tests[:min(len(tests), maxDynamicTests)]
	}
	var out []affected.Test
	for k, t := range tests[:min(len(tests), maxDynamicTests*n)] {
		if k%n == i-1 {
			out = append(out, t)
		}
	}
	return out
}

// seedFrom derives the search seed from the commits, so that a run repeats
// on the same change and differs on the next push.
func seedFrom(head, base string) int64 {
	s := head + base
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return int64(h%1_000_000_000) + 1
}

// seedAndSchedules returns the search seed (-seed, or one derived from the
// commits) and the directory of schedule files (-schedules, or the module's
// default).
func (r *job) seedAndSchedules() (int64, string) {
	opts, c := r.opts, r.change
	seed := opts.Seed
	if seed == 0 {
		seed = seedFrom(c.HeadCommit, c.MergeBase)
	}
	schedules := opts.Schedules
	if schedules == "" {
		schedules = filepath.Join(c.ModuleDir, explore.DefaultSchedulesDir)
	} else {
		schedules = AbsIn(opts.Dir, schedules)
	}
	return seed, schedules
}

// printChange writes the change summary to stderr: every file not analyzed
// and why, and each chosen test with why; -v adds the functions.
func (r *job) printChange() {
	c := r.change
	if r.opts.Verbose {
		var b bytes.Buffer
		if err := c.WriteSummary(&b); err == nil {
			io.Copy(r.stderr, &b)
		}
		return
	}
	head := c.Head
	r.logf("%s...%s: %d %s changed, %d analyzed, in %d %s", c.Base, head, len(c.Files), checks.Plural(len(c.Files), "file"), c.AnalyzedFiles(), len(c.Packages), checks.Plural(len(c.Packages), "package"))
	const showSkipped = 20 // -v groups them by reason
	for i, f := range c.Skipped() {
		if i == showSkipped {
			r.logf("  ... and %d more files not analyzed (-v groups them by reason)", len(c.Skipped())-i)
			break
		}
		r.logf("  not analyzed: %s: %s", f.Path, f.Skip)
	}
	for i, t := range c.Tests {
		if i == maxDynamicTests {
			r.logf("  ... and %d more affected tests", len(c.Tests)-i)
			break
		}
		r.logf("  test %s %s: %s", t.Package, t.Name, t.Why)
	}
	for _, n := range c.Notes {
		r.logf("note: %s", n)
	}
}

// summaryExtra is the markdown appended to the job summary: what the change
// was, what was not analyzed and why, which tests were searched and why.
func (r *job) summaryExtra() string {
	c := r.change
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>Change: %d %s, %d analyzed, %d %s, %d affected %s</summary>\n\n",
		len(c.Files), checks.Plural(len(c.Files), "file"), c.AnalyzedFiles(), len(c.Packages), checks.Plural(len(c.Packages), "package"), len(c.Tests), checks.Plural(len(c.Tests), "test"))
	fmt.Fprintf(&b, "Base `%s`, head `%s`, merge base `%.12s`.\n\n", c.Base, c.Head, c.MergeBase)
	if skipped := c.Skipped(); len(skipped) > 0 {
		b.WriteString("Not analyzed:\n\n| file | reason |\n|---|---|\n")
		const show = 50
		for i, f := range skipped {
			if i == show {
				fmt.Fprintf(&b, "| … | and %d more |\n", len(skipped)-show)
				break
			}
			fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(f.Path, "|", `\|`), f.Skip)
		}
		b.WriteString("\n")
	}
	if len(c.Tests) > 0 {
		b.WriteString("Affected tests, in search order:\n\n")
		for i, t := range c.Tests {
			if i == maxDynamicTests {
				fmt.Fprintf(&b, "- … and %d more\n", len(c.Tests)-i)
				break
			}
			fmt.Fprintf(&b, "- `%s` in `%s`: %s\n", t.Name, t.Package, t.Why)
		}
		b.WriteString("\n")
	}
	for _, n := range append(append([]string(nil), c.Notes...), r.notes...) {
		fmt.Fprintf(&b, "- note: %s\n", n)
	}
	if len(r.timings) > 0 {
		var parts []string
		for _, s := range r.timings {
			parts = append(parts, fmt.Sprintf("%s %v", s.name, s.d.Round(100*time.Millisecond)))
		}
		fmt.Fprintf(&b, "\nStages: %s.\n", strings.Join(parts, ", "))
	}
	b.WriteString("</details>\n")
	return b.String()
}
