package explore

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// ReplayOptions says where to replay.
type ReplayOptions struct {
	// Dir is the working directory used to find the module the schedule
	// belongs to (default: the current one) when the module around the
	// schedule file is not it.
	Dir string
	// Timeout bounds each schedule the replayed process runs (default
	// one minute): a schedule's earlier runs (Schedule.Prior) run first,
	// and the process gets Timeout for each.
	Timeout time.Duration
	// StepTimeout is the watchdog (default DefaultStepTimeout).
	StepTimeout time.Duration
	// Stage, when set, is told when instrumenting and building start and
	// end (the race build is the slow step of a cold replay).
	Stage func(StageEvent)
	// Tries is how many fresh processes may run the schedule (default 1):
	// replaying stops at the first that reproduces the failure, for one
	// that something outside the schedule decides too (checks.ReplayRate).
	Tries int
	// Build, when set, replays a schedule of a package it holds (with its
	// race and tags, carrying no file or only files the package holds as
	// they are) on its test binary instead of instrumenting and building
	// the package again.
	Build *Build
}

// ReplayOutcome says what a replay did.
type ReplayOutcome string

const (
	Reproduced ReplayOutcome = "reproduced" // the same kind of failure at the same site
	Different  ReplayOutcome = "different"  // another failure
	Passed     ReplayOutcome = "passed"     // no failure
)

// ReplayResult is one replayed schedule.
type ReplayResult struct {
	Schedule *rt.Schedule
	Outcome  ReplayOutcome
	// Finding is the failure the replay produced, if any.
	Finding *checks.Finding
	// Detail is the race report or crash output of that failure.
	Detail string
	// Diverged says where the run left the recorded schedule, if it did.
	Diverged string
	// Inconclusive says why a run that passed says nothing: the test
	// skipped itself (rt.SkippedPrefix), or a bound stopped it.
	Inconclusive string
	Steps        int
	// Decisions and States are the replayed run's own decisions and its
	// goroutines when it ended (for telling the interleaving).
	Decisions []rt.Decision
	States    []rt.GoroutineState
	// EarlyMoves are its early jumps of the clock that ended timed waits.
	EarlyMoves []rt.EarlyMove
	// Try is which run this is, from 1 (ReplayOptions.Tries).
	Try int
	// Notes are what the run showed that is not the code's failure (a
	// race of interleave's own runtime: toolRace).
	Notes []string
	// Earlier are the schedules the process ran first, in order, when the
	// schedule carries them (Schedule.Prior): the state they leave is
	// part of the replay.
	Earlier []EarlierRun
}

// EarlierRun is one schedule a replay ran before the schedule itself, in
// its process.
type EarlierRun struct {
	Test    string
	Seed    int64
	Outcome string // "pass" or a checks.FailureKind
	Site    string // where it failed, if it did
	// Diverged says where it left its recorded schedule: the state it
	// left may not be the recording's then.
	Diverged string
	// Recorded is its outcome when recorded, when the schedule says;
	// Ended its Result's here (Outcome also counts a race report).
	Recorded, Ended string
	index           int // in the process, from 0
}

// Off says how an earlier run did not do what it did when recorded (left
// its schedule, or ended otherwise): the state it left is not the
// recording's. "" when it did the same.
func (e *EarlierRun) Off() string {
	if e.Diverged != "" {
		return "left its schedule at " + e.Diverged
	}
	if e.Recorded != "" && e.Recorded != e.Ended {
		return fmt.Sprintf("ended %s where the recording's ended %s", e.Ended, e.Recorded)
	}
	return ""
}

// EarlierOff is the first earlier run that did not do what it did when
// recorded, if any.
func (r *ReplayResult) EarlierOff() *EarlierRun {
	for i := range r.Earlier {
		if r.Earlier[i].Off() != "" {
			return &r.Earlier[i]
		}
	}
	return nil
}

// Replay instruments and builds the schedule's package (with the race
// detector if the schedule was recorded with it) and runs the schedule once
// in a fresh process.
func Replay(ctx context.Context, path string, opts ReplayOptions) (*ReplayResult, error) {
	sched, err := ReadSchedule(path)
	if err != nil {
		return nil, err
	}
	return ReplaySchedule(ctx, sched, path, opts)
}

