package rt

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/interleave-dev/interleave/internal/testctx"
)

// raceChildTests need the race detector. A build without -race runs them
// all in one child go test -race: one race build and link for all of
// them, not one each.
var raceChildTests = []string{"TestShadowKeepsRoom", "TestMapRangeNoToolRace", "TestExitNoToolRace", "TestSeededRandNoToolRace", "TestSynctestWaitNoRace"}

var raceChild struct {
	once sync.Once
	out  string
	err  error
}

// ranInRaceChild reports whether t's outcome was taken from the shared
// child go test -race (failing t if it did not pass there): true in a
// build without -race, false in a race build, where t runs itself.
func ranInRaceChild(t *testing.T) bool {
	t.Helper()
	if raceEnabled {
		return false
	}
	if testing.Short() {
		t.Skip("needs -race (a child go test -race)")
	}
	raceChild.once.Do(func() {
		run := "^(" + strings.Join(raceChildTests, "|") + ")$"
		out, err := exec.CommandContext(testctx.New(t), "go", "test", "-race", "-count=1", "-v", "-run", run, ".").CombinedOutput()
		raceChild.out, raceChild.err = string(out), err
	})
	if !strings.Contains(raceChild.out, "--- PASS: "+t.Name()+" ") {
		t.Fatalf("%s did not pass under go test -race (%v):\n%s", t.Name(), raceChild.err, raceChild.out)
	}
	return true
}

// runTestChild runs this test binary's test named test in a subprocess, with
// env added, and returns its combined output and error.
func runTestChild(test string, env ...string) (string, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	b, err := cmd.CombinedOutput()
	return string(b), err
}
