package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/lockorder"
)

func TestLockorder(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, "bad", "good", "orderdep", "crosspkg", "dynamic", "dyndep", "dynuse")
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, lockorder.Analyzer) }
