package atomicmix_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), atomicmix.Analyzer, "bad", "good", "crossdef", "crosspkg")
	// Every diagnostic names its rule and points at the other location.
	rules := map[string]bool{"IL3001": true}
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if !rules[d.Category] {
				t.Errorf("%s: category %q, want one of %v", r.Pass.Fset.Position(d.Pos), d.Category, rules)
			}
			if len(d.Related) == 0 || !d.Related[0].Pos.IsValid() {
				t.Errorf("%s: %q has no related location", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if n == 0 {
		t.Error("got no diagnostics, want some")
	}
}
