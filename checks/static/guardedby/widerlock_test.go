package guardedby_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/guardedby"
)

// TestWiderLock: a write without the documented mu in a function every
// caller of which holds the device-wide dispatch lock is silent against
// a reader that holds that lock's read side, and reported against one
// that does not (go-fuse vhostuser's shape; issue 24 item 1); in a
// package that is not internal the exported method's callers are unknown
// and both writes are reported.
func TestWiderLock(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "widerlock/internal/ring", "widerlockpub")
}
