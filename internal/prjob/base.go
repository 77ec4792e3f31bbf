package prjob

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/gen"
)

// The pull request is told about a dynamic failure by its cause, not by
// its line: a failure of an affected test is the change's when the base
// commit does not have it (its schedule replayed on the base, then a
// bounded search there); the change's are posted, anchored on a changed
// line the failing goroutines passed through, and said to be new; the
// others are pre-existing and go to the summary only.

// baseShare is the part of -budget the bounded search on the base commit
// may take, over all the failures its schedules did not reproduce.
const baseShare = 4

// byCause splits the head's dynamic findings into the change's (marked
// new and anchored on the change), the pre-existing ones, and those the
// base commit has the test of but could not build or run (uncompared:
// that alone never makes a failure the change's). A failure no base
// commit can confirm that plain go test says is the tool's doing is a
// note (toolsDoingUnconfirmed). A new failure whose schedule was not
// replayed (Finding.NotReplayed) goes with the uncompared ones.
func (r *job) byCause(ctx context.Context, dyn []checks.Finding) (news, pre, uncompared []checks.Finding) {
	if len(dyn) == 0 {
		return nil, nil, nil
	}
	c := r.change
	var unreplayed []checks.Finding
	noTime := 0   // of uncompared: no time left for their replay on the base
	tooRare := 0  // of uncompared: too rare on the head for the base's chances
	testOnly := 0 // of uncompared: only test code changed on their path
	check := r.checkBase
	if r.baseVerdicts != nil {
		check = r.baseVerdicts
	}
	verdicts, err := check(ctx, dyn)
	if err != nil {
		if ctx.Err() != nil {
			return dyn, nil, nil
		}
		// Without the base, the cause is unknown: the failures are
		// reported as before, on the lines they point at, without a
		// claim either way.
		r.notes = append(r.notes, fmt.Sprintf("could not run the failures on the base commit (%v): dynamic findings reported without comparing", err))
		var kept []checks.Finding
		for _, f := range dyn {
			if r.inScope(&f) {
				kept = append(kept, f)
			}
		}
		return kept, nil, nil
	}
	r.checkPlain(ctx, dyn, verdicts)
	for i, f := range dyn {
		v := verdicts[i]
		if v.OnBase {
			f.Baseline = checks.BaselineUnchanged
			f.Message += " (pre-existing: " + v.How + ")"
			pre = append(pre, f)
			continue
		}
		if v.Unconfirmed && toolsDoingUnconfirmed(&f) {
			// No base commit says it is the change's, and plain go test
			// says it is not the code's: never posted.
			msg, _, _ := strings.Cut(f.Message, "\n")
			r.notes = append(r.notes, fmt.Sprintf("%s: not reported, most likely the tool's doing: it fails (%s) %s, the unperturbed schedule included, no base commit can confirm it (%s), and %s; to look: %s",
				f.Test, msg, f.Frequency.Label(), v.How, f.PlainGo.Label(), f.Replay))
			continue
		}
		if v.Uncompared {
			// The base has the test and could not run it: nothing says
			// the change caused it, so it is not posted as new.
			f.Message += " (not compared: " + v.How + ")"
			uncompared = append(uncompared, f)
			if v.NoTime {
				noTime++
			}
			if v.TooRare {
				tooRare++
			}
			continue
		}
		if f.NotReplayed != "" {
			// Its schedule never ran again in a fresh process: one run
			// alone does not make it the change's on the diff.
			f.Message += " (in the summary, not on the diff: " + checks.NotReplayedLabel(f.NotReplayed) + ")"
			unreplayed = append(unreplayed, f)
			continue
		}
		if at, ok := r.testCodeOnly(&f); ok && v.How != noBase {
			// Its failing code is the base's; the change only touched
			// test code on its path. No base search the budget affords
			// rules such a failure out: zap's BufferedWriteSyncer
			// deadlock, 4 of 810 on the head and 2 of 4,001 on the base
			// (its test's changed mock clock makes it ten times likelier),
			// was pre-existing in one run and new in the next.
			f.Message += " (not the change's code: it fails in code this change did not touch; on its path the change touched only test code, at " + at + "; " + v.How + ")"
			uncompared = append(uncompared, f)
			testOnly++
			continue
		}
		f.Baseline = checks.BaselineNew
		r.anchor(&f)
		if v.How != noBase { // without a base, everything is new: nothing to say
			f.Message += " (new in this change: " + v.How + ")"
		}
		news = append(news, f)
	}
	if len(pre) > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d dynamic %s also on the base commit %.12s: in the summary, not on the diff", len(pre), checks.Plural(len(pre), "failure"), c.MergeBase))
	}
	r.notes = append(r.notes, uncomparedNotes(len(uncompared)-testOnly, noTime, tooRare, c.MergeBase)...)
	if testOnly > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d dynamic %s in code this change did not touch, with only test code changed on %s path: in the summary, not on the diff", testOnly, checks.Plural(testOnly, "failure"), map[bool]string{true: "its", false: "their"}[testOnly == 1]))
	}
	if len(unreplayed) > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d dynamic %s not replayed in a fresh process before the budget ended: in the summary, not on the diff", len(unreplayed), checks.Plural(len(unreplayed), "failure")))
	}
	return news, pre, append(uncompared, unreplayed...)
}

