// Package racetags has test files that only some builds include: one for
// -race builds, one for builds without -race, one for the tag
// interleaveextra. The search, its driver and its plain go test runs must
// use exactly those the build includes.
package racetags

// Twice returns 2*n.
func Twice(n int) int { return 2 * n }
