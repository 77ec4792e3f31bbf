package prjob

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// subAloneCap bounds each test's search in TestPRSubtestAlone by
// schedules (the budget is only a guard).
const subAloneCap = 20

// TestPRSubtestAlone (issue 23, openfga-telemetry's shape): the change
// drops the lock of a registry's make-on-first-use lookup. TestClient's
// first subtest makes the counter, so its concurrent subtest DoAll only
// reads the map: the whole test cannot race. pr searches DoAll alone too
// (it starts goroutines after a sibling ran), where its goroutines make
// the counter at once: a data race on the changed lines, reported under
// "TestClient/DoAll", and it replays. Total, which counts what its
// siblings sent, fails alone with no interleaving: it is not searched
// alone, and that failure is no finding.
func TestPRSubtestAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	dir := kernelRepo(t, "lazymeter", "meter")
	cfg := DefaultConfig()
	cfg.Base, cfg.Budget, cfg.Format, cfg.Verbose, cfg.Seed, cfg.Workers = "HEAD~1", 10*time.Minute, "json", true, 1, 1
	cfg.Count = subAloneCap
	cfg.GenAuto = false
	cfg.Output = filepath.Join(t.TempDir(), "out.json")
	var stdout, stderr strings.Builder
	res, err := Run(context.Background(), Options{Config: cfg, Dir: dir}, &stdout, &stderr)
	t.Logf("stderr:\n%s", stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	meter := filepath.Join(dir, "meter.go")
	changed := map[int]bool{}
	for l := lineOf(t, meter, "if c, ok := r.counters[name]; ok {"); l <= lineOf(t, meter, "r.counters[name] = c"); l++ {
		changed[l] = true
	}
	var found *checks.Finding
	for i, f := range res.Report.Findings {
		if f.Kind != checks.DataRace || f.Test != "TestClient/DoAll" || f.Schedule == "" {
			continue
		}
		at := []checks.Position{f.Pos}
		for _, r := range f.Related {
			at = append(at, r.Position)
		}
		for _, p := range at {
			if filepath.Base(p.File) == "meter.go" && changed[p.Line] {
				found = &res.Report.Findings[i]
			}
		}
	}
	for _, f := range res.Report.Findings {
		if strings.HasPrefix(f.Test, "TestClient/Total") {
			t.Errorf("finding of Total, which fails alone without interleaving: %s", f.Message)
		}
	}
	for _, f := range res.Report.PreExisting {
		if strings.HasPrefix(f.Test, "TestClient/Total") {
			t.Errorf("pre-existing finding of Total, which fails alone without interleaving: %s", f.Message)
		}
	}
	if !strings.Contains(stderr.String(), "TestClient/Total: not searched alone: its unperturbed run alone failed (test-failure)") {
		t.Errorf("the log does not say Total is not searched alone")
	}
	if found == nil {
		t.Fatalf("no data race of TestClient/DoAll on meter.go's changed lines %v among %d findings: %+v", changed, len(res.Report.Findings), res.Report.Findings)
	}
	rep, err := explore.Replay(context.Background(), found.Schedule, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != explore.Reproduced {
		t.Errorf("the finding does not replay: %+v", rep)
	}
	if !strings.Contains(found.Message, "new in this change") || strings.Contains(found.Message, "cannot run it") {
		t.Errorf("base verdict: %s", found.Message)
	}
}
