package explore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestCheckBaseBuildsOnce: CheckBase instruments a package of the base
// commit once for the replays of its failures and its search, with a
// generated test written into it (as gen's check on the base does) and a
// schedule carrying that file. Fails when the replays and the search each
// instrument the package.
func TestCheckBaseBuildsOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	ctx := context.Background()
	root := carryModule(t)
	// The base holds a version of the carried test that passes.
	passing := strings.Replace(carriedTest, "v == 1", "v == 2", 1)
	if err := os.WriteFile(filepath.Join(root, "carry", "carried_test.go"), []byte(passing), 0o644); err != nil {
		t.Fatal(err)
	}
	// The head's failure, once with a schedule carrying the file, once
	// with one of the package's own test.
	var findings []checks.Finding
	for name, files := range map[string][]rt.SourceFile{
		"carried.json": {{Name: "carried_test.go", Source: passing}},
		"own.json":     nil,
	} {
		p := filepath.Join(root, ".interleave", "schedules", name)
		if err := WriteSchedule(p, carriedSchedule(files)); err != nil {
			t.Fatal(err)
		}
		findings = append(findings, checks.Finding{
			Kind: checks.Panic, Package: "example.com/carrymod/carry", Test: "TestCarried", Message: "panic: the carried test ran", Schedule: p,
		})
	}
	var mu sync.Mutex
	var instrumented []string
	stage := func(e StageEvent) {
		if !e.Done && (strings.HasPrefix(e.Name, "instrumenting") || strings.HasPrefix(e.Name, "loading and instrumenting")) {
			mu.Lock()
			instrumented = append(instrumented, e.Name)
			mu.Unlock()
		}
	}
	vs, err := CheckBase(ctx, findings, BaseOptions{
		Dir: root, Budget: 2 * time.Minute, Schedules: 2, Workers: 1, Seed: 1, Stage: stage,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if v.OnBase || v.Unconfirmed || !strings.Contains(v.How, "neither its schedule nor") {
			t.Errorf("%s: %+v, want searched on the base and not failing there", filepath.Base(findings[i].Schedule), v)
		}
	}
	if len(instrumented) != 1 {
		t.Errorf("instrumented %d times: %q; want once", len(instrumented), instrumented)
	}
}

// TestHoldsFiles: a Build replays a schedule carrying files only when its
// package's build has each of them, with the same content.
func TestHoldsFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "gen_test.go")
	if err := os.WriteFile(path, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	built := rewrite.Package{Dir: dir, TestFiles: []string{path}}
	for _, c := range []struct {
		name string
		pkg  rewrite.Package
		file rt.SourceFile
		want bool
	}{
		{"the same file", built, rt.SourceFile{Name: "gen_test.go", Source: "package p\n"}, true},
		{"another content", built, rt.SourceFile{Name: "gen_test.go", Source: "package p // changed\n"}, false},
		{"not in the build", rewrite.Package{Dir: dir}, rt.SourceFile{Name: "gen_test.go", Source: "package p\n"}, false},
		{"not on disk", built, rt.SourceFile{Name: "other_test.go", Source: "package p\n"}, false},
	} {
		files, ok := holdsFiles(c.pkg, []rt.SourceFile{c.file})
		if ok != c.want || ok && string(files[path]) != c.file.Source {
			t.Errorf("%s: %v %q, want %v", c.name, ok, files, c.want)
		}
	}
	if _, ok := holdsFiles(rewrite.Package{Dir: dir}, nil); !ok {
		t.Errorf("no files: not held, want held")
	}
}

// TestCheckBaseUndecidedRetries: a data race's schedule replayed on the base
// commit runs again while it does not reproduce (UndecidedTries): whether
// the race detector reports it depends on what it still remembers, and a
// race the base has too, missed by one replay, was told as new in the
// change. The base's test races on its third run only (testdata/thirdrace).
// Fails with one replay: the verdict then comes from the search, not from
// the schedule.
func TestCheckBaseUndecidedRetries(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a race test binary; skipped with -short")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../testdata/thirdrace")); err != nil {
		t.Fatal(err)
	}
	counter, path := filepath.Join(t.TempDir(), "runs"), filepath.Join(root, "s", "race.json")
	tmpl, err := os.ReadFile(filepath.Join(root, "q", "q_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "q", "q_test.go"), bytes.ReplaceAll(tmpl, []byte("COUNTER"), []byte(strconv.Quote(counter))), 0o644); err != nil {
		t.Fatal(err)
	}
	sched, err := ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	f := checks.Finding{Kind: checks.DataRace, Package: "example.com/racy/q", Test: "TestRace", Func: "example.com/racy/q.TestRace.func1",
		Message: "TestRace: " + sched.Failure.Message, Schedule: path, Pos: checks.Position{File: filepath.Join(root, "q", "q_test.go"), Line: 13}}
	vs, err := CheckBase(context.Background(), []checks.Finding{f}, BaseOptions{Dir: root, Budget: time.Minute, Schedules: 2, Workers: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || !vs[0].OnBase || vs[0].How != "its schedule fails the same way on the base commit" {
		t.Fatalf("verdict %+v, want its schedule failing the same way on the base", vs)
	}
	if b, _ := os.ReadFile(counter); len(b) != 3 {
		t.Errorf("the base's test ran %d times, want 3 (the replays until the race)", len(b))
	}
}
