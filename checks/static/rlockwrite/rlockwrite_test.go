package rlockwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), rlockwrite.Analyzer, "bad", "good", "onlyrlock")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category != "IL2001" {
				t.Errorf("%s: category %q, want IL2001", d.Message, d.Category)
			}
			if len(d.Related) == 0 {
				t.Errorf("%s: no related location", d.Message)
			}
		}
	}
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, rlockwrite.Analyzer) }
