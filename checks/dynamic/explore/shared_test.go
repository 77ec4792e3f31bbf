package explore

import (
	"context"
	"debug/elf"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSharedBuild: searches and replays given a Build instrument nothing
// and build each package's binaries once, over all of them; each search
// sees only the packages of its patterns, and a build that does not fit
// (another package, -race) is an error, not a wrong search.
func TestSharedBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds two instrumented packages; skipped with -short")
	}
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var mu sync.Mutex
	var stages []string
	stage := func(e StageEvent) {
		if !e.Done {
			mu.Lock()
			stages = append(stages, e.Name)
			mu.Unlock()
		}
	}
	taken := func() []string {
		mu.Lock()
		defer mu.Unlock()
		s := stages
		stages = nil
		return s
	}
	b, err := NewBuild(ctx, BuildOptions{Dir: dir, Patterns: []string{"./subtests", "./notests"}, Stage: stage})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := taken(); len(got) != 1 || !strings.HasPrefix(got[0], "loading and instrumenting") {
		t.Errorf("NewBuild's stages %q, want one instrumenting", got)
	}
	// Each search ends at its first failure (a count of schedules bounds
	// it, the same seeds on any machine; the budget only stops a machine
	// that cannot run them).
	search := func(pkg, want string, kind checks.FailureKind, seed int64) []checks.Finding {
		t.Helper()
		res, err := Run(ctx, Options{
			Dir: dir, Patterns: []string{"./" + pkg}, Build: b, Stage: stage,
			Budget: 2 * time.Minute, Seed: seed, Workers: 2, Schedules: 100, TestUntil: StopAtFirst, SchedulesDir: t.TempDir(),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range taken() {
			if strings.HasPrefix(s, "loading and instrumenting") {
				t.Errorf("%s: stage %q: the search instrumented again", pkg, s)
			}
		}
		for _, ts := range res.Stats.Tests {
			if !strings.HasSuffix(ts.Package, "/"+pkg) {
				t.Errorf("%s: searched %s.%s, outside its pattern", pkg, ts.Package, ts.Test)
			}
		}
		var hits []checks.Finding
		for _, f := range res.Findings {
			if f.Test == want && f.Kind == kind {
				hits = append(hits, f)
			}
		}
		if len(hits) == 0 {
			t.Fatalf("%s: findings %+v, notes %q; want %s in %s", pkg, res.Findings, res.Notes, kind, want)
		}
		return hits
	}
	found := search("subtests", "TestSubtests", checks.Deadlock, 1)
	found = append(found, search("subtests", "TestSubtests", checks.Deadlock, 100)...)
	// The package's instrumented and plain binaries, built once.
	if b.n != 2 || len(b.bins) != 1 || len(b.plain) != 1 {
		t.Errorf("%d binaries built (%d instrumented, %d plain), want one of each", b.n, len(b.bins), len(b.plain))
	}
	// Both binaries are linked without DWARF (linkFlags), as go test
	// links the binaries it runs (-s -w); the deadlock above was found
	// and its stacks read all the same.
	for _, bins := range []map[string]*plainBin{b.bins, b.plain} {
		for _, e := range bins {
			if len(linkFlags(userGOFLAGS())) > 0 && hasDWARF(t, e.bin) {
				t.Errorf("the test binary %s has DWARF, want it linked with -w", e.bin)
			}
		}
	}
	// Replays run the Build's binaries: nothing is instrumented or built.
	var scheds []*rt.Schedule
	for _, f := range found {
		s, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		scheds = append(scheds, s)
	}
	results, errs := ReplayMany(ctx, scheds, ReplayOptions{Dir: dir, Build: b, Stage: stage})
	for i, f := range found {
		if errs[i] != nil {
			t.Errorf("%s: replay: %v", f.Test, errs[i])
		} else if results[i].Outcome != Reproduced {
			t.Errorf("%s: replay %s, want %s reproduced", f.Test, results[i].Outcome, f.Kind)
		}
	}
	if got := taken(); len(got) > 0 || b.n != 2 {
		t.Errorf("replays: stages %q, %d binaries; want none, 2", got, b.n)
	}
	// A package the Build does not hold, or another build, is an error.
	for _, o := range []Options{
		{Patterns: []string{"./exit"}},
		{Patterns: []string{"./subtests"}, Race: true},
	} {
		o.Dir, o.Build, o.Budget = dir, b, time.Minute
		if _, err := Run(ctx, o); err == nil || !strings.Contains(err.Error(), "Options.Build") {
			t.Errorf("%v race %v: error %v, want one about Options.Build", o.Patterns, o.Race, err)
		}
	}
	// A package without tests matches and has nothing to search.
	if _, err := Run(ctx, Options{Dir: dir, Patterns: []string{"./notests"}, Build: b, Budget: time.Minute}); err == nil || !strings.Contains(err.Error(), "no tests to run") {
		t.Errorf("notests: error %v, want no tests to run", err)
	}
}

// hasDWARF reports whether the ELF binary at path has a .debug_info
// section.
func hasDWARF(t *testing.T, path string) bool {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil
}

// TestLinkFlags: instrumented binaries are linked without DWARF unless
// the user's GOFLAGS set -ldflags (ours would replace theirs).
func TestLinkFlags(t *testing.T) {
	t.Parallel()
	for goflags, want := range map[string]string{
		"":                           "-ldflags=-w",
		"-mod=mod":                   "-ldflags=-w",
		"-mod=mod -ldflags=-X=a.b=c": "",
		"-ldflags=-s":                "",
	} {
		if got := strings.Join(linkFlags(goflags), " "); got != want {
			t.Errorf("GOFLAGS %q: link flags %q, want %q", goflags, got, want)
		}
	}
}

// TestSharedBuildLeftOut: a shared build over a package whose tests do not
// compile leaves it out; a search of another package through the build
// does not note it, and a search of that package says it was left out.
func TestSharedBuildLeftOut(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented package; skipped with -short")
	}
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b, err := NewBuild(ctx, BuildOptions{Dir: dir, Patterns: []string{"./subtests", "./broken"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := Run(ctx, Options{Dir: dir, Patterns: []string{"./subtests"}, Run: "^TestSubtests$", Build: b,
		Budget: 2 * time.Minute, Seed: 1, Workers: 1, Schedules: 1, SchedulesDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "robust/broken") {
			t.Errorf("the search of ./subtests notes %q", n)
		}
	}
	_, err = Run(ctx, Options{Dir: dir, Patterns: []string{"./broken"}, Build: b, Budget: time.Minute, Seed: 1, SchedulesDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "left out: robust/broken: not searched: does not compile") {
		t.Errorf("the search of ./broken: %v, want it said left out", err)
	}
}
