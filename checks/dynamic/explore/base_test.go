package explore

import (
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
// change. The base's test races on its third run only (a counter file).
// Fails with one replay: the verdict then comes from the search, not from
// the schedule.
func TestCheckBaseUndecidedRetries(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a race test binary; skipped with -short")
	}
	root := t.TempDir()
	counter := filepath.Join(t.TempDir(), "runs")
	test := "package q\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar x int\n\nfunc TestRace(t *testing.T) {\n" +
		"\tdone, n := make(chan bool), count()\n" + // line 11
		"\tgo func() {\n" + // 12
		"\t\tif n == 2 { x = 1 }\n" + // 13: the race, on the third run
		"\t\tdone <- true\n" + // 14
		"\t}()\n\tx = 2\n\t<-done\n}\n\n" +
		"func count() int {\n\tn, _ := os.ReadFile(" + strconv.Quote(counter) + ")\n" +
		"\tos.WriteFile(" + strconv.Quote(counter) + ", append(n, 'x'), 0o644)\n\treturn len(n)\n}\n"
	for name, text := range map[string]string{
		"go.mod":      "module example.com/racy\n\ngo 1.24\n",
		"q/q.go":      "package q\n",
		"q/q_test.go": test,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g0 := 0
	sched := &rt.Schedule{
		Version: 6, Package: "example.com/racy/q", Dir: "q", Test: "TestRace", Race: true, Strategy: "plain", Seed: 1,
		Decisions: []rt.Decision{{G: 0, Op: "start"}, {G: 0, Site: "q_test.go:12", Op: "go"}, {G: 1, Op: "start"}, {G: 1, Site: "q_test.go:14", Op: "chan send", Partner: &g0, Obj: 1}},
		Failure:   &rt.Signature{Kind: string(checks.DataRace), Message: "data race: write at q_test.go:13 in q.TestRace.func1 and previous write at q_test.go:16 in q.TestRace", Site: "q/q_test.go:13"},
		NowTick:   rt.NowTick,
	}
	path := filepath.Join(t.TempDir(), "race.json")
	if err := WriteSchedule(path, sched); err != nil {
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
