//go:build interleaveextra
// +build interleaveextra

package racetags

import "testing"

// TestExtraOnly fails on every run, with or without interleave.
func TestExtraOnly(t *testing.T) {
	t.Fatal("extra: fails on every run")
}
