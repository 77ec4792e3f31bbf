package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestPlainCheck runs findings' tests under plain go test, as the pull
// request job does for those no base commit can confirm: a failure plain
// go test has too is labelled "fails too" with its exit status, a leak it
// leaves behind with exit 0 "passes", a package that does not exist "not
// run".
func TestPlainCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/kernels")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "fanin", "fanin_test.go")
	fs := []checks.Finding{
		{Kind: checks.TestFailure, Package: "kernels/fanin", Test: "TestSumWaitGroupAddInside",
			Message: "TestSumWaitGroupAddInside: test failed: fanin_test.go:58: sum = 0, want 6", Pos: checks.Position{File: file, Line: 56}},
		{Kind: checks.Leak, Package: "kernels/fanin", Test: "TestFirstErrorStrandsSender",
			Message:    "TestFirstErrorStrandsSender: leak: goroutines still blocked after the test returned: g2 blocked on chan send at fanin_test.go:17",
			Goroutines: []checks.Goroutine{{ID: "g2", Stack: []checks.Frame{{Func: "kernels/fanin.firstError.func1", File: file, Line: 17}}}}},
		{Kind: checks.Panic, Package: "kernels/nothere", Test: "TestX", Message: "TestX: panic: x"},
	}
	got, err := PlainCheck(context.Background(), fs, PlainOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[0]; !p.Fails() || p.ExitCode != 1 || p.Failure != "fanin_test.go:58: sum = 0, want 6" {
		t.Errorf("wg.Add inside: %+v (%s), want plain go test fails too, exit 1", p, p.Label())
	}
	if p := got[1]; p.Fails() || p.Runs == 0 || p.ExitCode != 0 || !p.LeavesSame {
		t.Errorf("stranded sender: %+v (%s), want plain go test passes (exit 0), leaving the goroutine", p, p.Label())
	}
	if p := got[2]; p.Runs != 0 || !strings.Contains(p.NotRun, "kernels/nothere") {
		t.Errorf("missing package: %+v, want not run, naming it", p)
	}
}
