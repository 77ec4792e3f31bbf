package explore

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestTellReadsEachSiteOnce (issue 23, bigcache): telling a schedule
// reads each site's source line once, not once per decision. bigcache's
// TestAppendRandomly leak has 54,083 decisions at a few sites; each
// telling opened and scanned a file per decision (7.4 s at load 20), and
// the three tellings after the search left its replay no time in a 60 s
// budget. The file is rewritten while the schedule is told: the line told
// for every decision at the site is the one read first. Fails without the
// cache in sourceAt (the later decisions tell the new line).
func TestTellReadsEachSiteOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "k.go")
	if err := os.WriteFile(file, []byte("package k\n\nfunc f() { mu.Lock() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &search{}
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/k", Dir: dir}}
	read := 0
	source := s.sourceAt(tg)
	line := func(site string) string {
		l := source(site)
		if read++; read == 1 {
			// Every later read of the file would see this.
			if err := os.WriteFile(file, []byte("package k\n\nfunc f() { other.Lock() }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return l
	}
	var ds []rt.Decision
	for range 2000 {
		ds = append(ds, rt.Decision{G: 0, Site: "k.go:3", Op: "Mutex.Lock", Obj: 1}, rt.Decision{G: 1, Site: "k.go:3", Op: "Mutex.Lock", Obj: 1})
	}
	it := tell(ds, nil, checks.TestFailure, line)
	if it == nil || read < 2 {
		t.Fatalf("told %+v after %d source reads; want the schedule told, its site asked for more than once", it, read)
	}
	for _, st := range it.Steps {
		if st.Object != "mu" {
			t.Fatalf("step %+v tells the lock %q; want %q, from the line as first read", st, st.Object, "mu")
		}
	}
}

// TestReplayTellsEachSiteOnce: a replay's telling (shrinking tells every
// replay it keeps) reads each site's line once too, as the search's does.
// TestRunTestPastDefaultBound's long schedules spent a third of its CPU
// scanning files. The file is rewritten after the first read: every step
// at the site tells the line first read. Fails without replayer.sourceAt's
// cache.
func TestReplayTellsEachSiteOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "k.go")
	if err := os.WriteFile(file, []byte("package k\n\nfunc f() { mu.Lock() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &replayer{pkgDir: dir}
	source := r.sourceAt()
	if got := source("k.go:3"); got != "func f() { mu.Lock() }" {
		t.Fatalf("line of k.go:3 = %q", got)
	}
	if err := os.WriteFile(file, []byte("package k\n\nfunc f() { other.Lock() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ds []rt.Decision
	for range 2000 {
		ds = append(ds, rt.Decision{G: 0, Site: "k.go:3", Op: "Mutex.Lock", Obj: 1}, rt.Decision{G: 1, Site: "k.go:3", Op: "Mutex.Lock", Obj: 1})
	}
	it := tell(ds, nil, checks.TestFailure, source)
	if it == nil {
		t.Fatal("nothing told")
	}
	for _, st := range it.Steps {
		if st.Object != "mu" {
			t.Fatalf("step %+v tells the lock %q; want %q, from the line as first read", st, st.Object, "mu")
		}
	}
}

// TestNoTellingAfterShrinkTime (issue 23, bigcache): once the time for
// shrinking is over, the findings are not told again (the schedule file
// rewritten, the story retold) for nothing: bigcache's 54,083-decision
// leak took 5.2 s to tell again past the budget at load 20. The schedule
// file removed stays removed. Fails without noShrinkTime (it is written
// again).
func TestNoTellingAfterShrinkTime(t *testing.T) {
	t.Parallel()
	f := &failure{kind: checks.Leak, message: "leak: goroutines still running after the test returned", site: "/src/k/k_test.go:70",
		seed: 1, strategy: "random", decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}}
	s, _, fd := fakeFinding(t, "TestLongLeak", f)
	path := fd.Schedule
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.opts.Dir, path)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s.shrinkUntil = time.Now().Add(-time.Second)
	s.shrinkFindings(context.Background(), []checks.Finding{*fd}, []string{s.order[0]})
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the schedule file was written again after the shrinking time ended")
	}
}
