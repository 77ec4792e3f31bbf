package lockpair_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/lockpair"
)

func TestLockpair(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockpair.Analyzer, "bad", "good", "crossdep", "crosspkg", "loopvar")
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
