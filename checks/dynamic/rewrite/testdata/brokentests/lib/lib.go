// Package lib does not compile and has no tests; user imports it.
package lib

// One returns one.
func One() int { return "one" }
