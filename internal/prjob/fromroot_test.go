package prjob

import (
	"path/filepath"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
)

// TestFromRoot: a schedule named relative to the module directory (the
// search's and gen's) is replayed from the repository's top level, where
// the README's `-C examples/bank` command is run. Before gen's findings
// went through fromRoot, their replay line named .interleave/… alone.
func TestFromRoot(t *testing.T) {
	root := t.TempDir()
	r := &job{opts: &Options{}, change: &affected.Change{Root: root, ModuleDir: filepath.Join(root, "examples", "bank")}}
	fs := r.fromRoot([]checks.Finding{
		{Test: "TestInterleaveGen_Bank_40", Schedule: ".interleave/schedules/TestInterleaveGen_Bank_40-deadlock-7a805f1f.json"},
		{Test: "TestStatic"},
	})
	want := "interleave replay examples/bank/.interleave/schedules/TestInterleaveGen_Bank_40-deadlock-7a805f1f.json"
	if fs[0].Replay != want {
		t.Errorf("replay %q, want %q", fs[0].Replay, want)
	}
	if !filepath.IsAbs(fs[0].Schedule) {
		t.Errorf("schedule %q, want it absolute", fs[0].Schedule)
	}
	if fs[1].Replay != "" || fs[1].Schedule != "" {
		t.Errorf("a finding without a schedule got %q, %q", fs[1].Schedule, fs[1].Replay)
	}
}
