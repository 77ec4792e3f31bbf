// Package measure is a test helper outside the test files that counts
// allocations, as a module's own test utilities do.
package measure

import "testing"

// Allocs is the allocations of one call of f, averaged over 100.
func Allocs(f func()) float64 {
	return testing.AllocsPerRun(100, f)
}
