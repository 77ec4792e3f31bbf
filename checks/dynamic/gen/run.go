// Run and its steps: targets loaded, tests generated, kept if they pass sequentially, searched, replayed.

package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// Options says what to generate tests for and how long to search them.
type Options struct {
	Dir      string   // inside the module (default: the current directory)
	Patterns []string // package patterns (default ".")
	Types    string   // regexp on type names (default: all that claim safety)
	// Select, when set, keeps only the targets it returns true for (the
	// pull-request job keeps the types its change touches).
	Select func(*Target) bool
	// Guarded also tests the types that claim nothing but hold a mutex or
	// an atomic (GuardedTargets).
	Guarded bool
	// Focus, when set, picks the methods of a target that the goroutines
	// call first (Target.Focus; the pull-request job picks the changed
	// ones); a target none of whose methods it picks calls any.
	Focus func(t *Target, method string) bool
	// Sides, when set, names for a package the two sides of each static
	// candidate in it (the pull-request job's unconfirmed ones): a pair of
	// exported methods of a target reaching them is called on one value,
	// one method a goroutine, before the other cases (Target.Pairs); an
	// exported type holding an unexported type a side is in is a target
	// too when its methods reach both sides (Target.Owns).
	Sides func(p *packages.Package) [][2]Method
	// BaseDir, when set, is the module's root in a checkout of a change's
	// base commit (the pull-request job): a test that fails when run
	// sequentially but passes there is searched, not dropped (onBase).
	BaseDir string
	// BaseCheck, when set, picks the findings checked on BaseDir (the
	// pull-request job's: those in its change); the others get no base
	// verdict, and cost no build there.
	BaseCheck func(*checks.Finding) bool
	PerType   int   // tests generated per type (default DefaultPerType)
	Seed      int64 // seeds generation and the search
	// Budget is the wall time of the sequential runs and the search after
	// their builds: no round of sequential runs after the first starts
	// past half of it, and the search gets the rest (searchBudget).
	Budget time.Duration
	// Over is how far past Budget the search may end, so that it keeps
	// its replay reserve after sequential runs that ran past their part
	// (0: a twentieth of Budget). `interleave pr` gives what its own
	// -budget allows (a twentieth of it).
	Over time.Duration
	// Left, when set, is what is left of the whole job's budget now, its
	// builds excluded (`interleave pr`'s one clock): gen's replays and its
	// check on the base commit run only what fits in it.
	Left func() time.Duration
	// The rest is passed to the search as explore.Options.
	Schedules    int // per worker and test; 0: the budget alone bounds the search
	Strategy     string
	Race         bool
	Tags         []string // build tags: load, sequential runs, search; schedules record them
	SchedulesDir string
	// TestsDir is where the file of a package whose generated tests
	// failed is written, as <import path>/FileName (default
	// DefaultTestsDir, relative to Dir).
	TestsDir    string
	Workers     int
	StepTimeout time.Duration
	Progress    func(explore.Stats)
	Stage       func(explore.StageEvent)
	// draws, when set, is the generator a target's cases are drawn from
	// instead of its package's (tests: several runs' draws in one build).
	draws func(pkg *Generator, t *Target) *Generator
	// testUntil, when set, is the search's explore.Options.TestUntil
	// (tests: a test's search ends at the failure they wait for).
	testUntil func(checks.Finding) bool
	// skipTest, when set, is the search's explore.Options.SkipTest, by
	// test name (tests: a type's other tests once it is found).
	skipTest func(test string) bool
	// afterSearch, when set, is called between the search and gen's
	// replay of its findings (tests: the user's tree changes).
	afterSearch func()
}

// DefaultTestsDir is where the generated files that failed go.
const DefaultTestsDir = ".interleave/gen"

// DefaultPerType is how many tests are searched for each type.
const DefaultPerType = 12

// candidates is how many tests are generated per test searched: those that
// fail sequentially are dropped, and the first PerType others kept.
const candidates = 3

// TypeReport says what happened to one target type.
type TypeReport struct {
	Package   string `json:"package"`
	Type      string `json:"type"`
	Claim     string `json:"claim"`
	Pos       string `json:"pos"`
	Generated int    `json:"generated"`
	Kept      int    `json:"kept"` // tests searched: the first that run sequentially
	Findings  int    `json:"findings"`
	// OnBase counts the kept tests that fail sequentially but pass on the
	// base commit (Options.BaseDir).
	OnBase int `json:"onBase,omitempty"`
	// FailOnBase counts the findings whose test fails the same way on the
	// base commit (Result.OnBase), not in Findings.
	FailOnBase int `json:"failOnBase,omitempty"`
	// Dropped says why tests were dropped, one line each.
	Dropped []string `json:"dropped,omitempty"`
}

