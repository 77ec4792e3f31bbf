package prjob

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
)

// aimRepo builds a git repository from testdata/aimpool: the base commit
// (a pool whose Flush waits on a sync.Cond until the worker is idle) and
// the head (Flush waits on an unbuffered channel instead, and the worker
// wakes it with a non-blocking send: a wakeup sent before Flush reaches
// its receive is lost, and Flush blocks for ever).
func aimRepo(t *testing.T) string { return kernelRepo(t, "aimpool", "pool") }

// kernelRepo builds a git repository from testdata/kernel: go.mod.txt
// and name_test.go.txt in both commits, base/name.go.txt in the first,
// head/name.go.txt in the second.
func kernelRepo(t *testing.T, kernel, name string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", kernel, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main", ".")
	copyFile("go.mod.txt", "go.mod")
	copyFile(name+"_test.go.txt", name+"_test.go")
	copyFile("base/"+name+".go.txt", name+".go")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	copyFile("head/"+name+".go.txt", name+".go")
	git("add", "-A")
	git("commit", "-q", "-m", "head")
	return dir
}

// lineOf returns the line of the first line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return 0
}

// TestChangedSites: the sync operations and shared writes on changed lines
// and in changed functions are targets; those of unchanged functions,
// plain local assignments and the lines near a go statement are not.
func TestChangedSites(t *testing.T) {
	dir := aimRepo(t)
	c, err := affected.Analyze(context.Background(), affected.Options{Dir: dir, Base: "HEAD~1", NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	sites := changedSites(c)
	pool := filepath.Join(dir, "pool.go")
	site := func(s string) string { return pool + ":" + itoa(lineOf(t, pool, s)) }
	for _, want := range []string{"<-p.idle", "case p.idle <- struct{}{}:", "p.queue = p.queue[1:]", "p.busy = false", "defer p.mu.Unlock()"} {
		if s := site(want); !slices.Contains(sites, s) {
			t.Errorf("%s (%q) is not a target; targets: %v", s, want, sites)
		}
	}
	for _, not := range []string{"p.queue = append(p.queue, f)", "close(p.ready)", "f := p.queue[0]", "go p.worker()", "p.idle = make(chan struct{})"} {
		if s := site(not); slices.Contains(sites, s) {
			t.Errorf("%s (%q) is a target, want not (unchanged function, a local, near a go statement)", s, not)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestPRAimsAtChange (issue 23): interleave pr on the pool's change makes
// the changed sites preemption targets, searches the test that executes
// them, finds the lost wakeup (a deadlock at Flush's receive) and the
// finding replays; the log, the summary and the JSON say which changed
// sites ran, how often they were preempted, and that Pending's, which no
// test calls, did not run. The search stops at aimCap schedules (the
// budget is only a guard): the targeted search meets the lost wakeup
// within its first schedules (TestAimSchedulesToFailure counts them).
func TestPRAimsAtChange(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	dir := aimRepo(t)
	cfg := DefaultConfig()
	cfg.Base, cfg.Budget, cfg.Format, cfg.Verbose, cfg.Seed, cfg.Workers = "HEAD~1", 10*time.Minute, "json", true, 1, 1
	cfg.Count = aimCap
	cfg.GenAuto = false
	cfg.Output = filepath.Join(t.TempDir(), "out.json")
	cfg.Summary = filepath.Join(t.TempDir(), "sum.md")
	var stdout, stderr strings.Builder
	res, err := Run(context.Background(), Options{Config: cfg, Dir: dir}, &stdout, &stderr)
	t.Logf("stderr:\n%s", stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	pool := filepath.Join(dir, "pool.go")
	recv := lineOf(t, pool, "<-p.idle")
	var found *checks.Finding
	for i, f := range res.Report.Findings {
		if f.Kind == checks.Deadlock && f.Schedule != "" {
			for _, g := range f.Goroutines {
				if file, line, ok := splitSite(g.Site); ok && filepath.Base(file) == "pool.go" && line == recv {
					found = &res.Report.Findings[i]
				}
			}
		}
	}
	if found == nil {
		t.Fatalf("no deadlock with a goroutine at pool.go:%d among %d findings: %+v", recv, len(res.Report.Findings), res.Report.Findings)
	}
	// The base commit was searched where the head was (baseTargets).
	if !strings.Contains(found.Message, "of searches of TestFlush (") || !strings.Contains(found.Message, " aimed where the head's was, the others not) fail this way on the base commit") {
		t.Errorf("the base's search was not aimed: %s", found.Message)
	}
	rep, err := explore.Replay(context.Background(), found.Schedule, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != explore.Reproduced {
		t.Errorf("the finding does not replay: %+v", rep)
	}
	// The log, the JSON and the summary.
	for _, want := range []string{"changed sites: ", " exercised by the tests' unperturbed runs", "  exercised pool.go:", "no scheduling point at or near them in any test: pool.go:" + itoa(lineOf(t, pool, "defer p.mu.Unlock()")-1)} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	js, err := report.ReadJSON(cfg.Output)
	if err != nil {
		t.Fatal(err)
	}
	cs := js.ChangedSites
	if cs == nil || cs.Exercised == 0 || cs.Preempted == 0 || cs.NotExercised == 0 || cs.Sites != cs.Exercised+cs.NotExercised {
		t.Fatalf("changedSites %+v: want some exercised and preempted, Pending's not exercised", cs)
	}
	if !slices.ContainsFunc(cs.ExercisedSites, func(s report.SiteRun) bool {
		return strings.HasPrefix(s.Site, "pool.go:") && s.Hits > 0 && s.Tests == 1
	}) {
		t.Errorf("exercised sites %+v", cs.ExercisedSites)
	}
	md, err := os.ReadFile(cfg.Summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Changed sites: ") || !strings.Contains(string(md), "no scheduling point at or near them in any test: `pool.go:") {
		t.Errorf("summary lacks the changed sites:\n%s", md)
	}
	for _, tr := range js.Tests {
		if tr.Test == "TestFlush" && tr.TargetHits == 0 {
			t.Errorf("TestFlush's unperturbed run executed no target: %+v", tr)
		}
	}
}

// aimCap bounds each search of TestAimSchedulesToFailure by schedules,
// not time: the search is cancelled once it ran that many.
const aimCap = 300

// schedulesToFailure searches TestFlush of the pool's head with one
// worker and seed 1 until its first deadlock at Flush's receive, or
// aimCap schedules, and returns the schedules up to and including the
// failing one (0: none within the cap).
func schedulesToFailure(t *testing.T, dir string, targets []string, recv int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := explore.Run(ctx, explore.Options{
		Dir: dir, Patterns: []string{"."},
		Tests:  []explore.TestRef{{Package: "example.com/pool", Name: "TestFlush"}},
		Budget: 10 * time.Minute, Seed: 1, Workers: 1, SchedulesDir: t.TempDir(), Targets: targets,
		Progress: func(st explore.Stats) {
			if st.Schedules >= aimCap {
				cancel()
			}
		},
		Until: func(f checks.Finding) bool {
			for _, g := range f.Goroutines {
				if file, line, ok := splitSite(g.Site); ok && filepath.Base(file) == "pool.go" && line == recv {
					return f.Kind == checks.Deadlock
				}
			}
			return false
		},
	})
	if ctx.Err() != nil {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	if !res.Met {
		return 0
	}
	return res.Stats.Tests[0].ToFirstFailure
}

// TestAimSchedulesToFailure logs the schedules a seeded search of the
// pool's test runs to the lost wakeup with the change's sites as targets
// and without, and checks that the targeted search meets it.
func TestAimSchedulesToFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented tests")
	}
	dir := aimRepo(t)
	c, err := affected.Analyze(context.Background(), affected.Options{Dir: dir, Base: "HEAD~1", NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	recv := lineOf(t, filepath.Join(dir, "pool.go"), "<-p.idle")
	with := schedulesToFailure(t, dir, changedSites(c), recv)
	without := schedulesToFailure(t, dir, nil, recv)
	t.Logf("schedules to the first lost wakeup (seed 1, one worker, at most %d): %d targeted at the %d changed sites, %d untargeted (0: none)", aimCap, with, len(changedSites(c)), without)
	if with == 0 {
		t.Fatalf("the targeted search did not meet the lost wakeup in %d schedules", aimCap)
	}
}

// TestBaseTargets: the head's targets move to the base's lines (a kept
// line to its own, a written one into the lines it replaced), those of an
// added file are dropped, those of an unchanged file keep their line, and
// the base's sync operations on the lines the change removed or rewrote
// (the Cond's Wait and Broadcast) are targets too.
func TestBaseTargets(t *testing.T) {
	dir := aimRepo(t)
	c, err := affected.Analyze(context.Background(), affected.Options{Dir: dir, Base: "HEAD~1", NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	baseRoot := t.TempDir()
	out, err := exec.Command("git", "-C", dir, "show", "HEAD~1:pool.go").Output()
	if err != nil {
		t.Fatal(err)
	}
	basePool := filepath.Join(baseRoot, "pool.go")
	if err := os.WriteFile(basePool, out, 0o644); err != nil {
		t.Fatal(err)
	}
	c.Files = append(c.Files, affected.File{Path: "added.go", Status: diff.Added, Lines: []diff.Range{{Start: 1, End: 9}}})
	pool := filepath.Join(dir, "pool.go")
	head := func(s string) string { return pool + ":" + itoa(lineOf(t, pool, s)) }
	base := func(s string) string { return basePool + ":" + itoa(lineOf(t, basePool, s)) }
	targets := []string{head("p.busy = false"), head("<-p.idle"), head("p.queue = p.queue[1:]"),
		filepath.Join(dir, "added.go") + ":3", filepath.Join(dir, "other.go") + ":12"}
	got := baseTargets(c, targets, baseRoot)
	for _, want := range []string{base("p.busy = false"), base("p.idle.Wait()"), base("p.idle.Broadcast()"), base("p.queue = p.queue[1:]"), filepath.Join(baseRoot, "other.go") + ":12"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not a base target; base targets: %v", want, got)
		}
	}
	for _, s := range got {
		if strings.Contains(s, "added.go") || !strings.HasPrefix(s, baseRoot) {
			t.Errorf("base target %s: want none in the added file, all under %s", s, baseRoot)
		}
	}
	// "<-p.idle" replaced the Wait: it maps there, nothing more is added.
	if len(got) != 5 {
		t.Errorf("%d base targets %v, want 5", len(got), got)
	}
}
