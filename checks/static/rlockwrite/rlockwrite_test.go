package rlockwrite_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), rlockwrite.Analyzer, "bad", "good", "onlyrlock", "testsetup", "customlock", "samecond")
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

// TestGroupedByFieldAndLock: the writes to c.m under c.mu's read lock in
// Put, Del and Alias are one finding at Put's, with the other two as
// related positions (issue 24).
func TestGroupedByFieldAndLock(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), rlockwrite.Analyzer, "bad")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(p.Filename) != "bad.go" || p.Line != 25 {
				continue
			}
			var also []string
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "also written here") {
					also = append(also, fmt.Sprint(r.Pass.Fset.Position(rel.Pos).Line))
				}
			}
			if got := strings.Join(also, " "); got != "32 57" {
				t.Errorf("bad.go:25 related writes at lines %q, want \"32 57\"", got)
			}
			return
		}
	}
	t.Fatal("no finding at bad.go:25")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, rlockwrite.Analyzer) }