// ReplaySchedule is Replay for a schedule in hand (decoded from a token);
// path, when set, is the file it came from.
func ReplaySchedule(ctx context.Context, sched *rt.Schedule, path string, opts ReplayOptions) (*ReplayResult, error) {
	r, err := newReplayer(ctx, sched, path, opts)
	if err != nil {
		return nil, err
	}
	defer r.close()
	return r.runTries(ctx, sched, path, opts.Tries)
}

// UndecidedTries is how many fresh runs a replay of a schedule whose
// failure something besides its decisions decides (Undecided) gets when
// its caller asks for none in particular: one that reproduces three
// runs in five is then missed about once in a hundred replays.
const UndecidedTries = 5

// Undecided says what, besides its decisions, decides whether the
// schedule's failure happens again, or "" when nothing does (a replay
// that follows it to its end is the recorded run): for a data race, what
// the race detector still remembers of the earlier access (a few accesses
// per word, the older ones dropped); the state and the leftover goroutines
// of the earlier runs of its process; goroutines outside control whose
// real time moved the clock. openfga/go-sdk v0.6.0's telemetry race,
// after an earlier run of its process, reproduced on 3 of 5 replays.
func Undecided(s *rt.Schedule) string {
	var why []string
	if s.Failure != nil && s.Failure.Kind == string(checks.DataRace) {
		why = append(why, "the race detector reports a race only while it still remembers the earlier access, which no schedule fixes")
	}
	if len(s.Prior) > 0 {
		why = append(why, "it runs after earlier schedules of its process, whose leftover goroutines run in real time")
	}
	if s.ReadsGoroutines {
		why = append(why, "it read a dump of every goroutine, and goroutine IDs are handed out by the Go runtime per processor, not in the order the schedule starts goroutines")
	}
	for _, d := range s.Decisions {
		if d.Clock != 0 || d.Paced != 0 {
			why = append(why, "goroutines outside control (real I/O, real waits) ran beside it")
			break
		}
	}
	return strings.Join(why, "; ")
}

// DefaultTries is how many fresh runs a replay of s gets when its caller
// asks for none in particular: UndecidedTries when Undecided names
// something besides its decisions, else 1.
func DefaultTries(s *rt.Schedule) int {
	if Undecided(s) != "" {
		return UndecidedTries
	}
	return 1
}

// runTries runs the schedule in up to tries fresh processes (at least
// one) and returns the first run that reproduces the failure, else the
// last run. A run that skipped its test ends it: the others would too.
func (r *replayer) runTries(ctx context.Context, sched *rt.Schedule, path string, tries int) (*ReplayResult, error) {
	for try := 1; ; try++ {
		res, err := r.run(ctx, sched, path)
		if err != nil {
			return nil, err
		}
		res.Try = try
		if res.Outcome == Reproduced || try >= tries || strings.HasPrefix(res.Inconclusive, rt.SkippedPrefix) {
			return res, nil
		}
	}
}

// replayer holds an instrumented build of one package, so that several
// schedules of it can be replayed, each in a fresh process.
type replayer struct {
	opts     ReplayOptions
	pkg      string
	race     bool
	tags     string // comma-separated, as go build -tags takes them
	pkgDir   string
	work     string
	bin      string
	tests    map[string]bool
	excluded map[string]string // tests the build leaves out -> the file declaring each
	files    map[string][]byte // added to the package: path -> content
	fresh    *freshCosts       // told what each replay's process took outside its schedule
}

// MissingTestError is a schedule whose test the package does not have:
// nothing was run.
type MissingTestError struct {
	Test, Package, Dir string
	NoTests            bool // the package has no tests at all
	// Excluded is the file declaring the test when the replay's build
	// leaves it out (build constraints), with that build's race and tags.
	Excluded string
	Race     bool
	Tags     []string
}

