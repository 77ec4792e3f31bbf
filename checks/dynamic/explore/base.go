package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// BaseOptions says where and how long to look for a change's failures on
// its base commit.
type BaseOptions struct {
	// Dir is the module root in a checkout of the base commit.
	Dir string
	// Budget is the wall time of the replays on the base and the bounded
	// search there, over all the packages of the failures that their
	// schedules do not reproduce (builds excluded; at least MinSearch a
	// package for the search).
	Budget time.Duration
	// MinSearch, when over a second, is the least each package's search
	// gets.
	MinSearch time.Duration
	// UntilSame ends a package's search at the first failure the same as
	// one of those it looks for (Options.Until): the verdict is known.
	UntilSame   bool
	Schedules   int    // bounds the search as Options.Schedules; 0: the budget alone
	Strategy    string // of the bounded search ("" for the default)
	Seed        int64
	Race        bool
	Tags        []string // build tags of the search on the base
	Workers     int
	StepTimeout time.Duration
	// EarlySleep is the head's search's (Options.EarlySleep): the base is
	// searched with the same early sleeps, so a failure they cause there
	// too is the base's.
	EarlySleep bool
	// Targets are the head's search's Options.Targets on the base's lines:
	// a failure's rate on the head, from a search aimed there, is compared
	// with one from a search aimed alike.
	Targets []string
	Stage   func(StageEvent) // told of the builds and searches, as Options.Stage
	// Left, when set, is what is left of the whole job's budget now, its
	// builds excluded (`interleave pr`'s one clock): a replay runs only
	// when it fits (ReplayPlan), and a package's search gets no more than
	// its part of it, none when that is under a second. A failure with no
	// time left for its replay gets a verdict that says so (uncompared).
	Left func() time.Duration
	Now  func() time.Time // the clock of ReplayPlan (time.Now when nil)
}

// noTimeOnBase is the verdict of a failure whose replay on the base
// commit found no time left in the budget: nothing says it is the
// change's.
func noTimeOnBase() BaseVerdict {
	return BaseVerdict{How: "no time was left in the budget to replay it on the base commit", Unconfirmed: true, Uncompared: true, NoTime: true}
}

// minBaseSearch is the least search on the base commit worth running
// when the budget bounds it (BaseOptions.Left).
const minBaseSearch = time.Second

// BaseVerdict is what the base commit did with one failure of the head.
type BaseVerdict struct {
	// OnBase is set when the failure happens on the base commit too: it
	// is not the change's.
	OnBase bool
	// How says how that was decided, for the reader.
	How string
	// Unconfirmed is set when the base commit could not run it (no such
	// test, package or module there, or it does not build): nothing on
	// the base says whether the change caused it.
	Unconfirmed bool
	// Uncompared is set, with Unconfirmed, when the base commit has the
	// test's package but could not build or run it: the failure may be
	// the base's too, and nothing says it is the change's.
	Uncompared bool
	// NoTime is set, with Uncompared, when its replay on the base found
	// no time left in the budget (BaseOptions.Left).
	NoTime bool
	// TooRare is set, with Uncompared, when the failure was too rare on
	// the head for the base's chances at it to say it is not there
	// (chancesNeeded).
	TooRare bool
}

// cannotRun is the verdict of a failure the base commit could not run
// because of err.
func cannotRun(err error) BaseVerdict {
	var be *BuildError
	return BaseVerdict{How: "the base commit cannot run it (" + errSummary(err) + ")", Unconfirmed: true, Uncompared: errors.As(err, &be)}
}

// compileFailed reports whether a build's output shows a compiler's or
// go's own error at a position ("x.go:3:7: undefined: y"): the code does
// not build. Without one (killed, out of memory, no output) the build
// failed for the machine's sake and is worth a second try.
func compileFailed(err error) bool {
	var be *BuildError
	if !errors.As(err, &be) {
		return true
	}
	return compileErrorRE.MatchString(be.Output)
}

var compileErrorRE = regexp.MustCompile(`(?m)\.go:\d+(:\d+)?: |^go: `)

