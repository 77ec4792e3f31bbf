package syncarg_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/syncarg"
)

// TestFacts checks the parameters each function is found to call or
// return, in its package and through another package's facts.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), syncarg.Analyzer, "args", "use")
}
