package checkact_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/checkact"
	"github.com/interleave-dev/interleave/checks/static/internal/passtest"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), checkact.Analyzer, "bad", "good", "customlock")
	// Every diagnostic names its rule and points at the other location.
	passtest.CheckDiagnostics(t, results, "IL4001", "IL4002", "IL4003")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, checkact.Analyzer) }