// CheckBase decides, for each dynamic finding of a change's head, whether
// the base commit has the same failure: its schedule is replayed on the
// base, and the failures it does not reproduce are searched for there
// with a bounded search of their tests. A test or package the base does
// not have cannot fail there.
func CheckBase(ctx context.Context, findings []checks.Finding, opts BaseOptions) (out []BaseVerdict, err error) {
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = DefaultStepTimeout
	}
	out = make([]BaseVerdict, len(findings))
	testsOf := map[string]map[string]bool{} // the base's tests, by package
	pkgOf := make([]string, len(findings))  // each finding's package
	followed := make([]bool, len(findings)) // its replay there kept to its schedule
	defer func() {
		if err == nil {
			newTestMembers(out, findings, pkgOf, testsOf)
		}
	}()
	// A path inside the base module: replays resolve the package there.
	anchor := filepath.Join(opts.Dir, "base.json")
	reps := map[string]*replayer{}
	repErr := map[string]error{}
	defer func() {
		for _, r := range reps {
			r.close()
		}
	}()
	// Each package is instrumented and built once on the base, for its
	// replays and its search.
	builds := &baseBuilds{opts: opts, byPkg: map[string]*Build{}}
	defer builds.close()
	search := map[string][]int{} // package -> findings left to search for
	var pkgs []string
	var replayed time.Duration // the replays' runs, their builds excluded
	plan := &ReplayPlan{Left: opts.Left, Now: opts.Now}
	for i, f := range findings {
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			return nil, err
		}
		pkgOf[i] = sched.Package
		// The files a schedule carries (a generated test) are in its build.
		key := fmt.Sprintf("%s|%v|%s|%s", sched.Package, sched.Race, strings.Join(sched.Tags, ","), filesKey(sched.Files))
		rep, ok := reps[key]
		if !ok && repErr[key] == nil {
			ropts := ReplayOptions{Dir: opts.Dir, StepTimeout: opts.StepTimeout, Stage: opts.Stage, Build: builds.of(ctx, sched, anchor)}
			rep, err = newReplayer(ctx, sched, anchor, ropts)
			if err != nil && ctx.Err() == nil && !compileFailed(err) {
				ropts.Build = nil // its own build: the shared one keeps its failure
				rep, err = newReplayer(ctx, sched, anchor, ropts)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				repErr[key] = err
			} else {
				reps[key] = rep
				testsOf[sched.Package] = rep.tests
			}
		}
		if rep == nil {
			out[i] = cannotRun(repErr[key])
			continue
		}
		if !rep.tests[topTest(sched.Test)] {
			out[i] = BaseVerdict{How: "the base commit has no test " + sched.Test, Unconfirmed: true}
			continue
		}
		if !plan.Fits(0) {
			out[i] = noTimeOnBase()
			continue
		}
		// A schedule whose failure something besides its decisions
		// decides (a data race: what the race detector still remembers)
		// runs again while it does not reproduce, or a failure the base
		// has too is told as new in the change; while the replays have
		// taken under a quarter of the budget: the rest is the search's,
		// which finds a failure the base has on other schedules.
		tries := DefaultTries(sched)
		var rr *ReplayResult
		for try := 0; try < tries && (try == 0 || replayed < opts.Budget/4 && plan.Fits(0)); try++ {
			began := time.Now()
			rr, err = rep.run(ctx, sched, anchor)
			plan.Done()
			replayed += time.Since(began)
			if err != nil || rr.Finding != nil && SameFailure(*rr.Finding, f) {
				break
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v := cannotRun(err)
			v.Uncompared = true // it has the test: running it failed
			out[i] = v
			continue
		}
		if rr.Finding != nil && SameFailure(*rr.Finding, f) {
			out[i] = BaseVerdict{OnBase: true, How: "its schedule fails the same way on the base commit"}
			continue
		}
		followed[i] = rr.Diverged == ""
		if len(search[sched.Package]) == 0 {
			pkgs = append(pkgs, sched.Package)
		}
		search[sched.Package] = append(search[sched.Package], i)
	}
	if len(pkgs) == 0 {
		return out, nil
	}
	per := max(baseSearchBudget(opts.Budget, replayed, len(pkgs)), opts.MinSearch)
	for n, pkg := range pkgs {
		idx := search[pkg]
		budget := per
		if opts.Left != nil {
			// Its part of what is left of the job's budget, at most.
			if budget = min(per, opts.Left()/time.Duration(len(pkgs)-n)); budget < minBaseSearch {
				for _, i := range idx {
					out[i].How = "its schedule does not fail this way on the base commit (no time was left in the budget to search there)"
					out[i] = tooRareOnBase(out[i], findings[i].Frequency, 0, followed[i])
				}
				continue
			}
		}
		var refs []TestRef
		seen := map[string]bool{}
		for _, i := range idx {
			if !seen[findings[i].Test] {
				seen[findings[i].Test] = true
				refs = append(refs, TestRef{Package: pkg, Name: findings[i].Test})
			}
		}
		schedDir, err := os.MkdirTemp("", "interleave-base-")
		if err != nil {
			return nil, err
		}
		var until func(checks.Finding) bool
		if opts.UntilSame {
			until = func(b checks.Finding) bool {
				for _, i := range idx {
					if SameFailure(b, findings[i]) {
						return true
					}
				}
				return false
			}
		}
		// With Targets, two searches: aimed where the head's was (a rate
		// from the head's aimed search is compared with one drawn alike),
		// then not (a failure the base has is the base's however it is
		// found: gocron v1.15.0's TestScheduler_Update race, 4 of 6 aimed
		// schedules of the head, met by none of 7 aimed ones of the base
		// and by 30 of 190 unaimed). Each gets its part of what is left.
		passes := [][]string{opts.Targets}
		if len(opts.Targets) > 0 {
			passes = append(passes, nil)
		}
		began := time.Now()
		var found []checks.Finding
		var st []Stats
		for p, targets := range passes {
			share := (budget - time.Since(began)) / time.Duration(len(passes)-p)
			if p > 0 && (share < minBaseSearch || allSame(found, findings, idx)) {
				break
			}
			var res *Result
			res, err = Run(ctx, Options{
				Dir: opts.Dir, Patterns: []string{pkg}, Tests: refs, Budget: share, Schedules: baseSchedules(opts, findings, idx), Until: until,
				Strategy: opts.Strategy, Seed: opts.Seed + int64(p), Race: opts.Race, Tags: opts.Tags, SchedulesDir: schedDir, Workers: opts.Workers, StepTimeout: opts.StepTimeout,
				EarlySleep: opts.EarlySleep, Targets: targets, Stage: opts.Stage, Build: builds.byPkg[pkg],
			})
			if err != nil {
				break
			}
			found = append(found, res.Findings...)
			st = append(st, res.Stats)
		}
		os.RemoveAll(schedDir)
		if err != nil && len(st) == 0 {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			for _, i := range idx {
				out[i] = cannotRun(err)
			}
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		searches := "a search"
		if len(st) > 1 {
			searches = "searches"
		}
		for _, i := range idx {
			// Its schedule may fail otherwise there (diverged into a leak).
			n, compared := comparedSchedules(st, findings[i].Test, len(opts.Targets) > 0)
			aimed := ""
			switch {
			case len(st) > 1:
				aimed = fmt.Sprintf(" (%d aimed where the head's was, the others not)", compared)
			case len(opts.Targets) > 0:
				aimed = " aimed where the head's was"
			}
			out[i].How = fmt.Sprintf("neither its schedule nor %d %s of %s of %s%s fail this way on the base commit", n, checks.Plural(n, "schedule"), searches, findings[i].Test, aimed)
			onBase := false
			for _, b := range found {
				if SameFailure(b, findings[i]) {
					out[i] = BaseVerdict{OnBase: true, How: "a search on the base commit fails the same way"}
					onBase = true
					break
				}
			}
			if !onBase {
				out[i] = tooRareOnBase(out[i], findings[i].Frequency, compared, followed[i])
			}
		}
	}
	return out, nil
}

