package lockpair

import "github.com/interleave-dev/interleave/checks"

// The rule IDs lockpair reports, set as Diagnostic.Category.
const (
	RuleLockHeldAtReturn = "IL2002"
	RuleDoubleLock       = "IL2003"
	RuleUnlockNotHeld    = "IL2004"
	RuleUnlockMismatch   = "IL2005"
)

// Rules are the rules lockpair reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleLockHeldAtReturn, Slug: "lock-held-at-return", Title: "Lock still held when the function returns", Severity: checks.Error, Level: checks.Default, Since: "0.1",
		Text: "A return keeps a lock that the function's other returns release, and no deferred unlock covers it. The next Lock deadlocks. Release it on every path, ideally with `defer`. One finding per function and lock: the other returns that keep it are its related positions. A lock handed to a callee that releases it on every path counts as released there (return c.finish(ctx), with finish unlocking first, also across packages). Functions that return holding the lock by contract (named lock*/acquire*, documented so, returning the unlock func, or telling the caller through a bool or error result) are not reported. Nor is a mutex used as a signal (as in IL2003): a callback or goroutine handed over unlocks it, so a per-call one-shot wait may end holding it and free it. Panicking paths count only with the pass's -panics flag. A lock of a loop variable (one mutex per element) left held by a `continue`, a `break` or the end of the loop body is reported at that statement when the function unlocks it on other paths and the element does not outlive the iteration."},
	{ID: RuleDoubleLock, Slug: "double-lock", Title: "Mutex locked twice", Severity: checks.Error, Level: checks.Default, Since: "0.1",
		Text: "Go mutexes are not re-entrant: locking one that this goroutine already holds (directly or through a call that locks it) deadlocks. One finding per function and held lock: the other places that lock it again are its related positions. A mutex used as a signal is not reported: its Unlock handed elsewhere as a method value, or a callback or goroutine of this package (handed over as a func value, also to C) unlocking it, or a field of its type, without locking it."},
	{ID: RuleUnlockNotHeld, Slug: "unlock-not-held", Title: "Unlock of a mutex that is not held", Severity: checks.Error, Level: checks.OptIn, Since: "0.1",
		Text: "The function already released this mutex on this path (explicitly, or an explicit Unlock before a deferred one). Unlocking a mutex that is not locked is a fatal runtime error. An Unlock of a mutex the function never locks is the caller's and is not reported. Opt-in since 2026-12-02: under half of its findings on untuned modules were true (docs/rules.md), and it finds no bug of the real-bug set (bench/staticbugs) by default; interleave pr still runs it as a candidate that a schedule must confirm."},
	{ID: RuleUnlockMismatch, Slug: "unlock-mismatch", Title: "RUnlock of a write lock or Unlock of a read lock", Severity: checks.Error, Level: checks.Default, Since: "0.1",
		Text: "The unlock does not match the lock: RLock must be released with RUnlock and Lock with Unlock."},
}
