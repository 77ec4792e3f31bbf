package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPlainBeside: plain go test's run of a test whose unperturbed
// schedule failed goes on beside the search. The plain run of TestGate
// waits until the search of the tests has begun (a file the Stage hook
// makes then), so it fails the same way only when it does not hold up
// the unperturbed runs; the finding is then labelled "fails too".
func TestPlainBeside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv("INTERLEAVE_TEST_GATE", gate)
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: []string{"./plainbeside"}, Budget: 2 * time.Minute, Seed: 1, Schedules: 2, SchedulesDir: t.TempDir(), Build: build,
		Stage: func(e StageEvent) {
			if strings.HasPrefix(e.Name, "searching ") {
				os.WriteFile(gate, nil, 0o644)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	var gated bool
	for _, f := range res.Findings {
		if f.Test != "TestGate" {
			t.Errorf("%s: unexpected %s: %s", f.Test, f.Kind, f.Message)
			continue
		}
		gated = true
		if !f.PlainGo.Fails() {
			t.Errorf("TestGate: %s, want plain go test fails too (its run went on beside the search)", f.Labels())
		}
	}
	if !gated {
		t.Errorf("TestGate not reported; notes %q", res.Notes)
	}
}
