package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// TestPRGenOnBase: a change makes a type's calls block when run one after
// the other (the valve kernel of checks/dynamic/gen/testdata/onbase: after
// Open, Close, Open the next Close blocks, as gocron v1.15.0's Stop after a
// restart). No test runs it; the generated tests that block sequentially
// pass on the merge base, so pr searches them instead of dropping them and
// posts the hang on the changed send, replaying. Fails without pr passing
// a worktree of the merge base to gen (gen.Options.BaseDir in
// prjob.genTests): every such test is dropped, and pr exits 0.
func TestPRGenOnBase(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds instrumented tests")
	}
	read := func(commit string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "checks", "dynamic", "gen", "testdata", "onbase", commit, "valve.go"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	head := read("head")
	ch := newPullChange(t, map[string]string{
		"go.mod":         "module example.com/valve\n\ngo 1.24\n",
		"valve/valve.go": read("base"),
	}, map[string]string{"valve/valve.go": head})
	send := lineIn(t, head, "v.closed <- struct{}{}")

	rep, _, stderr := ch.prFindings(t, "-budget", "5s", "-gen-budget", "3m", "-count", "5", "-workers", prWorkers, "-seed", "1", "-v")
	var hang *report.JSONFinding
	for i, f := range rep.Findings {
		t.Logf("finding %s %s %s:%d %s (%s)", f.Rule, f.Kind, f.Pos.File, f.Pos.Line, f.Message, f.Replay)
		if f.Kind == checks.Deadlock && strings.Contains(f.Message, "pass on the base commit") {
			hang = &rep.Findings[i]
		}
	}
	if hang == nil {
		t.Fatalf("no deadlock of a generated test that passes on the base")
	}
	if hang.Pos.Line != send || !strings.HasSuffix(hang.Pos.File, "valve.go") {
		t.Errorf("the hang is at %s:%d, want valve.go:%d (the changed send)", hang.Pos.File, hang.Pos.Line, send)
	}
	if hang.Schedule == "" || hang.Replay != "interleave replay "+hang.Schedule {
		t.Errorf("no replay command: %+v", hang)
	}
	ch.replays(t, hang)
	if !strings.Contains(stderr, "of them fail sequentially here but pass on the base commit") {
		t.Errorf("stderr (-v) does not count the tests kept for passing on the base")
	}
}
