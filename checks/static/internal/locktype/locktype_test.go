package locktype_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/locktype"
)

// TestFacts checks which types are decided plain locks (a fact on each)
// and that the others (conditional, no-op, try-lock named Lock, file
// lock, counter, channel, package mutex) get none, across packages.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), locktype.Analyzer, "locks", "user")
}
