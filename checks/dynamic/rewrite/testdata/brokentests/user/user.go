// Package user compiles but imports lib, which does not.
package user

import "example.com/brokentests/lib"

// Two returns two.
func Two() int { return lib.One() + 1 }
