// Package passtest holds what the passes' analysistest tests check beyond
// the `// want` comments.
package passtest

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
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

// Idioms runs a on the shared package of idioms every pass must stay silent
// on (defer-unlock, TryLock, Cond wait loops, sync.Once, typed atomics,
// closures run under the caller's lock, select-with-default sends,
// constructor-only fields, goroutine-confined values): any diagnostic fails
// t. Facts are the pass's own business and are not checked here.
func Idioms(t *testing.T, a *analysis.Analyzer) {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("passtest: cannot locate the shared idioms")
	}
	var c collector
	results := analysistest.Run(&c, filepath.Join(filepath.Dir(file), "testdata"), a, "idioms")
	for _, msg := range c.msgs {
		if !strings.Contains(msg, "unexpected fact") && !strings.Contains(msg, "unexpected diagnostic") {
			t.Error(msg)
		}
	}
	n := 0
	for _, r := range results {
		n++
		for _, d := range r.Diagnostics {
			t.Errorf("%s: %s (%s) on an idiom that must stay silent", r.Pass.Fset.Position(d.Pos), d.Message, d.Category)
		}
	}
	if n == 0 {
		t.Error("passtest: the idioms package was not analyzed")
	}
}

// collector takes analysistest's complaints so that Idioms can drop the
// ones about facts.
type collector struct{ msgs []string }

func (c *collector) Errorf(format string, args ...any) {
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}
