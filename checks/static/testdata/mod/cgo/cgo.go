// Package cgo checks that positions in cgo files point at the file the user wrote.
package cgo

/*
static int one(void) { return 1; }
*/
import "C"

func mark() {}

// One calls C.
func One() int {
	mark()
	return int(C.one())
}
