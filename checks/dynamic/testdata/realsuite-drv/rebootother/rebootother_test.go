package rebootother

import "testing"

// TestReleaseDefaultPool leaves the default pool released.
func TestReleaseDefaultPool(t *testing.T) {
	Release()
	if n := Running(); n != 0 {
		t.Fatalf("%d workers running after Release, want 0", n)
	}
}

// TestRebootAfterRelease reboots the pool an earlier test released.
func TestRebootAfterRelease(t *testing.T) {
	Reboot()
	if n := Running(); n != 1 {
		t.Fatalf("%d workers running after Reboot, want 1", n)
	}
}