// Repro is the test file of one package, to copy in for go test -race:
// every generated test that was searched, as it was (the schedules name its
// lines, and carry it for replay); Tests are the ones that failed.
type Repro struct {
	Package string // import path
	Dir     string // the package's directory in the user's tree
	Tests   []string
	Source  []byte
	Path    string // where Source was written
}

// Result is a finished run.
type Result struct {
	Types    []TypeReport
	Findings []checks.Finding
	// OnBase are the findings whose generated test fails the same way on
	// the base commit (Options.BaseDir): older than the change.
	OnBase []checks.Finding
	// Focused holds, as package + "." + test, the findings whose
	// goroutines call a method of Options.Focus.
	Focused map[string]bool
	Repros  []Repro
	Stats   explore.Stats
	Notes   []string
}

// keptKinds are the failures gen reports. A leak is not one: the generated
// test joins its goroutines, so a leak is the type's own background
// goroutine, which no interleaving of the calls caused.
var keptKinds = map[checks.FailureKind]bool{
	checks.Panic: true, checks.TestFailure: true, checks.Deadlock: true,
	checks.DataRace: true, checks.Fatal: true,
}

// NoTargetsError is a run with nothing to test.
type NoTargetsError struct{ What string }

func (e *NoTargetsError) Error() string { return e.What }

// pkgWork is the generation for one package.
type pkgWork struct {
	pkg   *packages.Package
	gen   *Generator
	cases []*Case
	kept  []*Case
	dir   string // package directory in the copy
	src   []byte // the file searched
}

// Run generates tests for the types of the packages that claim safety for
// concurrent use, drops those that fail sequentially, and searches the rest
// under the controlled scheduler. It reads as its steps.
func Run(ctx context.Context, opts Options) (*Result, error) {
	typeRE, err := normalize(&opts)
	if err != nil {
		return nil, err
	}
	r := &run{opts: opts, res: &Result{}}
	if err := r.loadTargets(ctx, typeRE); err != nil {
		return nil, err
	}
	defer r.removeCopy()
	if err := r.copyModule(); err != nil {
		return nil, err
	}
	if err := r.generate(); err != nil {
		return nil, err
	}
	patterns, err := r.keepSequential(ctx)
	if err != nil {
		return nil, err
	}
	r.typeReports()
	if len(patterns) == 0 {
		r.res.Notes = append(r.res.Notes, "every generated test fails when run sequentially: nothing to search")
		return r.res, nil
	}
	defer r.closeBuild()
	er, err := r.search(ctx, patterns)
	if err != nil {
		return nil, err
	}
	if r.opts.afterSearch != nil {
		r.opts.afterSearch()
	}
	if err := r.pickFindings(er); err != nil {
		return nil, err
	}
	r.replay(ctx)
	r.checkBase(ctx)
	failed := r.report()
	if err := r.writeRepros(failed); err != nil {
		return nil, err
	}
	r.typeReports()
	return r.res, nil
}

// run is the state of one Run.
type run struct {
	opts     Options
	res      *Result
	modRoot  string // the user's module
	copyRoot string // the copy the generated files are added to
	// stamps are the user's module's files when copied (treeStamps): the
	// replay reuses the search's build only when they did not change.
	stamps map[string]fileStamp
	// build is the search's instrumentation and test binaries, which
	// gen's replay reuses.
	build   *explore.Build
	targets []*Target // the types to test
	works   []*pkgWork
	byPkg   map[string]*pkgWork
	reports map[*Target]*TypeReport
	// The findings kept, one per findingKey, in order (pickFindings);
	// dups counts the others of each, scheds holds the schedule of each
	// (replay).
	best    map[findingKey]checks.Finding
	order   []findingKey
	dups    map[findingKey]int
	caseOf  map[string]*Case // by package + "." + test
	scheds  map[findingKey]*rt.Schedule
	base    map[findingKey]baseVerdict // checkBase
	rebuilt map[findingKey]bool        // checkBase: judged on the base by another constructor
	// sequential is the time the sequential runs took, out of the budget.
	sequential time.Duration
}

// findingKey is one finding of gen: a type, a kind and a place in the
// type's code ("" for the generated test's own failure).
type findingKey struct {
	t    *Target
	kind checks.FailureKind
	pos  string
}

// normalize fills in the defaults of opts and compiles its -types pattern.
func normalize(opts *Options) (*regexp.Regexp, error) {
	if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	if opts.PerType <= 0 {
		opts.PerType = DefaultPerType
	}
	var typeRE *regexp.Regexp
	if opts.Types != "" {
		re, err := regexp.Compile(opts.Types)
		if err != nil {
			return nil, fmt.Errorf("bad -types pattern: %w", err)
		}
		typeRE = re
	}
	if opts.SchedulesDir == "" {
		opts.SchedulesDir = explore.DefaultSchedulesDir
	}
	if !filepath.IsAbs(opts.SchedulesDir) {
		opts.SchedulesDir = filepath.Join(opts.Dir, opts.SchedulesDir)
	}
	if opts.TestsDir == "" {
		opts.TestsDir = DefaultTestsDir
	}
	if !filepath.IsAbs(opts.TestsDir) {
		opts.TestsDir = filepath.Join(opts.Dir, opts.TestsDir)
	}
	return typeRE, nil
}

