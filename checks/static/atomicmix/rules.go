package atomicmix

import "github.com/interleave-dev/interleave/checks"

// The rule IDs atomicmix reports, set as Diagnostic.Category.
const (
	RuleMixedAtomicAccess  = "IL3001" // opt-in; IL3002 is its precise form
	RulePlainWriteOfAtomic = "IL3002" // a plain write through the same owner path as an atomic access
)

// Rules are the rules atomicmix reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleMixedAtomicAccess, Slug: "mixed-atomic-access", Title: "Field accessed both atomically and plainly", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "The field is updated with sync/atomic in one place and read or written plainly in another. The plain access races with the atomic one. Use atomic operations everywhere, or a typed atomic (atomic.Int64) so the compiler enforces it. Opt-in: a struct type embedded in several owners (one updates its counters atomically, another under a mutex) and accesses under a lock the caller holds are reported; see docs/precision.md. The precise case is IL3002."},
	{ID: RulePlainWriteOfAtomic, Slug: "plain-write-of-atomic", Title: "Plain write of a field updated atomically through the same owner", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
		Text: "The variable is written plainly (assignment, ++, --) outside constructors, init and tests, and this package accesses it with sync/atomic through the same owner path (the same struct type and field chain, or the same package variable), without a lock held at every atomic access (a lock counts as held in an unexported function when every call of it holds it exclusively, and at an atomic access in a goroutine the lock holder starts and joins before it unlocks). The atomic accesses say the value is shared between goroutines; the plain write races with them (the race detector reports it, and on some platforms a concurrent atomic can see a torn value). Use atomic.Store (or a typed atomic such as atomic.Int64). One finding per variable and owner path: the other plain writes are its related positions. Not reported: a write after WaitGroup.Wait in the same function (ordered), a write before the value is published (built here or handed in by every caller, not yet stored, sent or passed on, and no goroutine started on it reaches the field: IL3001), a write in an unexported method that a method starting goroutines on the value (go s.loop()) calls on it before its first go statement (set-up, as in a constructor; also when another method calls it under the same if s.f == nil guard, the method setting s.f, before any go statement; calls in test files not counted), a write in a helper run only after this goroutine dropped the value's reference count to zero (if atomic.AddInt32(&x.refs, -1) == 0 { x.reset() }), a write to a local copy (x := *p) or through a variable retargeted to a local value earlier in the function, an unexported variable's initialization inside once.Do(func() { … }) when every other access of it in the package follows a Do of the same Once (s.once for s.n) in an enclosing block, the plain side of an immutable bool flag whose other side holds every atomic access (if m.shared { atomic.Store… } else { m.n = … }, the flag set only in composite literals and constructors). A write in a function documented as running while every other accessor is stopped (\"every execution but the caller is parked\", stop-the-world) or as not thread-safe is IL3001; calls in test files do not decide the locks its callers hold."},
}
