package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// TestPlainCheck runs findings' tests under plain go test, as the pull
// request job does for those no base commit can confirm: a failure plain
// go test has too is labelled "fails too" with its exit status, a leak it
// leaves behind with exit 0 "passes", a package that does not exist "not
// run".
func TestPlainCheck(t *testing.T) {
	t.Parallel()
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
	// How many of the three goroutines add before Wait returns is the
	// machine's doing: the sum varies, the line does not.
	if p := got[0]; !p.Fails() || p.ExitCode != 1 || !strings.HasPrefix(p.Failure, "fanin_test.go:58: sum = ") || !strings.HasSuffix(p.Failure, ", want 6") {
		t.Errorf("wg.Add inside: %+v (%s), want plain go test fails too, exit 1", p, p.Label())
	}
	if p := got[1]; p.Fails() || p.Runs == 0 || p.ExitCode != 0 || !p.LeavesSame {
		t.Errorf("stranded sender: %+v (%s), want plain go test passes (exit 0), leaving the goroutine", p, p.Label())
	}
	if p := got[2]; p.Runs != 0 || !strings.Contains(p.NotRun, "kernels/nothere") {
		t.Errorf("missing package: %+v, want not run, naming it", p)
	}
}

// TestPlainCheckDeadlock: without -race, plain go test's run has no timer
// of go test's, so the runtime itself ends a test all of whose goroutines
// are asleep, at once, and that is the deadlock's "fails too"; a test
// that spins forever instead is killed at the timeout, and fails too.
func TestPlainCheckDeadlock(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	dir := t.TempDir()
	src := `package a

import (
	"sync"
	"testing"
	"time"
)

func TestSelfDeadlock(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	mu.Lock()
}

func TestSpins(t *testing.T) {
	for {
		time.Sleep(time.Millisecond)
	}
}
`
	for name, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n", "a/a_test.go": src} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	finding := func(test string) checks.Finding {
		return checks.Finding{Kind: checks.Deadlock, Package: "example.com/m/a", Test: test, Message: test + ": deadlock: all goroutines blocked"}
	}
	// The deadlock's timeout is far beyond any machine's start-up: it is
	// the runtime, not the timeout, that ends it.
	got, err := PlainCheck(context.Background(), []checks.Finding{finding("TestSelfDeadlock")}, PlainOptions{Dir: dir, Timeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[0]; !p.Fails() || p.ExitCode != 2 || !strings.HasPrefix(p.Failure, "fatal error: all goroutines are asleep") {
		t.Errorf("self-deadlock: %+v (%s), want plain go test fails too, the runtime's deadlock", p, p.Label())
	}
	got, err = PlainCheck(context.Background(), []checks.Finding{finding("TestSpins")}, PlainOptions{Dir: dir, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[0]; !p.Fails() || p.ExitCode != -1 || p.Failure != "timed out after 2s" {
		t.Errorf("spinning test: %+v (%s), want plain go test fails too, killed at its timeout", p, p.Label())
	}
}
