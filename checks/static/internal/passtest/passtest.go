// Package passtest holds what the passes' analysistest tests check beyond
// the `// want` comments.
package passtest

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// CheckDiagnostics fails t unless results hold at least one diagnostic and
// every one has a Category among rules and a related location.
func CheckDiagnostics(t *testing.T, results []*analysistest.Result, rules ...string) {
	t.Helper()
	allowed := map[string]bool{}
	for _, r := range rules {
		allowed[r] = true
	}
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if !allowed[d.Category] {
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
