//go:build !race
// +build !race

package racetags

import "testing"

// TestNoRaceOnly fails on every run, with or without interleave.
func TestNoRaceOnly(t *testing.T) {
	t.Fatal("norace: fails on every run")
}
