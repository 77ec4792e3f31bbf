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

// TestPRBaseCannotBuild (issue 21 item 2, fasthttp-ctxreset's shape): the
// head's TestStamp starts a clock it never stops, whose goroutine waits
// in a loop for the rest of the process, a leak the search reports and
// plain go test leaves behind too; the base commit has the test but does
// not build.
// That the base cannot run it does not make the failure the change's: it
// is listed as not compared (with the base's compiler error), not
// posted, and it replays.
func TestPRBaseCannotBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	dir := kernelRepo(t, "stampclock", "stamp")
	cfg := DefaultConfig()
	cfg.Base, cfg.Budget, cfg.Format, cfg.Verbose, cfg.Seed, cfg.Workers = "HEAD~1", 10*time.Minute, "json", true, 1, 1
	cfg.Count = 5
	cfg.GenAuto = false
	cfg.Output = filepath.Join(t.TempDir(), "out.json")
	var stdout, stderr strings.Builder
	res, err := Run(context.Background(), Options{Config: cfg, Dir: dir}, &stdout, &stderr)
	t.Logf("stderr:\n%s", stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Report.Findings {
		if f.Test == "TestStamp" {
			t.Errorf("posted as the change's although the base commit could not be compared: %s", f.Message)
		}
	}
	var leak *checks.Finding
	for i, f := range res.Report.Uncompared {
		if f.Test == "TestStamp" && f.Kind == checks.Leak {
			leak = &res.Report.Uncompared[i]
		}
	}
	if leak == nil {
		t.Fatalf("no leak of TestStamp listed as not compared; uncompared %d, findings %d, notes %q", len(res.Report.Uncompared), len(res.Report.Findings), res.Report.Notes)
	}
	if !strings.Contains(leak.Message, "not compared: the base commit cannot run it (build ") || !strings.Contains(leak.Message, "undefined: NewClock") {
		t.Errorf("the verdict does not give the base's build error: %s", leak.Message)
	}
	if leak.Baseline == checks.BaselineNew {
		t.Errorf("baseline %q", leak.Baseline)
	}
	rep, err := explore.Replay(context.Background(), leak.Schedule, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != explore.Reproduced {
		t.Errorf("the leak does not replay: %+v", rep)
	}
}