// uncomparedNotes say why n failures were not compared with the base
// commit: noTime of them for want of time to replay them there, tooRare
// because the base ran too few of their schedules for how rarely they
// failed, the others because the base could not build or run their tests.
func uncomparedNotes(n, noTime, tooRare int, base string) []string {
	var notes []string
	if k := n - noTime - tooRare; k > 0 {
		notes = append(notes, fmt.Sprintf("%d dynamic %s not compared with the base commit %.12s (it has the tests but could not build or run them): in the summary, not on the diff", k, checks.Plural(k, "failure"), base))
	}
	if noTime > 0 {
		notes = append(notes, fmt.Sprintf("%d dynamic %s not compared with the base commit %.12s (no time was left in -budget to replay them there; each has its replay line): in the summary, not on the diff", noTime, checks.Plural(noTime, "failure"), base))
	}
	if tooRare > 0 {
		notes = append(notes, fmt.Sprintf("%d dynamic %s not compared with the base commit %.12s (too rare to compare in the time left: the base ran too few schedules of their tests for a miss there to mean anything; each has its replay line): in the summary, not on the diff", tooRare, checks.Plural(tooRare, "failure"), base))
	}
	return notes
}

// toolsDoingUnconfirmed reports whether f, a failure no base commit can
// confirm, is most likely the tool's doing: it failed on every schedule
// tried, the unperturbed one included, and plain go test ran its test
// and neither failed this way nor left its goroutines behind. A data
// race is the code's on any schedule.
func toolsDoingUnconfirmed(f *checks.Finding) bool {
	p := f.PlainGo
	return f.Kind != checks.DataRace && f.Frequency != nil && f.Frequency.Every() &&
		p != nil && p.Runs > 0 && !p.Fails() && !p.LeavesSame
}