// stage tells Options.Stage that a stage starts and returns the function
// that tells it ended.
func (r *run) stage(name string) func(string) {
	start := time.Now()
	if r.opts.Stage != nil {
		r.opts.Stage(explore.StageEvent{Name: name})
	}
	return func(detail string) {
		if r.opts.Stage != nil {
			r.opts.Stage(explore.StageEvent{Name: name, Done: true, Took: time.Since(start), Detail: detail})
		}
	}
}

// loadTargets loads the packages and picks the types to test: those that
// claim safety for concurrent use, that typeRE and Options.Select keep.
func (r *run) loadTargets(ctx context.Context, typeRE *regexp.Regexp) error {
	opts := r.opts
	end := r.stage("loading " + strings.Join(opts.Patterns, " "))
	pkgs, modRoot, err := load(ctx, opts.Dir, opts.Patterns, opts.Tags...)
	if err != nil {
		return err
	}
	r.modRoot = modRoot
	ts, what := Targets(pkgs), "claim safety for concurrent use"
	if opts.Guarded {
		ts, what = GuardedTargets(pkgs), "claim safety for concurrent use or hold a mutex or atomic"
	}
	for _, t := range ts {
		if (typeRE == nil || typeRE.MatchString(t.Name.Name())) && (opts.Select == nil || opts.Select(t)) {
			if opts.Focus != nil {
				for _, m := range t.Methods {
					if opts.Focus(t, m.Fn.Name()) {
						t.Focus = append(t.Focus, m)
					}
				}
			}
			r.targets = append(r.targets, t)
		}
	}
	picked := len(r.targets)
	if opts.Sides != nil {
		r.targets = addSides(pkgs, r.targets, opts.Sides)
	}
	detail := fmt.Sprintf("%d type(s) %s", picked, what)
	if n := len(r.targets) - picked; n > 0 {
		detail += fmt.Sprintf(", %d exported type(s) holding an unexported one a static candidate is in", n)
	}
	end(detail)
	if len(r.targets) == 0 {
		return &NoTargetsError{What: "no exported type in " + strings.Join(opts.Patterns, " ") + " " + whatNot(opts.Guarded) + " with a constructor or usable zero value and callable methods"}
	}
	return nil
}

// whatNot says which types were looked for, for NoTargetsError.
func whatNot(guarded bool) string {
	s := "is documented as safe for concurrent use (or marked " + Directive + ")"
	if guarded {
		s += " or holds a mutex or atomic"
	}
	return s
}

// copyModule copies the module, which the generated files are added to.
func (r *run) copyModule() error {
	end := r.stage("copying the module to add the generated tests")
	copyRoot, err := os.MkdirTemp("", "interleave-gen-")
	if err != nil {
		return err
	}
	r.copyRoot = copyRoot
	if r.stamps, err = treeStamps(r.modRoot); err != nil {
		return err
	}
	if err := copyTree(r.modRoot, copyRoot); err != nil {
		return err
	}
	end("")
	return nil
}

// removeCopy removes the copy of the module, once made.
func (r *run) removeCopy() {
	if r.copyRoot != "" {
		os.RemoveAll(r.copyRoot)
	}
}

// generate generates the candidate tests of every target, grouped by
// package.
func (r *run) generate() error {
	r.byPkg = map[string]*pkgWork{}
	r.reports = map[*Target]*TypeReport{}
	for _, t := range r.targets {
		w := r.byPkg[t.Pkg.PkgPath]
		if w == nil {
			rel, err := filepath.Rel(r.modRoot, pkgDir(t.Pkg))
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("%s is not in the module at %s", t.Pkg.PkgPath, r.modRoot)
			}
			w = &pkgWork{pkg: t.Pkg, gen: NewGenerator(t.Pkg.PkgPath, t.Pkg.Name, r.opts.Seed+int64(len(r.works))), dir: filepath.Join(r.copyRoot, rel)}
			r.byPkg[t.Pkg.PkgPath] = w
			r.works = append(r.works, w)
		}
		// Feedback-directed: more candidates than wanted, of which the
		// first PerType that run sequentially are kept.
		// The shapes a test author writes first come first, after
		// the cases that call a changed method (focusFirst).
		n := candidates * r.opts.PerType
		g := w.gen
		if r.opts.draws != nil {
			g = r.opts.draws(w.gen, t)
		}
		cs := focusFirst(slices.DeleteFunc(append(g.Shapes(t, n), g.Generate(t, n)...), func(c *Case) bool { return !c.syncs() }))
		for _, c := range cs {
			c.Stops = stops(c)
		}
		w.cases = append(w.cases, cs...)
		pos := t.Pkg.Fset.Position(t.Pos)
		r.reports[t] = &TypeReport{Package: t.Pkg.PkgPath, Type: t.Name.Name(), Claim: claimOf(t), Pos: fmt.Sprintf("%s:%d", relTo(r.opts.Dir, pos.Filename), pos.Line), Generated: len(cs)}
	}
	return nil
}

