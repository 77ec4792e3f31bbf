// Package untested compiles and has no tests.
package untested

// Three returns three.
func Three() int { return 3 }
