//go:build !unix

package explore

import "testing"

// lockMachine does nothing here: no flock.
func lockMachine(t *testing.T, name string) {}