// focusFirst puts the cases whose goroutines call a changed method
// (Case.callsFocus) before the others, each in their order: the first
// PerType that pass sequentially are the ones searched.
func focusFirst(cs []*Case) []*Case {
	slices.SortStableFunc(cs, func(a, b *Case) int {
		return b2i(!a.callsFocus()) - b2i(!b.callsFocus())
	})
	return cs
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keepSequential runs every case sequentially and keeps those that pass
// (feedback); it writes the concurrent file of the kept cases of each
// package and returns the packages that have one.
func (r *run) keepSequential(ctx context.Context) (patterns []string, err error) {
	n := 0
	for _, w := range r.works {
		n += len(w.cases)
	}
	end := r.stage(fmt.Sprintf("running %d generated test(s) sequentially", n))
	// Their rounds end at half the budget, go test's builds not counted,
	// or earlier to leave the search its replayReserve and the base check
	// its part; the search gets the rest.
	began := clock()
	var until time.Time
	if r.opts.Budget > 0 {
		until = began.Add(min(r.opts.Budget/2, r.opts.Budget-replayReserve(r.opts.Budget)-baseReserve(r.opts.Budget, r.opts.BaseDir)))
	}
	var built time.Duration
	defer func() {
		r.sequential = max(clock().Sub(began)-built, 0)
		if r.opts.Stage != nil && built > 0 {
			r.opts.Stage(explore.StageEvent{Name: "building the generated tests (go test)", Done: true, Took: built,
				Detail: "go test's builds in the sequential runs, outside the budget"})
		}
	}()
	notes, err := feedback(ctx, r.copyRoot, r.opts.BaseDir, r.works, r.reports, r.opts.PerType, r.opts.Tags, until, &built)
	if err != nil {
		return nil, err
	}
	r.res.Notes = append(r.res.Notes, notes...)
	kept := 0
	for _, w := range r.works {
		kept += len(w.kept)
		if len(w.kept) == 0 {
			os.Remove(filepath.Join(w.dir, FileName))
			continue
		}
		src, err := Render(w.gen, w.pkg.Name, w.kept, Concurrent)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(w.dir, FileName), src, 0o644); err != nil {
			return nil, err
		}
		w.src = src
		patterns = append(patterns, w.pkg.PkgPath)
	}
	end(fmt.Sprintf("%d kept", kept))
	return patterns, nil
}

// typeReports sets the Result's report of each target.
func (r *run) typeReports() {
	r.res.Types = r.res.Types[:0]
	for _, t := range r.targets {
		r.res.Types = append(r.res.Types, *r.reports[t])
	}
}

// searchBudget is what the sequential runs left of the budget for the
// search, the base check's part (baseReserve) set aside: at least
// replayReserve, which the sequential runs' end leaves, but when they ran
// past it (a round waits for a blocking case's -timeout) no more than
// what is left and over (a twentieth of the budget when 0): the budget is
// kept within 5% (gocron's pull request ran 7.6% over with the whole
// reserve on top).
// `interleave pr` gives gen the reserve out of the dynamic search's share
// (ReplayReserve). 0 (no end) when the budget is 0.
func searchBudget(budget, over, sequential time.Duration, baseDir string) time.Duration {
	if budget <= 0 {
		return 0
	}
	if over <= 0 {
		over = budget / 20
	}
	left := budget - sequential - baseReserve(budget, baseDir)
	return min(max(left, replayReserve(budget)), left+over)
}

// minSearch is the least searchBudget worth a search: with less, the kept
// tests are not searched (a note says why).
const minSearch = time.Second

// replayReserve is the least of the budget the search gets when the
// sequential runs end by their part: a quarter, so that a failure its
// unperturbed runs find is replayed alone and shrunk in it, the search
// itself ending earlier (explore's reserves). A tenth was not enough:
// gocron's restart deadlock, found with 2.8 s of 27.8 s left, had no time
// for its replay (load 30).
func replayReserve(budget time.Duration) time.Duration { return budget / 4 }

// SearchBudget is searchBudget: what gen's search gets of budget after
// sequential runs that took sequential, with a base commit or not.
func SearchBudget(budget, over, sequential time.Duration, withBase bool) time.Duration {
	base := ""
	if withBase {
		base = "base"
	}
	return searchBudget(budget, over, sequential, base)
}

