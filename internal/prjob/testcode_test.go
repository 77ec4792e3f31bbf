package prjob

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestTestCodeOnlyNotNew: a failure in code the change did not touch,
// whose schedule passed through changed lines of test code only (zap
// v1.26.0's BufferedWriteSyncer deadlock through the rewritten mock clock
// of internal/ztest), is never posted as new, whatever the base's search
// saw of it: in the summary, said why. A failure whose schedule passed a
// changed line of the program (ttlcache v3.4.0's leak through the changed
// Start), with or without changed test code beside it, stays new.
func TestTestCodeOnlyNotNew(t *testing.T) {
	dir := t.TempDir()
	sched := func(name string, sites ...string) string {
		s := rt.Schedule{Version: rt.ScheduleVersionSeeded, Package: "m/p", Test: "TestX", NowTick: 1}
		for _, site := range sites {
			s.Decisions = append(s.Decisions, rt.Decision{G: 1, Site: site})
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := func(test, schedule string) checks.Finding {
		return checks.Finding{Kind: checks.Deadlock, Test: test, Message: test + ": deadlock",
			Pos:       checks.Position{File: "p/syncer.go", Line: 159},
			Frequency: &checks.Frequency{Failing: 4, Schedules: 810}, Schedule: schedule,
			Goroutines: []checks.Goroutine{{ID: "g17", Site: "p/syncer.go:159", Stack: []checks.Frame{{Func: "m/p.(*S).Sync", File: "p/syncer.go", Line: 159}}}}}
	}
	dyn := []checks.Finding{
		at("TestClockOnly", sched("clock", "clock.go:55", "syncer.go:159", "syncer_test.go:12")),
		at("TestThroughProgram", sched("program", "clock.go:55", "cache.go:166", "syncer.go:159")),
		at("TestNoChangePassed", sched("none", "syncer.go:159")),
	}
	c := &affected.Change{Root: dir, ModuleDir: dir, ModulePath: "m", Base: "HEAD~1", MergeBase: "abc", Files: []affected.File{
		{Path: "internal/ztest/clock.go", Lines: []diff.Range{{Start: 50, End: 60}}},
		{Path: "p/cache.go", Lines: []diff.Range{{Start: 166, End: 166}}},
		{Path: "p/syncer_test.go", Lines: []diff.Range{{Start: 12, End: 12}}},
	}}
	r := &job{opts: &Options{}, change: c, baseVerdicts: func(_ context.Context, fs []checks.Finding) ([]explore.BaseVerdict, error) {
		v := make([]explore.BaseVerdict, len(fs))
		for i := range v {
			v[i].How = "neither its schedule nor 847 schedules of a search of TestX fail this way on the base commit"
		}
		return v, nil
	}}
	news, pre, unc := r.byCause(context.Background(), dyn)
	var newTests []string
	for _, f := range news {
		newTests = append(newTests, f.Test)
	}
	if strings.Join(newTests, " ") != "TestThroughProgram TestNoChangePassed" {
		t.Errorf("new: %q, want TestThroughProgram and TestNoChangePassed", newTests)
	}
	if len(pre) != 0 {
		t.Errorf("pre-existing: %d, want none", len(pre))
	}
	if len(unc) != 1 || unc[0].Test != "TestClockOnly" || unc[0].Baseline == checks.BaselineNew ||
		!strings.Contains(unc[0].Message, "not the change's code: it fails in code this change did not touch; on its path the change touched only test code, at internal/ztest/clock.go:55; neither its schedule nor 847") {
		t.Errorf("summary only: %+v, want TestClockOnly's, said why", unc)
	}
	if notes := strings.Join(r.notes, "\n"); !strings.Contains(notes, "1 dynamic failure in code this change did not touch, with only test code changed on its path") || strings.Contains(notes, "could not build or run") {
		t.Errorf("notes %q", notes)
	}
}

func TestTestCode(t *testing.T) {
	for file, want := range map[string]bool{
		"internal/ztest/clock.go": true,
		"p/syncer_test.go":        true,
		"net/httptest/server.go":  true,
		"internal/testutil/x.go":  true,
		"p/cache.go":              false,
		"contest/x.go":            true, // a package named so is taken for test support
		"testing.go":              false,
	} {
		if got := testCode(file); got != want {
			t.Errorf("testCode(%q) = %v, want %v", file, got, want)
		}
	}
}
