package atomicmix_test

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/internal/passtest"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), atomicmix.Analyzer, "bad", "good", "crossdef", "crosspkg", "owners", "callerlocks", "forkjoin", "startorder", "once", "flagsplit", "stopworld", "options", "setupparam", "related", "unsync", "joined", "restart", "rlockload", "publish", "publishhook", "exportedrlock")
	// Every diagnostic names its rule and points at the other location.
	passtest.CheckDiagnostics(t, results, "IL3001", "IL3002")
	// IL3002 exactly where the message says so in the owners kernel.
	for _, r := range results {
		for _, d := range r.Diagnostics {
			want := "IL3001"
			if lineHas(t, r.Pass.Fset.Position(d.Pos), "/* IL3002 */") {
				want = "IL3002"
			}
			if d.Category != want {
				t.Errorf("%s: %q is %s, want %s", r.Pass.Fset.Position(d.Pos), d.Message, d.Category, want)
			}
		}
	}
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, atomicmix.Analyzer) }

// lineHas reports whether the source line at pos contains marker.
func lineHas(t *testing.T, pos token.Position, marker string) bool {
	t.Helper()
	src, err := os.ReadFile(pos.Filename)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	return pos.Line <= len(lines) && strings.Contains(lines[pos.Line-1], marker)
}

// TestPlainWritesGrouped: the two plain writes of s.hits (reset, bump) are
// one IL3002 finding at reset's, with bump's as a related position
// (issue 24).
func TestPlainWritesGrouped(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), atomicmix.Analyzer, "bad")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if !strings.HasSuffix(p.Filename, "bad.go") || p.Line != 23 {
				continue
			}
			for _, rel := range d.Related {
				if rp := r.Pass.Fset.Position(rel.Pos); rp.Line == 27 && strings.HasPrefix(rel.Message, "also a plain write") {
					return
				}
			}
			t.Fatalf("bad.go:23 related %+v, want bump's write at line 27", d.Related)
		}
	}
	t.Fatal("no finding at bad.go:23")
}