// ReplayReserve is replayReserve of gen's share of a budget: what
// `interleave pr` takes out of the dynamic search's share and adds to
// gen's, so that gen's search keeps it within the budget.
func ReplayReserve(share time.Duration) time.Duration { return replayReserve(share) }

// search searches the kept tests of patterns in the copy.
func (r *run) search(ctx context.Context, patterns []string) (*explore.Result, error) {
	opts := r.opts
	var skip func(explore.TestRef) bool
	if opts.skipTest != nil {
		skip = func(t explore.TestRef) bool { return opts.skipTest(t.Name) }
	}
	r.casesByTest()
	budget := searchBudget(opts.Budget, opts.Over, r.sequential, opts.BaseDir)
	var onBase []explore.TestRef
	if opts.Budget > 0 && budget < replayReserve(opts.Budget) {
		onBase = r.onBaseTests()
	}
	switch {
	case len(onBase) > 0:
		// The sequential runs ran past their part (a loaded machine, cold
		// caches): the tests that fail here and pass on the base commit,
		// the change's own, are searched anyway, alone, each to its first
		// failure or onBaseSchedules (a count, not the seconds left), the
		// whole budget only a cap. gocron's restart deadlock, found so at
		// load 43, was "not searched: their sequential runs took 32.5s of
		// -budget 27.9s".
		patterns = testPackages(onBase)
		budget = opts.Budget
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("gen's sequential runs took %v of -budget %v: only the %d generated test(s) that fail sequentially here and pass on the base commit were searched, each to its first failure or %d schedules, the budget a cap",
			r.sequential.Round(100*time.Millisecond), opts.Budget, len(onBase), onBaseSchedules))
	case opts.Budget > 0 && budget < minSearch:
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("the generated tests kept were not searched: their sequential runs took %v of -budget %v, and the budget is kept within 5%%",
			r.sequential.Round(100*time.Millisecond), opts.Budget))
		return &explore.Result{}, nil
	}
	// One instrumentation and one test binary per package for the
	// search and gen's replay (replay).
	b, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: r.copyRoot, Patterns: patterns, Race: opts.Race, Tags: opts.Tags, Stage: opts.Stage})
	if err != nil {
		return nil, r.buildError(err)
	}
	r.build = b
	eo := r.exploreOptions(patterns, budget, skip, b)
	if len(onBase) > 0 {
		eo.Run, eo.Tests = "", onBase
		eo.Schedules = onBaseSchedules
		if opts.Schedules > 0 {
			eo.Schedules = min(opts.Schedules, onBaseSchedules)
		}
		until := eo.TestUntil
		eo.TestUntil = func(f checks.Finding) bool { return keptKinds[f.Kind] || until != nil && until(f) }
	}
	er, err := explore.Run(ctx, eo)
	if note, ok := r.unsearchedNote(err); ok {
		r.res.Notes = append(r.res.Notes, note)
		return &explore.Result{}, nil
	}
	if err != nil {
		return nil, r.buildError(err)
	}
	r.res.Stats = er.Stats
	for _, n := range er.Notes {
		r.res.Notes = append(r.res.Notes, strings.ReplaceAll(n, r.copyRoot, r.modRoot))
	}
	return er, nil
}

// onBaseSchedules bounds the search of each generated test that fails
// sequentially here and passes on the base commit when the sequential
// runs left the search less than its reserve: its calls fail without any
// interleaving, so its unperturbed schedule fails already, and a few
// more schedules per worker let the search replay and shrink the failure.
const onBaseSchedules = 4

// onBaseTests are the kept cases that fail sequentially here and pass on
// the base commit (Case.OnBase), as the search names them.
func (r *run) onBaseTests() []explore.TestRef {
	var refs []explore.TestRef
	for _, w := range r.works {
		for _, c := range w.kept {
			if c.OnBase {
				refs = append(refs, explore.TestRef{Package: w.pkg.PkgPath, Name: c.Name})
			}
		}
	}
	return refs
}

// testPackages are the packages of refs, each once, in order.
func testPackages(refs []explore.TestRef) []string {
	var pkgs []string
	for _, t := range refs {
		if !slices.Contains(pkgs, t.Package) {
			pkgs = append(pkgs, t.Package)
		}
	}
	return pkgs
}

