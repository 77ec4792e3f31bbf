// Package defaults holds the defaults that interleave pr, interleave serve
// (the GitHub App) and the GitHub Action (action.yml) share, so the three
// behave the same unless told otherwise. internal/ghaction's tests check
// action.yml's input defaults against these.
package defaults

import "time"

const (
	// Budget is the wall time of the dynamic search of one pull request.
	Budget = 2 * time.Minute
	// FailOn is the lowest severity of a reported finding that fails the
	// run (exit 1, a failed check run).
	FailOn = "warning"
	// Scope selects the reported findings: those on changed lines, or
	// related to one.
	Scope = "changed"
	// Race builds the searched tests with the race detector, where cgo works.
	Race = true
)
