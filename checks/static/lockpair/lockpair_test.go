package lockpair_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

func TestLockpair(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockpair.Analyzer, "bad", "good", "crossdep", "crosspkg", "loopvar", "handoff", "semaphore", "oneshot", "session", "customlock", "exithook", "cleanupobj")
}

// TestPanics runs with -panics: a panicking path that keeps the lock is
// reported too, since a recovered panic leaves the lock held.
func TestPanics(t *testing.T) {
	a := lockpair.Analyzer
	if err := a.Flags.Set("panics", "true"); err != nil {
		t.Fatal(err)
	}
	defer a.Flags.Set("panics", "false")
	analysistest.Run(t, analysistest.TestData(), a, "panics")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, lockpair.Analyzer) }

// TestDoubleLockNamesContinue checks that a lock re-taken by the next
// iteration points at the continue that left it held.
func TestDoubleLockNamesContinue(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockpair.Analyzer, "bad")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(p.Filename) != "double.go" || p.Line != 51 {
				continue
			}
			for _, rel := range d.Related {
				rp := r.Pass.Fset.Position(rel.Pos)
				if rp.Line == 53 && strings.Contains(rel.Message, "continued here") {
					return
				}
			}
			t.Fatalf("double lock at double.go:51 has related %+v, want the continue at line 53", d.Related)
		}
	}
	t.Fatal("no diagnostic at double.go:51")
}

// TestHeldAtReturnGrouped: a lock kept on three returns of one function is
// one finding, at the first return, with the other two as related
// positions (issue 24).
func TestHeldAtReturnGrouped(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockpair.Analyzer, "bad")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(p.Filename) != "grouped.go" {
				continue
			}
			n++
			var also []int
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "also still held") {
					also = append(also, r.Pass.Fset.Position(rel.Pos).Line)
				}
			}
			if p.Line != 20 || len(also) != 2 || also[0] != 23 || also[1] != 26 {
				t.Errorf("grouped.go:%d related %v, want line 20 with the returns at 23 and 26 related", p.Line, also)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d findings in grouped.go, want 1", n)
	}
}
