package rebootpool

import "testing"

// TestRebootDefaultPool fails only after an earlier run of it in the same
// process released the default pool, and then only when Reboot's worker
// counts itself before Reboot resets the count.
func TestRebootDefaultPool(t *testing.T) {
	defer Release()
	Reboot()
	if n := Running(); n != 1 {
		t.Fatalf("%d workers running after Reboot, want 1", n)
	}
}
