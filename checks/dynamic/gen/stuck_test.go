package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// TestSequentialStuck: a generated case whose calls block for ever is
// dropped as soon as every goroutine waits on another (Plug's second Close
// sends on a full channel nothing reads), not after genSequentialTimeout,
// and the cases whose calls wait on a timer in a select or on a sleeping
// goroutine, longer than the stuck window, are kept (Nap's first Wait or
// Relay of the process; the other Nap cases wait for it on the Once's
// lock meanwhile). Before, Plug's cases were dropped after 10s, each round.
// The sixteen Plug cases are told stuck together by the process's one
// watch: when each case watched on its own, one ending changed the stacks
// the others watched and started their windows over, and some ran into the
// 10s timeout (CI, 6 cases; here 2 of 6 runs with 16).
func TestSequentialStuck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the generated cases")
	}
	dir, pkgs := loadKernel(t, "testdata/stuck")
	pkg := pkgs[0]
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	w := &pkgWork{pkg: pkg, gen: g, dir: dir}
	reports := map[*Target]*TypeReport{}
	byType := map[string]*Target{}
	for _, tg := range Targets(pkgs) {
		byType[tg.Name.Name()] = tg
		reports[tg] = &TypeReport{Type: tg.Name.Name()}
		w.cases = append(w.cases, g.Generate(tg, 16)...)
	}
	if byType["Plug"] == nil || byType["Nap"] == nil {
		t.Fatalf("targets %v, want Plug and Nap", byType)
	}
	var built time.Duration
	if _, err := feedback(context.Background(), dir, "", []*pkgWork{w}, reports, 100, nil, time.Time{}, &built); err != nil {
		t.Fatal(err)
	}
	plug, nap := reports[byType["Plug"]], reports[byType["Nap"]]
	t.Logf("Plug: %d kept, dropped %q", plug.Kept, plug.Dropped)
	t.Logf("Nap: %d kept, dropped %q", nap.Kept, nap.Dropped)
	if len(nap.Dropped) > 0 {
		t.Errorf("Nap's cases dropped, want all kept: %q", nap.Dropped)
	}
	stuck := 0
	for _, d := range plug.Dropped {
		if !strings.Contains(d, "blocks when run sequentially") {
			t.Errorf("Plug case dropped for %q, want blocking", d)
		}
		if strings.Contains(d, "every goroutine waits on another") {
			stuck++
		}
	}
	if stuck == 0 || stuck != len(plug.Dropped) {
		t.Errorf("%d of %d dropped Plug cases seen stuck, want all of them and some: %q", stuck, len(plug.Dropped), plug.Dropped)
	}
}

// TestSequentialLeavesNoGoroutine: the sequential check's watch of the
// stacks ends with the last case that waits on it, so a package whose
// TestMain fails on goroutines left after the tests (testdata/leakcheck,
// as goleak.VerifyTestMain) still passes with the generated file. A
// watch that ran on for the rest of the process failed it.
func TestSequentialLeavesNoGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the generated cases")
	}
	dir, pkgs := loadKernel(t, "testdata/leakcheck")
	g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
	var cases []*Case
	for _, tg := range Targets(pkgs) {
		cases = append(cases, g.Generate(tg, 4)...)
	}
	if len(cases) == 0 {
		t.Fatal("no cases generated for Tally")
	}
	src, err := Render(g, pkgs[0].Name, cases, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestInterleaveGen", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test on the %d generated cases: %v\n%s", len(cases), err, out)
	}
}

// loadKernel copies the kernel module at src to a temporary directory and
// loads its package there.
// copyHeadBase copies a change's kernel (its head/ and base/) to a
// temporary directory and returns their copies.
func copyHeadBase(t *testing.T, kernel string) (head, base string) {
	t.Helper()
	tmp := t.TempDir()
	head, base = filepath.Join(tmp, "head"), filepath.Join(tmp, "base")
	for dir, from := range map[string]string{head: kernel + "/head", base: kernel + "/base"} {
		if err := copyTree(from, dir); err != nil {
			t.Fatal(err)
		}
	}
	return head, base
}

func loadKernel(t *testing.T, src string) (string, []*packages.Package) {
	t.Helper()
	dir := t.TempDir()
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	pkgs, _, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	return dir, pkgs
}