// checkPlain labels, with plain go test's outcome, the failures no base
// commit can confirm whose search did not run plain go test (its budget
// ran out): what the pull request is told about them says so. Not those
// whose base replay found no time left (BaseVerdict.NoTime): no time is
// left for plain runs either, and they go to the summary, not compared;
// nor those too rare to compare (BaseVerdict.TooRare): schedule-dependent,
// no plain run makes them the tool's, and they go there too.
func (r *job) checkPlain(ctx context.Context, dyn []checks.Finding, verdicts []explore.BaseVerdict) {
	var idx []int
	var fs []checks.Finding
	for i, f := range dyn {
		if verdicts[i].Unconfirmed && !verdicts[i].NoTime && !verdicts[i].TooRare && (f.PlainGo == nil || f.PlainGo.Runs == 0) {
			idx = append(idx, i)
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return
	}
	start := time.Now()
	var labels []*checks.PlainGo
	var err error
	r.budget.charge("plain", func() {
		labels, err = explore.PlainCheck(ctx, fs, explore.PlainOptions{Dir: r.change.ModuleDir, Race: r.opts.Race, Tags: r.opts.Tags})
	})
	r.timings = append(r.timings, stageTime{"plain", time.Since(start)})
	if err != nil {
		r.notes = append(r.notes, fmt.Sprintf("could not run %d %s no base commit confirms under plain go test: %v", len(fs), checks.Plural(len(fs), "failure"), err))
		return
	}
	for j, i := range idx {
		dyn[i].PlainGo = labels[j]
	}
}

// noBase is the verdict of every failure when there is no base commit.
const noBase = "there is no base commit"

// checkBase runs the failures on a worktree of the merge base.
func (r *job) checkBase(ctx context.Context, dyn []checks.Finding) ([]explore.BaseVerdict, error) {
	c := r.change
	if c.MergeBase == "" || c.Base == affected.Empty {
		// No base commit (-base :empty diffs against the empty tree):
		// every failure is the change's.
		out := make([]explore.BaseVerdict, len(dyn))
		for i := range out {
			out[i] = explore.BaseVerdict{How: noBase, Unconfirmed: true}
		}
		return out, nil
	}
	dir, root, done, err := r.baseCheckout(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		out := make([]explore.BaseVerdict, len(dyn))
		for i := range out {
			out[i] = explore.BaseVerdict{How: "the base commit has no module at " + filepath.ToSlash(r.moduleRel()), Unconfirmed: true}
		}
		return out, nil
	}
	seed := r.opts.Seed
	if seed == 0 {
		seed = seedFrom(c.HeadCommit, c.MergeBase)
	}
	start := time.Now()
	var v []explore.BaseVerdict
	left := r.budget.left()
	budget := baseStageBudget(left, r.genOwed()+r.genKeep())
	r.budget.charge("base", func() {
		v, err = explore.CheckBase(ctx, dyn, explore.BaseOptions{
			Dir: dir, Budget: budget, Schedules: r.opts.Count, Strategy: r.opts.Strategy, Seed: seed,
			Race: r.opts.Race, Tags: r.opts.Tags, Workers: r.opts.Workers, EarlySleep: true, Stage: r.budget.watch(nil),
			Left: r.budget.shareLeft(left, budget), Now: r.budget.clock(), Targets: baseTargets(c, r.targets, root),
		})
	})
	r.timings = append(r.timings, stageTime{"base", time.Since(start)})
	return v, err
}

// baseCheckout makes a worktree of the merge base and returns the module's
// directory in it, the worktree's top level and the function that removes
// the worktree.
func (r *job) baseCheckout(ctx context.Context) (dir, root string, done func(), err error) {
	c := r.change
	tmp, err := os.MkdirTemp("", "interleave-base-")
	if err != nil {
		return "", "", nil, err
	}
	wt := filepath.Join(tmp, "base")
	began := time.Now()
	defer func() { r.budget.build(time.Since(began)) }() // outside -budget, as a build
	if out, err := git(ctx, c.Root, "worktree", "add", "--detach", "--force", wt, c.MergeBase); err != nil {
		os.RemoveAll(tmp)
		return "", "", nil, fmt.Errorf("git worktree add: %v: %s", err, out)
	}
	done = func() {
		// Not ctx: the worktree is removed even when interrupted.
		rm, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		git(rm, c.Root, "worktree", "remove", "--force", wt)
		git(rm, c.Root, "worktree", "prune")
		os.RemoveAll(tmp)
	}
	return filepath.Join(wt, r.moduleRel()), wt, done, nil
}

// moduleRel is the module's directory relative to the repository's root.
func (r *job) moduleRel() string {
	rel, err := filepath.Rel(r.change.Root, r.change.ModuleDir)
	if err != nil {
		return "."
	}
	return rel
}

// baseKeep is the most the dynamic search leaves of its budget, once it
// found a failure, for the base commit's replays and search: a quarter of
// -budget as given (before gen's automatic share), when there is a base.
func (r *job) baseKeep() time.Duration {
	if r.change.MergeBase == "" || r.change.Base == affected.Empty {
		return 0
	}
	return max(r.givenBudget, r.opts.Budget) / baseShare
}

// baseKeepFor is what the dynamic search leaves, once it found failures
// of the causes given (explore.Options.KeepFor), for the base commit's
// replays and search: what they take (explore.BaseCost), at most
// baseKeep. The rest goes to the search (logrus's base check took 0.5s of
// the fixed 30s kept, and the run ended 33.5% under -budget). A cause
// whose search for its chances on the base would not fit in baseKeep even
// at twice the head's speed ends "too rare to compare" however much of it
// runs: only its replay and first schedules there are kept for (they show
// a failure the base has), and the search goes on. goredis v9.17.0's
// TestDialerRetryConfiguration failed on 1 of 661 schedules (12,559 on
// the base needed, 94 s); the 30 s kept for it left six TestConnectionHook
// subtests, one with a true failure, 0 s each, and the failure did not
// replay.
func (r *job) baseKeepFor(causes []explore.CauseCost) time.Duration {
	most := r.baseKeep()
	fit := make([]explore.CauseCost, len(causes))
	for i, c := range causes {
		if c.Search > 2*most {
			c.Search = 0
		}
		fit[i] = c
	}
	return min(explore.BaseCost(fit), most)
}

// genOwed is gen's budget when gen is still to run.
func (r *job) genOwed() time.Duration {
	if r.opts.GenBudget > 0 && r.opts.Shard <= 1 {
		return r.opts.GenBudget
	}
	return 0
}

// genKeep is what the dynamic search leaves of its share for gen, when gen
// is still to run: gen's replay reserve (gen.ReplayReserve), at most a
// quarter of the search's share. gen's search gets it however long gen's
// sequential runs took (a blocking case waits out its timeout), and the
// job keeps -budget within 5%: with the reserve on top of gen's share,
// gocron-stop-twice's pull request ran 7.6% past it.
func (r *job) genKeep() time.Duration {
	if r.genOwed() == 0 {
		return 0
	}
	return min(gen.ReplayReserve(r.opts.GenBudget), r.opts.Budget/4)
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// testCodeOnly reports whether f fails in code the change did not touch
// while its schedule passed through changed test code only: no changed
// line at its position, related locations, goroutines' sites or stacks,
// or its cause's other failures, and every changed line among its
// schedule's scheduling points in test code (testCode). It returns the
// first such line. A failure whose path passes through changed code of
// the program (ttlcache v3.4.0's leak: the changed Start, at cache.go:166)
// is the change's as before.
func (r *job) testCodeOnly(f *checks.Finding) (string, bool) {
	c := r.change
	if c == nil || f.Schedule == "" {
		return "", false
	}
	on := func(file string, line int) bool {
		return file != "" && line > 0 && c.OnChangedLine(AbsIn(c.ModuleDir, file), line)
	}
	if on(f.Pos.File, f.Pos.Line) {
		return "", false
	}
	for _, rel := range f.Related {
		if on(rel.File, rel.Line) {
			return "", false
		}
	}
	if _, ok := onChangedOccurrence(f, on); ok {
		return "", false
	}
	for _, g := range f.Goroutines {
		if file, line, ok := splitSite(g.Site); ok && on(file, line) {
			return "", false
		}
		for _, fr := range g.Stack {
			if on(fr.File, fr.Line) {
				return "", false
			}
		}
	}
	first := ""
	for _, cs := range r.scheduleChanges(f.Schedule) {
		if !testCode(cs.rel) {
			return "", false
		}
		if first == "" {
			first = cs.rel + ":" + strconv.Itoa(cs.line)
		}
	}
	return first, first != ""
}

// changedSite is a changed line a schedule passed through: the file's path
// in the change (slash-separated) and on disk, and the line.
type changedSite struct {
	rel, path string
	line      int
}

// scheduleChanges returns the changed lines among a schedule's scheduling
// points, in the schedule's order. Their sites are "file.go:12", matched
// to the changed files by name.
func (r *job) scheduleChanges(schedule string) []changedSite {
	c := r.change
	if c == nil || schedule == "" {
		return nil
	}
	var out []changedSite
	for _, site := range explore.ScheduleSites(schedule) {
		base, line, ok := splitSite(site)
		if !ok {
			continue
		}
		for _, cf := range c.Files {
			p := filepath.Join(c.Root, filepath.FromSlash(cf.Path))
			if filepath.Base(p) == base && c.OnChangedLine(p, line) {
				out = append(out, changedSite{rel: cf.Path, path: p, line: line})
			}
		}
	}
	return out
}

// testCode reports whether a file (slash-separated) is test code: a
// _test.go file, or a file of a test-support package, named as Go names
// them ("httptest", zap's "internal/ztest", "testutil").
func testCode(file string) bool {
	if strings.HasSuffix(file, "_test.go") {
		return true
	}
	dir := path.Base(path.Dir(file))
	return strings.HasSuffix(dir, "test") || dir == "testutil" || dir == "testutils"
}

// anchor moves a finding of the change to a changed line its goroutines
// passed through: its own position if changed, else a related location, a
// goroutine's site or frame, a scheduling point of its schedule, and
// failing all those the line of the test. The failure's own position
// stays, as a related location.
func (r *job) anchor(f *checks.Finding) {
	c := r.change
	on := func(file string, line int) bool {
		return file != "" && line > 0 && c.OnChangedLine(AbsIn(c.ModuleDir, file), line)
	}
	if on(f.Pos.File, f.Pos.Line) {
		return
	}
	move := func(file string, line int, why string) {
		if f.Pos.IsValid() {
			f.Related = append([]checks.Related{{Position: f.Pos, Message: "fails here"}}, f.Related...)
		}
		f.Pos = checks.Position{File: file, Line: line}
		f.Message += " (" + why + ")"
	}
	for _, rel := range f.Related {
		if on(rel.File, rel.Line) {
			move(rel.File, rel.Line, "reported on the changed line involved")
			return
		}
	}
	for _, g := range f.Goroutines {
		if file, line, ok := splitSite(g.Site); ok && on(file, line) {
			move(file, line, "reported on the changed line goroutine "+g.ID+" is at")
			return
		}
	}
	if o, ok := onChangedOccurrence(f, on); ok {
		move(o.File, o.Line, "reported on the changed line another failure of its cause is at")
		return
	}
	for _, g := range f.Goroutines {
		for _, fr := range g.Stack {
			if on(fr.File, fr.Line) {
				move(fr.File, fr.Line, "reported on the changed line goroutine "+g.ID+" called through")
				return
			}
		}
	}
	// The schedule's scheduling points are the lines the goroutines
	// passed through.
	if cs := r.scheduleChanges(f.Schedule); len(cs) > 0 {
		move(cs[0].path, cs[0].line, "reported on the changed line the schedule passed through")
		return
	}
	for _, g := range f.Goroutines {
		for _, fr := range g.Stack {
			if f.Test != "" && strings.HasSuffix(fr.Func, "."+f.Test) && fr.File != "" {
				move(fr.File, fr.Line, "reported on the test")
				return
			}
		}
	}
}
