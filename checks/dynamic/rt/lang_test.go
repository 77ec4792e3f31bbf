package rt

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCompilesAsGo118: the rewrite places this package in the module under
// test, whose go line sets its language version (go1.18 at least, rewrite's
// minGo): gorilla/handlers (go 1.20) did not build when join.go used the
// built-in min.
func TestCompilesAsGo118(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	out, err := exec.Command("go", "build", "-gcflags=-lang=go1.18", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("rt does not compile as go1.18: %v\n%s", err, strings.TrimSpace(string(out)))
	}
}
