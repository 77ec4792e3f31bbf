//go:build race
// +build race

package racetags

import "testing"

// TestRaceOnly fails on every run, with or without interleave.
func TestRaceOnly(t *testing.T) {
	t.Fatal("race: fails on every run")
}
