package lockblock_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/lockblock"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockblock.Analyzer, "bad", "good", "cycle", "drain")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			want := "IL6001"
			if strings.HasSuffix(d.Message, ": deadlock") {
				want = "IL6002"
			}
			if d.Category != want {
				t.Errorf("%s: category %q, want %s", d.Message, d.Category, want)
			}
			if len(d.Related) == 0 {
				t.Errorf("%s: no related location", d.Message)
			}
		}
	}
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, lockblock.Analyzer) }