// exploreOptions are the search's options: the kept tests of patterns in
// the copy, on build b, for budget.
func (r *run) exploreOptions(patterns []string, budget time.Duration, skip func(explore.TestRef) bool, b *explore.Build) explore.Options {
	opts := r.opts
	return explore.Options{
		Build:        b,
		Dir:          r.copyRoot,
		Patterns:     patterns,
		Run:          "^TestInterleaveGen_",
		Budget:       budget,
		Schedules:    opts.Schedules,
		Strategy:     opts.Strategy,
		Seed:         opts.Seed,
		Race:         opts.Race,
		Tags:         opts.Tags,
		SchedulesDir: opts.SchedulesDir,
		Workers:      opts.Workers,
		StepTimeout:  opts.StepTimeout,
		TestUntil:    opts.testUntil,
		ReplayFirst:  r.focused,
		SkipTest:     skip,
		Progress:     opts.Progress,
		Stage:        opts.Stage,
	}
}

// focused reports whether f's generated test calls a method of
// Options.Focus (a changed one): its cause is replayed first.
func (r *run) focused(f checks.Finding) bool {
	c := r.caseOf[f.Package+"."+f.Test]
	return c != nil && c.callsFocus()
}

// casesByTest sets caseOf: the kept cases by package + "." + test.
func (r *run) casesByTest() {
	r.caseOf = map[string]*Case{}
	for _, w := range r.works {
		for _, c := range w.kept {
			r.caseOf[w.pkg.PkgPath+"."+c.Name] = c
		}
	}
}

// buildError tells a build error of the copy with the module's paths.
func (r *run) buildError(err error) error {
	var be *explore.BuildError
	if errors.As(err, &be) {
		be.Output = strings.ReplaceAll(be.Output, r.copyRoot, r.modRoot)
	}
	return err
}

// unsearchedNote is the note for a search that ended with err because the
// budget ended before its test processes started a schedule, none seen
// hanging (a loaded machine): said, as when too little was left, not a
// failure of gen's. ok is false for any other err.
func (r *run) unsearchedNote(err error) (note string, ok bool) {
	line, ok := explore.NoScheduleLine(err)
	if !ok {
		return "", false
	}
	return "the generated tests kept were not searched: " + strings.ReplaceAll(line, r.copyRoot, r.modRoot), true
}

// closeBuild removes the search's build, once made.
func (r *run) closeBuild() {
	if r.build != nil {
		r.build.Close()
	}
}

// pickFindings keeps one finding per type, kind and place in the type's
// code: the smallest test that shows it.
func (r *run) pickFindings(er *explore.Result) error {
	r.casesByTest()
	r.best = map[findingKey]checks.Finding{}
	r.dups = map[findingKey]int{}
	for _, f := range er.Findings {
		if !keptKinds[f.Kind] {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %s not reported (not caused by the interleaving of the generated calls): %s", f.Test, f.Kind, firstLine(f.Message)))
			continue
		}
		c := r.caseOf[f.Package+"."+f.Test]
		if c == nil {
			continue
		}
		if f.Kind == checks.DataRace && !c.Target.sharedRace(f) {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: data race not reported: neither access is in a method of %s that uses its locks or atomics (it claims nothing, and holds %s): %s", f.Test, c.Target, c.Target.Guard, firstLine(f.Message)))
			continue
		}
		f, err := remap(f, r.copyRoot, r.modRoot)
		if err != nil {
			return err
		}
		// Every schedule of a generated test carries its file, so that
		// it replays in the user's tree: the finding's and those of the
		// failures of its cause (SameCause), each of which names its own.
		if f.Schedule, err = r.carryTo(f.Schedule, f.Package); err != nil {
			return err
		}
		for i, o := range f.SameCause {
			if r.caseOf[f.Package+"."+o.Test] == nil {
				continue
			}
			if f.SameCause[i].Schedule, err = r.carryTo(o.Schedule, f.Package); err != nil {
				return err
			}
		}
		k := findingKey{c.Target, f.Kind, placeKey(f)}
		old, ok := r.best[k]
		switch {
		case !ok:
			r.order = append(r.order, k)
			r.best[k] = f
		case c.size() < r.caseOf[old.Package+"."+old.Test].size():
			r.best[k] = f
			r.dups[k]++
		default:
			r.dups[k]++
		}
	}
	return nil
}

// placeKey is where finding f is in the type's code ("" for the generated
// test's own failure). A data race is its two accesses, either way round:
// zap's lazy core raced as "read at logger.go:330 … previous write at
// lazy_with.go:42" in one test and the other way round in another, one
// cause.
func placeKey(f checks.Finding) string {
	if filepath.Base(f.Pos.File) == FileName {
		return ""
	}
	at := func(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }
	if f.Kind != checks.DataRace {
		return at(f.Pos.File, f.Pos.Line)
	}
	places := []string{at(f.Pos.File, f.Pos.Line)}
	for _, rel := range f.Related {
		places = append(places, at(rel.File, rel.Line))
	}
	slices.Sort(places)
	return strings.Join(slices.Compact(places), " ")
}

