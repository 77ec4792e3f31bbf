//go:build !unix

package testbin

import "errors"

// canLock is false: without file locks two processes could take each
// other's slot, so Build builds directly.
const canLock = false

func tryLock(string) (func(), error) { return nil, errors.New("testbin: no file locks here") }
