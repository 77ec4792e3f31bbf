// What a target promises: its doc's claim, or the lock it holds.

package gen

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks/claim"
)

// Directive marks a type as safe for concurrent use without prose.
const Directive = claim.Directive

// claimOf is what a type report says of a target's claim.
func claimOf(t *Target) string {
	if t.Claim == "" && t.Guard == "" && t.Owns != "" {
		return "no claim; holds the unexported " + t.Owns + " a static candidate is in"
	}
	if t.Claim == "" {
		return "no claim; holds " + t.Guard
	}
	return t.Claim
}

// promise says why the target's failure is a bug, for a finding's message:
// "is documented as "thread-safe"", or the lock it holds.
func (t *Target) promise() string {
	if t.Claim == "" && t.Guard == "" && t.Owns != "" {
		return fmt.Sprintf("holds the unexported %s, in whose methods a static analysis found an unsynchronized access", t.Owns)
	}
	if t.Claim == "" {
		return fmt.Sprintf("claims nothing in its doc but holds %s (a lock says it is shared)", t.Guard)
	}
	return fmt.Sprintf("is documented as %q", t.Claim)
}