// replay replays the findings kept that the search did not replay alone
// on the build gen's replay would use: its schedule carries the generated
// file, and is run again as `interleave replay` runs it, in a fresh
// process, in the user's module with the file added (on the search's
// test binary when the user's module did not change since it was
// copied: the same files, the same build, where a finding the search
// replayed alone needs no second replay). One that does not reproduce
// is a note, and leaves the order. The replays run inside what is left
// of the budget (Options.Left, explore.ReplayPlan); one with no time left is
// kept as the search left it (labelled checks.NotReplayedNoTime when
// the search did not replay it either), never dropped.
func (r *run) replay(ctx context.Context) {
	r.scheds = map[findingKey]*rt.Schedule{}
	if len(r.order) == 0 {
		return
	}
	end := r.stage(fmt.Sprintf("replaying %d finding(s)", len(r.order)))
	ropts := explore.ReplayOptions{Dir: r.modRoot, StepTimeout: r.opts.StepTimeout, Stage: r.opts.Stage}
	same := r.build != nil && r.unchanged()
	if same {
		ropts.Dir, ropts.Build = r.copyRoot, r.build
	}
	list := make([]*rt.Schedule, 0, len(r.order))
	var replayable []findingKey
	var costs []time.Duration
	searched := map[findingKey]bool{} // replayed alone by the search, on this build
	var kept []findingKey             // in order: those replayed, or searched
	for _, k := range r.order {
		f := r.best[k]
		s, err := explore.ReadSchedule(f.Schedule)
		if err != nil {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: not reported: %v", f.Test, err))
			continue
		}
		r.scheds[k] = s
		kept = append(kept, k)
		if same && f.NotReplayed == "" {
			searched[k] = true
			continue
		}
		list = append(list, s)
		replayable = append(replayable, k)
		costs = append(costs, r.testCost(f.Package, f.Test))
	}
	plan := &explore.ReplayPlan{Left: r.opts.Left, Now: clock}
	rrs, errs := explore.ReplayWithin(ctx, list, ropts, plan, func(i int) time.Duration { return costs[i] })
	// A second fresh run for those that passed: the race detector's
	// report of the same interleaving is not certain in every run.
	var again []int
	for i := range replayable {
		if errs[i] == nil && rrs[i].Outcome != explore.Reproduced {
			again = append(again, i)
		}
	}
	if len(again) > 0 {
		retry := make([]*rt.Schedule, len(again))
		for j, i := range again {
			retry[j] = list[i]
		}
		rrs2, errs2 := explore.ReplayWithin(ctx, retry, ropts, plan, func(j int) time.Duration { return costs[again[j]] })
		for j, i := range again {
			if errs2[j] == nil && rrs2[j].Outcome == explore.Reproduced {
				rrs[i] = rrs2[j]
			}
		}
	}
	at := map[findingKey]int{}
	for i, k := range replayable {
		at[k] = i
	}
	r.order = r.order[:0]
	reproduced, noTime := 0, 0
	for _, k := range kept {
		f := r.best[k]
		if searched[k] {
			r.order = append(r.order, k)
			continue
		}
		i := at[k]
		switch {
		case errors.Is(errs[i], explore.ErrNoTime):
			// As the search left it: replayed alone there, or labelled
			// not replayed, with its replay line.
			noTime++
			r.order = append(r.order, k)
		case errs[i] != nil:
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %s not reported: its replay failed: %s", f.Test, f.Kind, strings.ReplaceAll(errs[i].Error(), r.copyRoot, r.modRoot)))
		case rrs[i].Outcome != explore.Reproduced:
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %s not reported: it did not replay (%s)", f.Test, f.Kind, rrs[i].Outcome))
		default:
			f.NotReplayed = "" // it replayed alone now
			r.best[k] = f
			reproduced++
			r.order = append(r.order, k)
		}
	}
	detail := fmt.Sprintf("%d reproduced", reproduced)
	if n := len(searched); n > 0 {
		detail += fmt.Sprintf(", %d replayed alone by the search already", n)
	}
	if noTime > 0 {
		detail += fmt.Sprintf(", %d not replayed again: no time was left in the budget", noTime)
	}
	end(detail)
}

// testCost is the measured cost of one process of one schedule of a
// generated test in the search (explore.TestStats.Cost), 0 when unknown.
func (r *run) testCost(pkg, test string) time.Duration {
	for _, ts := range r.res.Stats.Tests {
		if ts.Package == pkg && ts.Test == test {
			return ts.Cost
		}
	}
	return 0
}

// baseSays is what a generated finding's message adds about the base
// commit: that its calls pass sequentially there (differs, Case.OnBase),
// and the verdict v of its schedule there, when checked. With differs, a
// verdict of none is left out: the sequential runs decided, and "no base
// verdict" beside them read as none (gocron v1.15.0's restart deadlock,
// posted as new, said "too rare to compare").
func baseSays(v baseVerdict, checked, differs bool) string {
	var s string
	if differs {
		s = " (its calls fail when run sequentially on this commit and pass on the base commit)"
	}
	switch {
	case !checked:
	case v.onBase:
		s += " (fails on the base commit too: " + v.how + ")"
	case v.none && differs:
	case v.none:
		s += " (no base verdict: " + v.how + ")"
	default:
		s += " (not on the base commit: " + v.how + ")"
	}
	return s
}