func (e *MissingTestError) Error() string {
	what := fmt.Sprintf("test %s is not in package %s (%s)", e.Test, e.Package, e.Dir)
	if e.NoTests {
		what = fmt.Sprintf("package %s (%s) has no tests, so not the schedule's test %s", e.Package, e.Dir, e.Test)
	}
	if e.Excluded != "" {
		build := "tags " + strings.Join(e.Tags, ",")
		if len(e.Tags) == 0 {
			build = "no tags"
		}
		if e.Race {
			build += ", -race"
		}
		return fmt.Sprintf("%s: nothing was run. Its file %s is not in the replay's build (%s, from the schedule): its build constraints exclude it. "+
			"A schedule recorded before schedules carried their tags builds without them: add them with GOFLAGS=-tags=...", what, filepath.Base(e.Excluded), build)
	}
	if strings.HasPrefix(e.Test, "TestInterleaveGen_") {
		return what + ": nothing was run. It is a test interleave gen generated, and the schedule does not carry it " +
			"(recorded before schedules carried their generated test): run interleave gen again for a schedule that replays"
	}
	return what + ": nothing was run. The test was renamed or removed since the schedule was recorded"
}

func newReplayer(ctx context.Context, sched *rt.Schedule, path string, opts ReplayOptions) (*replayer, error) {
	var err error
	if opts.Dir == "" {
		if opts.Dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = time.Minute
	}
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = DefaultStepTimeout
	}
	pkgDir, err := packageDir(sched, opts.Dir, path)
	if err != nil {
		return nil, err
	}
	if opts.Build != nil {
		if r, err := opts.Build.replayer(ctx, sched, pkgDir, opts); r != nil || err != nil {
			return r, err
		}
	}
	// The files the schedule carries (a generated test) join the package.
	var overlay map[string][]byte
	what := "instrumenting " + sched.Package
	for _, f := range sched.Files {
		if !validFileName(f.Name) {
			return nil, fmt.Errorf("the schedule carries a file named %q, not a test file name", f.Name)
		}
		if overlay == nil {
			overlay = map[string][]byte{}
			what += " with the test file the schedule carries"
		}
		overlay[filepath.Join(pkgDir, f.Name)] = []byte(f.Source)
	}
	endStage := stageOf(opts.Stage, what)
	inst, err := instrumentOverlay(ctx, pkgDir, []string{"."}, sched.Race, sched.Tags, overlay)
	if err != nil {
		return nil, err
	}
	endStage("")
	defer inst.Cleanup()
	r := &replayer{opts: opts, pkg: sched.Package, race: sched.Race, tags: strings.Join(sched.Tags, ","), pkgDir: pkgDir, tests: map[string]bool{}, files: overlay}
	for _, p := range inst.Packages {
		if p.ImportPath == sched.Package {
			for _, n := range p.Tests {
				r.tests[n] = true
			}
			r.excluded = p.Excluded
		}
	}
	if len(r.tests) == 0 {
		return nil, &MissingTestError{Test: sched.Test, Package: sched.Package, Dir: pkgDir, NoTests: true, Excluded: r.excluded[sched.Test], Race: sched.Race, Tags: sched.Tags}
	}
	if r.work, err = os.MkdirTemp("", "interleave-replay-"); err != nil {
		return nil, err
	}
	r.bin = filepath.Join(r.work, "replay.test")
	what = "building the test binary of " + sched.Package
	if sched.Race {
		what += " with the race detector (the first build also compiles the standard library and the dependencies for it)"
	}
	endStage = stageOf(opts.Stage, what)
	if err := build(ctx, inst, sched.Package, r.bin, sched.Race, sched.Tags); err != nil {
		r.close()
		return nil, err
	}
	endStage("")
	return r, nil
}

func (r *replayer) close() { os.RemoveAll(r.work) }

