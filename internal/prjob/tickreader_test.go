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

// tickReaderCap bounds TestPRTickReader's search by schedules (the budget
// is only a guard).
const tickReaderCap = 200

// TestPRTickReader (issue 23, otelmetric-inst's shape): the change makes
// a reader's constructor take an id and publish a stats field after it
// started the goroutine that collects on every tick, and collect reads
// the field. The test's ticker has a one-minute period and the test
// flushes (a channel hand-off) right away, so only a tick that comes
// while the constructor is still at its changed line races, and a tick
// came only when nothing else could run. pr's search may move the clock
// that far there (rt's farNow): a data race on the changed lines, new in
// this change, and it replays.
func TestPRTickReader(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	dir := kernelRepo(t, "tickreader", "reader")
	cfg := DefaultConfig()
	cfg.Base, cfg.Budget, cfg.Format, cfg.Verbose, cfg.Seed, cfg.Workers = "HEAD~1", 10*time.Minute, "json", true, 1, 1
	cfg.Count = tickReaderCap
	cfg.GenAuto = false
	cfg.Output = filepath.Join(t.TempDir(), "out.json")
	var stdout, stderr strings.Builder
	res, err := Run(context.Background(), Options{Config: cfg, Dir: dir}, &stdout, &stderr)
	t.Logf("stderr:\n%s", stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "reader.go")
	write, read := lineOf(t, src, "r.stats = &stats{"), lineOf(t, src, "if s := r.stats; s != nil {")
	var found *checks.Finding
	for i, f := range res.Report.Findings {
		if f.Kind != checks.DataRace || f.Test != "TestFlush" || f.Schedule == "" {
			continue
		}
		lines := map[int]bool{f.Pos.Line: true}
		for _, r := range f.Related {
			lines[r.Position.Line] = true
		}
		if filepath.Base(f.Pos.File) == "reader.go" && lines[write] && lines[read] {
			found = &res.Report.Findings[i]
		}
	}
	if found == nil {
		t.Fatalf("no data race of TestFlush between reader.go:%d and :%d among %d findings: %+v", write, read, len(res.Report.Findings), res.Report.Findings)
	}
	if n := len(res.Report.Findings); n != 1 {
		t.Errorf("%d findings, want the race alone: %+v", n, res.Report.Findings)
	}
	if !strings.Contains(found.Message, "new in this change") {
		t.Errorf("base verdict: %s", found.Message)
	}
	rep, err := explore.Replay(context.Background(), found.Schedule, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != explore.Reproduced {
		t.Errorf("the finding does not replay: %+v", rep)
	}
}
