package leakcheck

import (
	"testing"

	"go.uber.org/goleak"
)

// TestFindOnly: this file's only rewrite is the options added to goleak's
// check, so it must not import the runtime.
func TestFindOnly(t *testing.T) {
	if err := goleak.Find(); err != nil {
		t.Fatal(err)
	}
}
