package gen

import (
	"context"
	"strings"
	"testing"
	"time"
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
	dir := t.TempDir()
	if err := copyTree("testdata/stuck", dir); err != nil {
		t.Fatal(err)
	}
	pkgs, _, err := load(context.Background(), dir, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
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
