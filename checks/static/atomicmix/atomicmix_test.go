package atomicmix_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/internal/passtest"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), atomicmix.Analyzer, "bad", "good", "crossdef", "crosspkg")
	// Every diagnostic names its rule and points at the other location.
	passtest.CheckDiagnostics(t, results, "IL3001")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, atomicmix.Analyzer) }
