package racetags_test

import (
	"testing"

	"example.com/buildfiles/racetags"
)

// TestExternal is in every build; it puts the driver in the external test
// package, which refers to the internal tests as racetags.TestXxx.
func TestExternal(t *testing.T) {
	if racetags.Twice(2) != 4 {
		t.Fatal("Twice(2) != 4")
	}
}
