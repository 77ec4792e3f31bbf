// Package native is a cgo package whose C header is not installed: it
// does not build, and interleave check leaves it out.
package native

/*
#include <interleave_no_such_header.h>
*/
import "C"

// Version is the C library's version.
func Version() int { return int(C.interleave_version()) }
