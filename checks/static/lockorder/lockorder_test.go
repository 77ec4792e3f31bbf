package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/lockorder"
)

func TestLockorder(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, "bad", "good", "orderdep", "crosspkg", "dynamic", "dyndep", "dynuse", "customlock")
}

// TestInstance checks IL2102 on one object's locks and its silent
// look-alikes (two instances, constructors, tests, read locks).
func TestInstance(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockorder.InstanceAnalyzer, "instance")
	passtest.CheckDiagnostics(t, results, "IL2102")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, lockorder.Analyzer) }

// TestDeterministic checks that a path through an interface call with
// several implementations names the same one on every run: the call
// graph's nodes are a map, and unsorted, the first of eight callees was
// a different one from run to run.
func TestDeterministic(t *testing.T) {
	for range 4 {
		analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, "dynorder")
		if t.Failed() {
			break
		}
	}
}
