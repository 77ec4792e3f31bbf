//go:build heavy

package main

import "testing"

// TestReproAssertionValuesOld: a log of the kernel's assertion in
// testify's format before v1.2 (values-old.log) is reproduced with its
// values. By default failurelog's TestTestifyValues checks that this
// format gives the signature of the format since v1.2 and matches the same
// messages, and TestReproAssertionValues reproduces that signature end to
// end (values-new.log), so this one is behind -tags heavy.
func TestReproAssertionValuesOld(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	reproValuesFound(t, "values-old.log")
}