// run replays one schedule of the replayer's package in a fresh process.
func (r *replayer) run(ctx context.Context, sched *rt.Schedule, path string) (*ReplayResult, error) {
	if tags := strings.Join(sched.Tags, ","); sched.Package != r.pkg || sched.Race != r.race || tags != r.tags {
		return nil, fmt.Errorf("%s: schedule of %s (race %v, tags %q) given to a build of %s (race %v, tags %q)", path, sched.Package, sched.Race, tags, r.pkg, r.race, r.tags)
	}
	if !r.tests[topTest(sched.Test)] {
		return nil, &MissingTestError{Test: sched.Test, Package: sched.Package, Dir: r.pkgDir, Excluded: r.excluded[topTest(sched.Test)], Race: sched.Race, Tags: sched.Tags}
	}
	// A long prefix of earlier runs (a process's thousands) is not cut
	// at one schedule's bound.
	timeout := r.opts.Timeout * time.Duration(1+len(sched.Prior))
	cfg := rt.Config{
		Test:        sched.Test,
		Strategy:    sched.Strategy,
		Seed:        sched.Seed,
		Schedules:   1,
		Deadline:    time.Now().Add(timeout),
		StepTimeout: r.opts.StepTimeout,
		Trace:       true,
		KeepEarly:   sched.KeepEarly,
		Runs:        sched.Runs,
		MaxSteps:    sched.MaxSteps,
		TestTimeout: sched.TestTimeout,
		Run:         sched.Run,
		Skip:        sched.Skip,
	}
	if len(sched.Decisions) > 0 {
		c := *sched
		c.Files = nil // already in the build
		cfg.Replay = &c
	}
	// A process that does not exit after its schedule (goroutines of the
	// test still running) is not waited for past childGrace.
	c := &child{bin: r.bin, dir: r.pkgDir, workDir: r.work, cfg: cfg, exitGrace: childGrace, fresh: r.fresh}
	out, err := c.run(ctx, time.Now().Add(timeout+childGrace), "replay")
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil && (len(out.results) == 0 || out.crashed >= 0) {
		// Stopped before the schedule ended. (One that ended counts,
		// though its process did not exit in time.)
		return nil, ctx.Err()
	}
	res := &ReplayResult{Schedule: sched, Outcome: Passed}
	// With Prior, the process ran those schedules first (indices from
	// 0): only the last, the schedule itself, is replayed.
	target, prior := len(sched.Prior), len(sched.Prior) > 0
	if prior && out.crashed >= 0 && out.crashed < target {
		return nil, fmt.Errorf("schedule %d of the %d run before it crashed: %s", out.crashed+1, target, firstLine(out.crashText))
	}
	if prior {
		ran := false
		for _, rr := range out.results {
			ran = ran || rr.Index == target
		}
		if !ran && out.crashed != target {
			return nil, fmt.Errorf("the process stopped before the schedule, after %d of the %d run before it:\n%s", len(out.results), target, tailLines(out.stdout+out.stderr, 10))
		}
	}
	var fails []*failure
	var last *rt.Result
	for i := range out.results {
		rr := out.results[i]
		if prior && rr.Index < target {
			p := sched.Prior[rr.Index]
			res.Earlier = append(res.Earlier, EarlierRun{Test: p.Test, Seed: rr.Seed, Outcome: rr.Outcome, Site: rr.Site, Diverged: rr.Diverged, Recorded: p.Outcome, Ended: rr.Outcome, index: rr.Index})
		}
		if prior && rr.Index != target {
			continue
		}
		last = &rr
		if rr.Progress {
			continue // slow, not hung: no failure (stuck)
		}
		if f, ok := fromResult(rr); ok {
			withLog(f, out.logs[rr.Index], out.logSubs[rr.Index], r.pkgDir)
			if raceEcho(f) {
				continue
			}
			fails = append(fails, f)
		}
	}
	if last != nil {
		res.Diverged, res.Steps, res.Inconclusive = last.Diverged, last.Steps, last.Inconclusive
		res.Decisions, res.States, res.EarlyMoves = last.Decisions, last.Goroutines, last.EarlyMoves
		if last.Progress && res.Inconclusive == "" {
			res.Inconclusive = "the watchdog ended it, but " + rt.ProgressNote
		}
	}
	for _, rep := range out.races {
		if prior && rep.Index < target {
			// A race of an earlier run is part of the state it left.
			for k := range res.Earlier {
				if e := &res.Earlier[k]; e.index == rep.Index && e.Outcome == "pass" {
					if _, tool := toolRace(rep); !tool {
						e.Outcome = string(checks.DataRace)
					}
				}
			}
		}
		if prior && rep.Index != target {
			continue
		}
		if n, ok := toolRace(rep); ok {
			res.Notes = append(res.Notes, n)
		} else if f, ok := fromRace(rep); ok {
			fails = append(fails, f)
		}
	}
	if out.crashed >= 0 && (last == nil || last.Index != out.crashed || last.Outcome == "pass") {
		fails = append(fails, fromCrash(out.crashText, out.exitErr, out.killed))
	}
	if out.started == 0 && len(out.results) == 0 && len(fails) == 0 {
		return nil, fmt.Errorf("the instrumented test binary ran no schedule:\n%s", tailLines(out.stdout+out.stderr, 20))
	}
	if len(fails) == 0 {
		return res, nil
	}
	pick := fails[0]
	res.Outcome = Different
	if sched.Failure != nil {
		for _, f := range fails {
			if string(f.kind) == sched.Failure.Kind && (sameSite(f.site, sched.Failure.Site) || r.sameLoop(f, sched.Failure)) {
				pick = f
				res.Outcome = Reproduced
				break
			}
		}
	}
	fd := makeFinding(pick, sched.Package, sched.Test, path)
	fd.Replay = ""
	if fd.Snippet == "" {
		fd.Snippet = r.line(fd.Pos.File, fd.Pos.Line)
	}
	fd.Interleaving = tell(res.Decisions, res.States, pick.kind, r.sourceAt())
	if fd.Interleaving != nil {
		fd.Interleaving.End = endOf(pick)
	}
	fd.EarlyTimers = earlyTimers(fd.EarlyTimers, res.Decisions, res.EarlyMoves, false)
	res.Finding = &fd
	res.Detail = pick.detail
	return res, nil
}