// report adds the findings that replayed to the Result, told as breaking
// their type's promise, and returns the tests that failed, by package.
func (r *run) report() (failed map[string]map[string]bool) {
	failed = map[string]map[string]bool{}
	for _, k := range r.order {
		f := r.best[k]
		f.Schedule = relTo(r.opts.Dir, f.Schedule)
		f.Replay = "interleave replay " + f.Schedule
		if f.Replays != nil { // reproduced on some fresh replays only
			f.Replay = fmt.Sprintf("interleave replay -tries %d %s", f.Replays.ReplayTries(), f.Schedule)
		}
		if tok, err := explore.EncodeToken(r.scheds[k]); err == nil {
			f.ReplayToken = tok
		} else {
			f.ReplayToken = ""
		}
		if n := r.dups[k]; n > 0 {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %d more generated test(s) of %s failed the same way", f.Test, n, k.t))
		}
		f.Message = fmt.Sprintf("%s %s, but %s", k.t, k.t.promise(), f.Message)
		c := r.caseOf[f.Package+"."+f.Test]
		v, checked := r.base[k]
		f.Message += baseSays(v, checked, c != nil && c.OnBase)
		if checked && v.onBase {
			f.Baseline = checks.BaselineUnchanged
		}
		if filepath.Base(f.Pos.File) == FileName {
			// The test's own failure: shown at the type that makes the
			// promise, with the generated test's line as related.
			f.Related = append([]checks.Related{{Position: f.Pos, Message: "the generated test"}}, f.Related...)
			p := k.t.Pkg.Fset.Position(k.t.Pos)
			f.Pos = checks.Position{File: p.Filename, Line: p.Line, Column: p.Column}
			f.Snippet = explore.SourceLine(p.Filename, p.Line)
		}
		if v.onBase {
			r.res.OnBase = append(r.res.OnBase, f)
			r.reports[k.t].FailOnBase++
		} else {
			r.res.Findings = append(r.res.Findings, f)
			r.reports[k.t].Findings++
		}
		if c := r.caseOf[f.Package+"."+f.Test]; c != nil && c.callsFocus() {
			if r.res.Focused == nil {
				r.res.Focused = map[string]bool{}
			}
			r.res.Focused[f.Package+"."+f.Test] = true
		}
		if failed[f.Package] == nil {
			failed[f.Package] = map[string]bool{}
		}
		failed[f.Package][f.Test] = true
	}
	return failed
}

// writeRepros writes, for each package with a failed test, the file as
// searched (the schedules name its lines) under Options.TestsDir.
func (r *run) writeRepros(failed map[string]map[string]bool) error {
	for _, w := range r.works {
		names := failed[w.pkg.PkgPath]
		if len(names) == 0 {
			continue
		}
		var tests []string
		for _, c := range w.kept {
			if names[c.Name] {
				tests = append(tests, c.Name)
			}
		}
		path := filepath.Join(r.opts.TestsDir, filepath.FromSlash(w.pkg.PkgPath), FileName)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, w.src, 0o644); err != nil {
			return err
		}
		r.res.Repros = append(r.res.Repros, Repro{Package: w.pkg.PkgPath, Dir: pkgDir(w.pkg), Tests: tests, Source: w.src, Path: path})
	}
	return nil
}

// carryTo adds the generated file of package pkg to the schedule file at
// path (relative to the copy, or absolute), and returns its absolute path.
func (r *run) carryTo(path, pkg string) (string, error) {
	if path == "" {
		return "", nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.copyRoot, path)
	}
	return path, carry(path, r.byPkg[pkg].src)
}

// carry adds the generated file to the schedule file at path.
func carry(path string, src []byte) error {
	s, err := explore.ReadSchedule(path)
	if err != nil {
		return err
	}
	s.Version = max(s.Version, rt.ScheduleVersionFiles)
	s.Files = []rt.SourceFile{{Name: FileName, Source: string(src)}}
	return explore.WriteSchedule(path, s)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// remap rewrites the copy's paths in a finding to the module's own.
func remap(f checks.Finding, from, to string) (checks.Finding, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return f, err
	}
	fromJ, _ := json.Marshal(from)
	toJ, _ := json.Marshal(to)
	b = bytes.ReplaceAll(b, bytes.Trim(fromJ, `"`), bytes.Trim(toJ, `"`))
	var out checks.Finding
	if err := json.Unmarshal(b, &out); err != nil {
		return f, err
	}
	return out, nil
}
