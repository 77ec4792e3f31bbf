// Package childproc re-runs its own test binary, the common way to test a
// crash or os.Exit: the child must run uncontrolled, and its failure is
// the parent's expectation, not a finding.
package childproc

import (
	"os"
	"os/exec"
	"sync"
	"testing"
)

// shutdown stops the workers and exits with status 3, as a command's main
// would on a fatal configuration error.
func shutdown() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done() }()
	}
	wg.Wait()
	os.Exit(3)
}

func TestExitsWithThree(t *testing.T) {
	if os.Getenv("CHILDPROC_BE_CHILD") == "1" {
		shutdown()
		return
	}
	// t.Name() is how the child finds this test again.
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
	cmd.Env = append(os.Environ(), "CHILDPROC_BE_CHILD=1")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("child: err %v, want exit status 3; output:\n%s", err, out)
	}
}