// sourceAt is the line of a "file.go:12" site of the package, for one
// telling: each site is read once (a shrunk schedule still visits a few
// sites thousands of times, and a read scans a file), as search.sourceAt.
func (r *replayer) sourceAt() func(site string) string {
	return eachSiteOnce(func(site string) string {
		if pos, ok := parseSite(site); ok {
			return r.line(filepath.Join(r.pkgDir, filepath.Base(pos.File)), pos.Line)
		}
		return ""
	})
}

// line is line n of file, from the files the schedule carries if it is one.
func (r *replayer) line(file string, n int) string {
	src, ok := r.files[file]
	if !ok {
		return SourceLine(file, n)
	}
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// sameLoop: a leak of goroutines still running (rt.LeakRunning) stops
// them wherever the steps after the test end, so a replay that had to
// leave the schedule (a map's order) may stop the same loop at another
// line of it, or in a closure it calls. Same file, same top-level
// function: the same failure.
func (r *replayer) sameLoop(f *failure, sig *rt.Signature) bool {
	if f.kind != checks.Leak || !strings.HasPrefix(f.message, rt.LeakRunning) || !strings.HasPrefix(sig.Message, rt.LeakRunning) {
		return false
	}
	pa, oka := parseSite(f.site)
	pb, okb := parseSite(sig.Site)
	if !oka || !okb || filepath.Base(pa.File) != filepath.Base(pb.File) {
		return false
	}
	file := pa.File
	if !filepath.IsAbs(file) {
		file = filepath.Join(r.pkgDir, filepath.Base(file))
	}
	src, ok := r.files[file]
	if !ok {
		var err error
		if src, err = os.ReadFile(file); err != nil {
			return false
		}
	}
	return sameFunc(src, pa.Line, pb.Line)
}

// sameFunc reports whether lines a and b of the Go source src are in the
// same top-level function declaration (its closures included).
func sameFunc(src []byte, a, b int) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	decl := func(line int) ast.Decl {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fset.Position(fd.Pos()).Line <= line && line <= fset.Position(fd.End()).Line {
				return fd
			}
		}
		return nil
	}
	da := decl(a)
	return da != nil && da == decl(b)
}

// sameSite compares two file:line sites; a schedule recorded on another
// machine has another absolute path, so only the module-relative tail counts.
func sameSite(a, b string) bool {
	if a == b {
		return true
	}
	pa, oka := parseSite(a)
	pb, okb := parseSite(b)
	if !oka || !okb || pa.Line != pb.Line {
		return false
	}
	fa, fb := filepath.ToSlash(pa.File), filepath.ToSlash(pb.File)
	return strings.HasSuffix(fa, "/"+filepath.Base(fb)) && (strings.HasSuffix(fa, fb) || strings.HasSuffix(fb, fa) ||
		filepath.Base(filepath.Dir(fa)) == filepath.Base(filepath.Dir(fb)))
}