// newTestMembers gives a failure too rare to compare on the base commit
// (TooRare) the verdict of another failure of its cause in a test of the
// same package that the base commit does not have: that one is new in
// the change, as it would be had it been the cause's first (otel's
// sdk/metric v1.39.0 race, periodic_reader.go:132 against :260, was
// found in TestMalformedSelectors, which the base has, 2 of 286
// schedules, and in the new TestPeriodicReaderInstrumentation: posted
// when the latter came first, left to the summary when the former did).
func newTestMembers(out []BaseVerdict, findings []checks.Finding, pkgOf []string, testsOf map[string]map[string]bool) {
	for i, f := range findings {
		tests := testsOf[pkgOf[i]]
		if !out[i].TooRare || tests == nil {
			continue
		}
		for _, o := range f.SameCause {
			if o.Test == "" || o.Schedule == "" {
				continue
			}
			s, err := ReadSchedule(o.Schedule)
			if err != nil || s.Package != pkgOf[i] || tests[topTest(o.Test)] {
				continue
			}
			out[i] = BaseVerdict{How: "the base commit has no test " + o.Test + ", where this failure's cause fails too (too rare in " + f.Test + " to compare)", Unconfirmed: true}
			break
		}
	}
}

// comparedSchedules counts the schedules of test in the base searches st:
// all of them (n), and those whose misses weigh against the head's rate
// (compared). When the head's search was aimed (aimed), that is the first
// search's only, aimed alike: the test compares two rates drawn the same
// way, and schedules drawn otherwise meet a failure at another rate,
// higher or lower (gocron v1.15.0's TestScheduler_Update race: none of 7
// aimed base schedules, 30 of 190 unaimed ones). The unaimed search
// still shows a failure the base has (CheckBase), but its misses are
// not counted against the head's rate.
func comparedSchedules(st []Stats, test string, aimed bool) (n, compared int) {
	for k, s := range st {
		c := testSchedules(s, test)
		n += c
		if k == 0 || !aimed {
			compared += c
		}
	}
	return n, compared
}

