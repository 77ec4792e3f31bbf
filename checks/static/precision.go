package static

import (
	"strings"

	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/checkact"
	"github.com/interleave-dev/interleave/checks/static/guardedby"
	"github.com/interleave-dev/interleave/checks/static/lockblock"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
	"github.com/interleave-dev/interleave/checks/static/threadsafe"
)

// Measured is a rule's precision on a held-out sample: of Of findings an
// independent reader judged, True were true.
type Measured struct {
	True, Of int
}

// Held-out precision of the default rules: default findings on untuned
// real modules, judged by readers who did not write the rules, duplicates
// counted once — the sample of issue 24 (32 of 52 true) plus the sample of
// 2026-11-29 (bench/precision/sample-2026-11-29/TRIAGE.md, 7 of 27) plus
// the sample 2026-11-29b (bench/precision/sample-2026-11-29b/TRIAGE.md,
// 2 of 6) plus the sample 2026-11-29c (bench/precision/sample-2026-11-29c/
// TRIAGE.md, 3 of 6) plus the sample 2026-11-29d (bench/precision/
// sample-2026-11-29d/TRIAGE.md, 2 of 6) plus the sample 2026-11-29e
// (bench/precision/sample-2026-11-29e/TRIAGE.md, 6 of 10) plus the sample
// 2026-11-29f (bench/precision/sample-2026-11-29f/TRIAGE.md, 1 of 5) plus
// the sample 2026-11-30a (bench/precision/sample-2026-11-30a/TRIAGE.md,
// 0 of 1) plus the sample 2026-11-30b (bench/precision/sample-2026-11-30b/
// TRIAGE.md, 13 of 19) plus the sample 2026-11-30c (bench/precision/
// sample-2026-11-30c/TRIAGE.md, 4 of 10) plus the sample 2026-11-30d
// (bench/precision/sample-2026-11-30d/TRIAGE.md, 0 of 2) plus the sample
// 2026-11-30e (bench/precision/sample-2026-11-30e/TRIAGE.md, 2 of 4) plus
// the sample 2026-11-30h (bench/precision/sample-2026-11-30h/TRIAGE.md,
// 0 of 2) plus the sample 2026-12-01 (bench/precision/sample-2026-12-01/
// TRIAGE.md, rows 1-17: 2 of 5 distinct: IL1009 1 of 2, IL6002 0 of 2,
// IL5002 1 of 1; rows 18-30: 4 of 4 distinct: IL1008 3 of 3, IL1009 1 of 1).
// Then the samples 2026-12-01b, -01c, -01d, -02 (rows 1-23), -02b (none),
// -02c, -02d and -02e (their TRIAGE.md files; docs/precision.md, branches
// sample29 to sample33): IL1008 7 of 7 distinct, IL1009 3 of 3, IL2001
// 1 of 1, IL2004 0 of 1, IL3002 1 of 2, IL4003 0 of 1. Then 2026-12-02f and
// -02g (branch sample34): IL1008 5 of 7 distinct, IL1009 1 of 1, IL2001 1 of
// 1, IL2003 1 of 1, IL3002 1 of 1, IL5002 1 of 1, IL5003 3 of 3; -02g's rows
// 32-74 (branch sample34b): IL1008 2 of 2, IL1009 1 of 2, IL2001 2 of 2,
// IL2002 1 of 1, IL3002 0 of 1; 2026-12-02h (branch sample35): IL1002 0 of
// 1, IL1004 0 of 1, IL1008 3 of 8, IL1009 1 of 4, IL2001 2 of 2, IL2002 4 of
// 4, IL2003 0 of 1, IL3002 0 of 1, IL4003 0 of 1, IL6002 1 of 1;
// 2026-12-02i (branch sample36, Debian's packages): IL1008 0 of 1, IL5003
// 1 of 1.
// IL1008 and IL1009 (default since the twenty-first session) carry their
// independent figures while opt-in: 2026-11-30e (IL1008 2 of 3),
// 2026-11-30g (IL1009 2 of 2), none on 30h and 30i.
// IL1005 and IL5001 were measured while default and are opt-in since (no
// true finding); their figures stay as the reason. This
// table is the only place these figures live; the rule table in
// docs/rules.md repeats them and a test keeps the two the same.
var Precision = map[string]Measured{
	guardedby.RuleLockedHelperWithoutLock:    {0, 4},
	guardedby.RuleUnguardedReadEntry:         {22, 31}, // samples 2026-11-30e, 2026-12-01 to -02i; 30g-30i had none
	guardedby.RuleUnguardedReadShared:        {10, 15}, // samples 2026-11-30g, 2026-12-01 to -02h
	guardedby.RuleDocumentedGuardViolated:    {3, 10},
	guardedby.RuleForbiddenLockHeld:          {0, 6},
	guardedby.RuleThreadsafeInconsistentLock: {7, 14},
	rlockwrite.RuleWriteUnderRLock:           {22, 30},
	lockpair.RuleLockHeldAtReturn:            {33, 38},
	lockpair.RuleDoubleLock:                  {5, 11},
	lockpair.RuleUnlockNotHeld:               {0, 2},
	lockpair.RuleUnlockMismatch:              {1, 1},
	atomicmix.RulePlainWriteOfAtomic:         {13, 34},
	checkact.RuleSplitCriticalSection:        {5, 19},
	threadsafe.RuleThreadsafeExportedField:   {0, 5},
	threadsafe.RuleThreadsafeLeakedState:     {3, 3},
	lockblock.RuleLockChannelCycle:           {1, 5},
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
