// Package firstfail has a failure a search that stops each test at its
// first failure (explore's TestTestUntil) must stop all its processes at.
package firstfail

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// runs counts the schedules of this test in the process.
var runs int

// TestFailsInOneWorker fails in one process only: the first to reach its
// second schedule claims a file named after the parent process (the
// search) in FIRSTFAIL_CLAIMS and fails there; every other process passes, so the search's
// other worker must be told to stop. Alone in a fresh process, and under
// plain go test, it passes.
func TestFailsInOneWorker(t *testing.T) {
	runs++
	if runs != 2 {
		return
	}
	dir := os.Getenv("FIRSTFAIL_CLAIMS") // the search gives each process an os.TempDir of its own
	if dir == "" {
		dir = os.TempDir()
	}
	claim := filepath.Join(dir, fmt.Sprintf("interleave-firstfail-%d", os.Getppid()))
	if f, err := os.OpenFile(claim, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
		f.Close()
		t.Error("the second schedule of the first process to reach one")
	}
}
