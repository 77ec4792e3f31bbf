package static

import (
	"strings"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/checkact"
	"github.com/interleave-dev/interleave/checks/static/guardedby"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
)

// Measured is a rule's precision on a held-out sample: of Of findings an
// independent reader judged, True were true.
type Measured struct {
	True, Of int
}

// Held-out precision of the default rules: every default finding on
// untuned real modules, judged by a reader who did not write the rules
// (issue 24: 32 of 52 true). This table is the only place these figures
// live; the README's rule table repeats them and a test keeps the two the
// same.
var Precision = map[string]Measured{
	guardedby.RuleDocumentedGuardViolated: {0, 3},
	guardedby.RuleForbiddenLockHeld:       {0, 5},
	rlockwrite.RuleWriteUnderRLock:        {8, 11},
	lockpair.RuleLockHeldAtReturn:         {12, 12},
	lockpair.RuleDoubleLock:               {2, 2},
	atomicmix.RulePlainWriteOfAtomic:      {6, 11},
	checkact.RuleSplitCriticalSection:     {4, 8},
}

// The bar a rule's measured precision must clear for its findings to be
// posted on a pull request without a schedule confirming them.
const (
	PostPrecision = 0.9
	PostMinSample = 10
)

// PostedUnconfirmed reports whether a static finding of rule is posted as
// a review comment without confirmation: its measured precision is at
// least PostPrecision over at least PostMinSample findings. Rules of the
// tool itself (IL0xxx, suppression directives) are always posted.
func PostedUnconfirmed(rule string) bool {
	if strings.HasPrefix(rule, ToolFamily) {
		return true
	}
	m, ok := Precision[rule]
	return ok && m.Of >= PostMinSample && float64(m.True) >= PostPrecision*float64(m.Of)
}
