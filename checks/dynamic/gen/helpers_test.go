package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// quietCountsTest runs one generated case as six schedules of one test
// (subtests schedule-N, as under interleave) and prints how many
// goroutine counts each took.
const quietCountsTest = `package PKG_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

var genCounts int64

func genCounted() int { atomic.AddInt64(&genCounts, 1); return runtime.NumGoroutine() }

func TestQuietCounts(t *testing.T) {
	for i := 1; i <= 6; i++ {
		before := atomic.LoadInt64(&genCounts)
		t.Run(fmt.Sprintf("schedule-%d", i), CASE)
		fmt.Printf("counts %d\n", atomic.LoadInt64(&genCounts)-before)
	}
}
`

// TestQuietCounts: a case whose linearizations start no goroutine counts
// goroutines (under interleave, each count dumps every stack) about
// three times a schedule after its first: before its prefix's settle
// (from the memo), after the concurrent calls, after all its orders.
// Before, each run of each order counted (12 a schedule for this case). It also builds
// and runs a rendered concurrent file with plain go test.
func TestQuietCounts(t *testing.T) {
	pkgs, _, err := load(context.Background(), corpusDir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	var cs []*Case
	for _, tg := range Targets(pkgs) {
		if tg.Name.Name() == "Set" {
			cs = g.Generate(tg, 1)
		}
	}
	if len(cs) != 1 {
		t.Fatalf("no case of Set")
	}
	src, err := Render(g, pkgs[0].Name, cs, Concurrent)
	if err != nil {
		t.Fatal(err)
	}
	counted := strings.ReplaceAll(string(src), "runtime.NumGoroutine()", "genCounted()") + "\nvar _ = runtime.Gosched\n"
	dir := t.TempDir()
	if err := copyTree(corpusDir, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(counted), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "counts_test.go"), []byte(strings.NewReplacer("PKG", pkgs[0].Name, "CASE", cs[0].Name).Replace(quietCountsTest)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestQuietCounts$", "-v", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Fatalf("the case was skipped:\n%s", out)
	}
	var counts []int
	for _, m := range regexp.MustCompile(`(?m)^counts (\d+)$`).FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[1])
		counts = append(counts, n)
	}
	if len(counts) != 6 {
		t.Fatalf("%d schedules counted, want 6:\n%s", len(counts), out)
	}
	if counts[0] < 19 {
		t.Errorf("the first schedule counted %d times, want every order counted (19 or more)", counts[0])
	}
	// Three a schedule; one whose goroutines are slow to exit (a loaded
	// machine) may count again, or run its orders with every count.
	cheap := 0
	for _, n := range counts[1:] {
		if n <= 4 {
			cheap++
		}
	}
	if cheap < 3 {
		t.Errorf("schedules 2-6 counted goroutines %v times, want 3 in most", counts[1:])
	}
	t.Logf("counts per schedule: %v", counts)
}

// TestSharedCorpusOneBuild: the shared corpus run instruments and
// race-builds the corpus once, for its search and its own replay of the
// findings (the search's build, reused: the module did not change).
// Before, gen's replay instrumented and built it again.
func TestSharedCorpusOneBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	sharedCorpus(t)
	var builds, insts []string
	replayed := ""
	for _, e := range shared.stages {
		switch {
		case strings.HasPrefix(e.Name, "building the test binary of"):
			builds = append(builds, e.Name)
		case strings.Contains(e.Name, "instrumenting"):
			insts = append(insts, e.Name)
		case strings.HasPrefix(e.Name, "replaying"):
			replayed = e.Detail
		}
	}
	if replayed == "" {
		t.Fatalf("gen replayed nothing: %v", shared.stages)
	}
	// The search replayed its findings alone on this build: gen does not
	// run them again (it did, past the budget of interleave pr).
	if !strings.Contains(replayed, "replayed alone by the search already") {
		t.Errorf("gen's replay: %q, want the search's replays taken", replayed)
	}
	if len(builds) != 1 || len(insts) != 1 {
		t.Errorf("%d builds %q and %d instrumentations %q, want one of each", len(builds), builds, len(insts), insts)
	}
}

// TestUnchanged: gen's replay reuses the search's build only while the
// user's module has the files it had when copied.
func TestUnchanged(t *testing.T) {
	dir := t.TempDir()
	if err := copyTree(corpusDir, dir); err != nil {
		t.Fatal(err)
	}
	r := &run{modRoot: dir}
	var err error
	if r.stamps, err = treeStamps(dir); err != nil {
		t.Fatal(err)
	}
	if !r.unchanged() {
		t.Fatal("a module just stamped counts as changed")
	}
	// gen's own output (schedules, tests) is not the module's.
	if err := os.MkdirAll(filepath.Join(dir, ".interleave", "schedules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".interleave", "schedules", "x.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !r.unchanged() {
		t.Error("a schedule written under .interleave counts as a change")
	}
	// Nor where -schedules and -tests put them.
	r.opts.SchedulesDir, r.opts.TestsDir = filepath.Join(dir, "out", "s"), filepath.Join(dir, "gen")
	for _, f := range []string{filepath.Join(dir, "out", "s", "x.json"), filepath.Join(dir, "gen", "p", FileName)} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !r.unchanged() {
		t.Error("a schedule or test file written where -schedules or -tests say counts as a change")
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "other.go"), []byte("package out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r.unchanged() {
		t.Error("a new file beside the schedules' directory does not count as a change")
	}
	if err := os.Remove(filepath.Join(dir, "out", "other.go")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "broken.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(src, "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r.unchanged() {
		t.Error("an edited file does not count as a change")
	}
}
