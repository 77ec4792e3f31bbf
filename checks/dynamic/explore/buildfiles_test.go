package explore

import (
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSelectExcluded: a test asked for by name (the PR job's affected
// tests, listed without -race) whose file this build excludes is left out
// with a note saying why, and the others are searched; a -run that
// matches only such tests says so.
func TestSelectExcluded(t *testing.T) {
	t.Parallel()
	p := rewrite.Package{ImportPath: "m/p", Dir: "/m/p", Tests: []string{"TestA", "TestRaceOnly"},
		Excluded: map[string]string{"TestNoRaceOnly": "/m/p/norace_test.go"}}
	s := &search{opts: Options{Race: true, Tests: []TestRef{{Package: "m/p", Name: "TestNoRaceOnly"}, {Package: "m/p", Name: "TestA"}}},
		inst: &rewrite.Result{ModuleRoot: "/m", Packages: []rewrite.Package{p}}}
	ts, err := s.selectTests(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].name != "TestA" {
		t.Errorf("selected %v, want TestA", ts)
	}
	want := "m/p.TestNoRaceOnly not searched: norace_test.go is not in this build, its build constraints (-race sets the race tag) exclude it"
	if len(s.notes) != 1 || s.notes[0] != want {
		t.Errorf("notes %q, want %q", s.notes, want)
	}
	// Only excluded tests asked for, or matched by -run: nothing to run,
	// and the error says why.
	s = &search{opts: Options{Race: true, Tests: []TestRef{{Package: "m/p", Name: "TestNoRaceOnly"}}}, inst: s.inst}
	if _, err := s.selectTests(nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want a NoTestsError saying %q", err, want)
	}
	s = &search{opts: Options{Race: true, Patterns: []string{"./p"}, Run: "NoRace"}, inst: s.inst}
	if _, err := s.selectTests(mustRun(t, "NoRace")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("-run: err = %v, want a NoTestsError saying %q", err, want)
	}
	// A test that is nowhere is still an error.
	s = &search{opts: Options{Tests: []TestRef{{Package: "m/p", Name: "TestGone"}, {Package: "m/p", Name: "TestA"}}}, inst: s.inst}
	if _, err := s.selectTests(nil); err == nil || !strings.Contains(err.Error(), "TestGone not found") {
		t.Errorf("err = %v, want TestGone not found", err)
	}
}

// TestSelectSkip: Skip leaves out the tests it matches, after Run; when
// it leaves none, the error says how many it skipped.
func TestSelectSkip(t *testing.T) {
	t.Parallel()
	p := rewrite.Package{ImportPath: "m/p", Dir: "/m/p", Tests: []string{"TestA", "TestSlowA", "TestB"}}
	inst := &rewrite.Result{ModuleRoot: "/m", Packages: []rewrite.Package{p}}
	s := &search{opts: Options{Patterns: []string{"./p"}, Skip: "^TestSlow"}, skip: mustRun(t, "^TestSlow"), inst: inst}
	ts, err := s.selectTests(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range ts {
		got = append(got, x.name)
	}
	if strings.Join(got, " ") != "TestA TestB" {
		t.Errorf("selected %q, want TestA TestB", got)
	}
	s = &search{opts: Options{Patterns: []string{"./p"}, Run: "A$", Skip: "A"}, skip: mustRun(t, "A"), inst: inst}
	if _, err := s.selectTests(mustRun(t, "A$")); err == nil || !strings.Contains(err.Error(), `2 tests skipped: -skip "A"`) {
		t.Errorf("err = %v, want a NoTestsError counting the skipped tests", err)
	}
}

// mustRun is pattern read as -run.
func mustRun(t *testing.T, pattern string) *rt.RunFilter {
	t.Helper()
	f, err := rt.ParseRun(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
