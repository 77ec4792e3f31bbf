package threadsafe_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"
	"github.com/interleave-dev/interleave/checks/static/threadsafe"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), threadsafe.Analyzer, "bad", "good")
	// Every diagnostic names its rule and points at the other location.
	passtest.CheckDiagnostics(t, results, "IL5001", "IL5002")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, threadsafe.Analyzer) }