// allSame reports whether each of the failures idx of findings is the
// same as one of found.
func allSame(found, findings []checks.Finding, idx []int) bool {
	for _, i := range idx {
		if !slices.ContainsFunc(found, func(b checks.Finding) bool { return SameFailure(b, findings[i]) }) {
			return false
		}
	}
	return true
}

// baseBuilds is CheckBase's Build of each package of the base commit, made
// at its first replay there when the replay and the search can share it:
// the schedule has the search's race and tags, and the files it carries
// are in the package (gen writes its test there). A package whose Build
// fails gets none: its replay instruments it alone and says why it fails.
type baseBuilds struct {
	opts  BaseOptions
	byPkg map[string]*Build // by import path; nil: none
}

func (bb *baseBuilds) of(ctx context.Context, sched *rt.Schedule, anchor string) *Build {
	if sched.Race != bb.opts.Race || strings.Join(sched.Tags, ",") != strings.Join(bb.opts.Tags, ",") {
		return nil
	}
	pkgDir, err := packageDir(sched, bb.opts.Dir, anchor)
	if err != nil {
		return nil
	}
	for _, f := range sched.Files {
		if src, err := os.ReadFile(filepath.Join(pkgDir, f.Name)); err != nil || string(src) != f.Source {
			return nil
		}
	}
	if b, ok := bb.byPkg[sched.Package]; ok {
		return b
	}
	bb.byPkg[sched.Package] = nil
	rel, err := filepath.Rel(bb.opts.Dir, pkgDir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	b, err := NewBuild(ctx, BuildOptions{Dir: bb.opts.Dir, Patterns: []string{"./" + filepath.ToSlash(rel)}, Race: bb.opts.Race, Tags: bb.opts.Tags, Stage: bb.opts.Stage})
	if err != nil {
		return nil
	}
	bb.byPkg[sched.Package] = b
	return b
}

func (bb *baseBuilds) close() {
	for _, b := range bb.byPkg {
		if b != nil {
			b.Close()
		}
	}
}

// baseMissExp is the level of chancesNeeded's test: e^-3, 5%.
// ttlcache-stopfirst's Test_Cache_Start race failed on 2 of 952
// schedules of the head; 162 of the base's missed it, and a race v3.3.0
// has too was posted as new.
const baseMissExp = 3

// chancesNeeded is how many schedules of a failure's test on the base
// commit, its own replay counted, must all miss it before that says the
// base fails that way less often than the head, which had it on k of N
// (q): the fewest M with C(N,k)/C(N+M,k) <= e^-baseMissExp, the chance
// that k failures of one rate over N+M schedules all fall on the head's
// N (a one-sided Fisher exact test). About 3·N/k for many failures, 19·N
// for one: gocron v1.15.0's sleep-timed TestScheduler_Update failed on 1
// of 3 schedules, 15 on the base missed it, and it was posted as new
// (they would miss it 17% of the time at one rate). One when q is
// unknown. A failure on every schedule needs fewer the more schedules
// those were (2 for 5 of 5, 1 from 20 of 20), and as many as one in many
// when they were few (20 for 1 of 1: fsnotify v1.7.0's
// TestClose/closes_channels_after_read leak, on the one schedule its
// search ran, was posted as new after its replay on v1.6.0, which left
// the schedule, and 5 schedules there missed it; the leak is v1.6.0's
// too); its replay on the base alone decides only when it followed the
// schedule to the end (tooRareOnBase).
func chancesNeeded(q *checks.Frequency) int {
	if q == nil || q.Failing <= 0 || q.Schedules <= 0 {
		return 1
	}
	n, k := float64(q.Schedules), float64(min(q.Failing, q.Schedules))
	lgamma := func(x float64) float64 { l, _ := math.Lgamma(x); return l }
	// log C(N,k)/C(N+M,k), falling as M grows: the least M at or under
	// -baseMissExp.
	missAll := func(m float64) float64 {
		return lgamma(n+1) - lgamma(n-k+1) - lgamma(n+m+1) + lgamma(n+m-k+1)
	}
	lo, hi := 0, 1
	for missAll(float64(hi)) > -baseMissExp {
		lo, hi = hi, 2*hi
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if missAll(float64(mid)) > -baseMissExp {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return max(hi, 1)
}

// baseSchedules is the count bound of the base commit's search for the
// failures idx of findings (Options.Schedules): none when the search on
// the head had none, else at least what gives each its chances
// (chancesNeeded), over the workers. A count-bounded search (-count)
// that ran 20 schedules a worker on the base called a failure of 1 in
// 201 too rare to compare, every time.
func baseSchedules(opts BaseOptions, findings []checks.Finding, idx []int) int {
	if opts.Schedules <= 0 {
		return opts.Schedules
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := opts.Schedules
	for _, i := range idx {
		need := chancesNeeded(findings[i].Frequency) - 1 // its replay ran
		n = max(n, (need+workers-1)/workers)
	}
	return n
}

// tooRareOnBase is v, the verdict of a failure the head had on q of its
// schedules that neither its schedule's replay nor searched schedules
// of a search on the base commit reproduced, unless those chances are
// fewer than chancesNeeded: then missing it on the base says nothing,
// and it is not compared (never posted as the change's). A failure on
// every schedule of the head whose replay followed its schedule to the
// end on the base (followed) without failing that way there is v: the
// same decisions end otherwise there.
func tooRareOnBase(v BaseVerdict, q *checks.Frequency, searched int, followed bool) BaseVerdict {
	need := chancesNeeded(q)
	if 1+searched >= need || followed && q != nil && q.Every() {
		return v
	}
	return BaseVerdict{
		How: fmt.Sprintf("too rare to compare in the time left: it failed on %d of %d schedules here, and the base commit ran its schedule and %d %s of its test, under the %d that would show it fails less often there",
			q.Failing, q.Schedules, searched, checks.Plural(searched, "schedule"), need),
		Unconfirmed: true, Uncompared: true, TooRare: true,
	}
}

// baseSearchSchedules is how many schedules of a failure's test BaseCost
// sizes the search on the base commit for: a failure's own schedule most
// often replays there when the base has it (logrus's leak took 0.5s of the
// 30s a fixed quarter of -budget kept), and the search is for the rest.
const baseSearchSchedules = 3

// BaseCost is what CheckBase needs for failures of the causes given (a
// schedule in a process of its own each, as Options.KeepFor is told):
// each replayed once on the base, then a search there of
// baseSearchSchedules of its schedules, or of those that give the base
// its chances at it (CauseCost.Search) when more, at least the second
// CheckBase gives a package's search. Failures of one package share one
// search, so it counts more than they take.
func BaseCost(causes []CauseCost) time.Duration {
	var d time.Duration
	for _, c := range causes {
		d += c.Replay + processStartup + max(baseSearchSchedules*c.Replay, c.Search, time.Second)
	}
	return d
}

// baseSearchBudget is each of n packages' part of budget once the replays
// took replayed: at least a second (what a search needs to run at all).
func baseSearchBudget(budget, replayed time.Duration, n int) time.Duration {
	return max((budget-replayed)/time.Duration(n), time.Second)
}

func testSchedules(st Stats, test string) int {
	n := 0
	for _, ts := range st.Tests {
		if ts.Test == test {
			n += ts.Schedules
		}
	}
	return n
}

// SameFailure reports whether two dynamic findings, possibly from two
// commits whose lines differ, are the same failure: the same test failing
// the same way, by fingerprint (no line numbers) or by enclosing function
// and message with line numbers dropped. A finding that lists others of its
// cause (SameCause) is the same failure as any of them.
func SameFailure(a, b checks.Finding) bool {
	for _, x := range a.Members() {
		for _, y := range b.Members() {
			if sameFailure(x, y) {
				return true
			}
		}
	}
	return false
}

func sameFailure(a, b checks.Finding) bool {
	if a.Kind != b.Kind || a.Test != b.Test || a.Package != b.Package {
		return false
	}
	if a.Fingerprint() == b.Fingerprint() {
		return true
	}
	if runningLeak(a) && runningLeak(b) {
		// Where they were caught is not what they are.
		return sameRunningLeak(a, b)
	}
	// normalizeMessage drops numbers, line numbers among them.
	return a.Func == b.Func && normalizeMessage(a.Message) == normalizeMessage(b.Message)
}

// sameRunningLeak: two leaks of goroutines still running after the test
// (rt.LeakRunning) are one when the same functions started their
// goroutines (runningLoops): their loops run on, and where the steps after
// the test stop each is only where its loop was then. otelmetric v1.39.0's
// TestPeriodicReaderCollect never shuts its two readers down; their run
// loops were stopped in the new hotColdWaitGroup (atomic.go:119), "new in
// this change" against the base's loops, stopped elsewhere. Grouping
// (causeKeys) goes by the same notion.
func sameRunningLeak(a, b checks.Finding) bool {
	if !runningLeak(a) || !runningLeak(b) {
		return false
	}
	ra, rb := runningLoops(a), runningLoops(b)
	return len(ra) > 0 && slices.Equal(ra, rb)
}

// runningLeak: is f a leak of goroutines still running after the test?
func runningLeak(f checks.Finding) bool {
	return f.Kind == checks.Leak && strings.Contains(f.Message, rt.LeakRunning)
}

// runningLoops are the functions that started a running leak's goroutines
// (entry: the outermost user frame, closure numbers dropped), each once,
// sorted: a loop is the same whatever line, or callee, it was caught in,
// and one reader's loop left running is the cause whether the test
// started one reader or two (the search's own dedupe key, failure.key,
// counts each once too). Goroutines started in test files count only
// when no other is there: beside a loop of the code, the test's own are
// what the test did meanwhile. Nil when a goroutine has no stack.
func runningLoops(f checks.Finding) []string {
	var code, tests []string
	for _, g := range f.Goroutines {
		us := userFrames(g.Stack)
		if len(us) == 0 {
			return nil
		}
		if strings.HasSuffix(us[len(us)-1].File, "_test.go") {
			tests = append(tests, entry(g))
		} else {
			code = append(code, entry(g))
		}
	}
	if len(code) == 0 {
		code = tests
	}
	return sortedUnique(code)
}

// ScheduleSites returns the sites ("file.go:12") a schedule file's
// goroutines passed through, in order, without repeats.
func ScheduleSites(path string) []string {
	s, err := ReadSchedule(path)
	if err != nil {
		return nil
	}
	return decisionSites(s)
}

func decisionSites(s *rt.Schedule) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range s.Decisions {
		if d.Site != "" && !seen[d.Site] {
			seen[d.Site] = true
			out = append(out, d.Site)
		}
	}
	return out
}
