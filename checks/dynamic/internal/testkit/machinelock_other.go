//go:build !unix

package testkit

import "testing"

// LockMachine does nothing here: no flock.
func LockMachine(t testing.TB, name string) {}
