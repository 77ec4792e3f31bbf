//go:build !unix

package realsuitetest

import "testing"

// lockMachine does nothing here: no flock.
func lockMachine(t *testing.T, name string) {}