// packageDir finds the schedule's package directory: Schedule.Dir under the
// module root above dir, or above the schedule file.
func packageDir(s *rt.Schedule, dir, path string) (string, error) {
	starts := []string{dir}
	if path != "" {
		abs, _ := filepath.Abs(path)
		starts = []string{filepath.Dir(abs), dir}
	}
	// The schedule file usually sits inside the module it came from; the
	// working directory may be another module (a parent repository).
	for _, start := range starts {
		root := moduleRoot(start)
		if root == "" {
			continue
		}
		d := filepath.Join(root, filepath.FromSlash(s.Dir))
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		if importPath(root, s.Dir) == s.Package {
			return d, nil
		}
	}
	return "", wrongPlace(s, dir)
}

// wrongPlace says why the schedule's package is not here: another module,
// or a package of this module that does not exist (any more).
func wrongPlace(s *rt.Schedule, dir string) error {
	want := scheduleModule(s)
	root := moduleRoot(dir)
	if root == "" {
		return fmt.Errorf("this schedule is for package %s of module %s, and %s is not inside a Go module: run interleave replay in a clone of %s", s.Package, want, dir, want)
	}
	here := importPath(root, ".")
	if want != "" && here != want {
		return fmt.Errorf("this schedule is for package %s of module %s, but %s is in module %s: run interleave replay in a clone of %s", s.Package, want, dir, here, want)
	}
	return fmt.Errorf("this schedule is for package %s, which is not in this checkout of %s (no directory %s under %s): check out the commit the schedule was recorded on", s.Package, here, s.Dir, root)
}

// scheduleModule is the module path of the schedule's package: its import
// path without the package's directory under the module root.
func scheduleModule(s *rt.Schedule) string {
	if s.Dir == "" || s.Dir == "." {
		return s.Package
	}
	if m, ok := strings.CutSuffix(s.Package, "/"+s.Dir); ok {
		return m
	}
	return ""
}

// importPath returns the import path of directory rel (slash-separated)
// of the module rooted at root, or "" when go.mod names no module.
func importPath(root, rel string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	mod := modfile.ModulePath(data)
	if mod == "" || rel == "." || rel == "" {
		return mod
	}
	return mod + "/" + rel
}

// moduleRoot returns the nearest directory at or above dir holding go.mod.
func moduleRoot(dir string) string {
	dir, _ = filepath.Abs(dir)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// rerecord is for a replay res of sched, in a fresh process, that left the
// schedule and then failed the same way: the schedule as recorded does
// not replay (the recording process had state a fresh one has not, as
// what earlier schedules left in a cache), the fresh run's own decisions
// may. It replays those in another fresh process and returns that run
// when it follows them to the end and fails the same way; else nil and
// what that run did.
func (r *replayer) rerecord(ctx context.Context, sched *rt.Schedule, res *ReplayResult) (*ReplayResult, string) {
	if res.Outcome != Reproduced || res.Diverged == "" || len(res.Decisions) == 0 {
		return nil, "no decisions to replay"
	}
	again := *sched
	again.Decisions, again.Original = res.Decisions, nil
	rr, err := r.run(ctx, &again, "")
	switch {
	case err != nil:
		return nil, firstLine(err.Error())
	case rr.Outcome == Reproduced && rr.Diverged == "":
		return rr, ""
	case rr.Diverged != "":
		return nil, string(rr.Outcome) + ", diverged " + rr.Diverged
	}
	return nil, string(rr.Outcome)
}

// rerecorded makes the finding fd of t's failure whose schedule file is
// fd.Schedule tell and replay the schedule again, re-recorded in a fresh
// process (rerecord): the failure's decisions and final goroutines become
// that run's, and its schedule file, token and interleaving are made anew.
func (s *search) rerecorded(ctx context.Context, t *target, fd *checks.Finding, again *ReplayResult) error {
	var f *failure
	for k, g := range s.failures {
		if s.owners[k] == t && scheduleName(t, g) == filepath.Base(fd.Schedule) {
			f = g
		}
	}
	if f == nil {
		return fmt.Errorf("no failure of %s has the schedule %s", t.name, fd.Schedule)
	}
	f.decisions, f.states, f.moves = again.Decisions, again.States, again.EarlyMoves
	nf, err := s.finding(ctx, f, t, false)
	if err != nil {
		return err
	}
	*fd = nf
	return nil
}
