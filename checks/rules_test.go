package checks

import (
	"fmt"
	"testing"
)

// The dynamic rule IDs are IL9001 on, in FailureKinds order: a new kind
// needs its constant, and the IDs of the others never change.
func TestDynamicRuleIDs(t *testing.T) {
	if len(dynamicRuleIDs) != len(FailureKinds) {
		t.Fatalf("%d dynamic rule IDs for %d failure kinds", len(dynamicRuleIDs), len(FailureKinds))
	}
	for i, k := range FailureKinds {
		if got, want := DynamicRuleID(k), fmt.Sprintf("IL9%03d", i+1); got != want {
			t.Errorf("DynamicRuleID(%s) = %s, want %s", k, got, want)
		}
	}
	if got := DynamicRuleID("no-such-kind"); got != "IL9000" {
		t.Errorf("DynamicRuleID of an unknown kind = %s, want IL9000", got)
	}
	for k, want := range map[FailureKind]string{Panic: "IL9001", Deadlock: "IL9003", Leak: "IL9004", DataRace: "IL9005"} {
		if got := DynamicRuleID(k); got != want {
			t.Errorf("DynamicRuleID(%s) = %s, want %s", k, got, want)
		}
	}
}
