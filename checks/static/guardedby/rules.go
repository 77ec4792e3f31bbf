package guardedby

import (
	"strconv"

	"github.com/interleave-dev/interleave/checks"
)

// The rule IDs guardedby reports, set as Diagnostic.Category.
const (
	RuleUnguardedField             = "IL1001" // inferred guard (opt-in)
	RuleLockedHelperWithoutLock    = "IL1002"
	RuleDocumentedGuardViolated    = "IL1004" // documented guard, with goroutine evidence
	RuleDocumentedGuardUnproven    = "IL1006" // IL1004 without goroutine evidence (opt-in)
	RuleUnguardedFieldConcurrent   = "IL1007" // IL1001 with goroutine evidence and a weaker majority (opt-in)
	RuleForbiddenLockHeld          = "IL1005"
	RuleDoubleCheckedLocking       = "IL1003" // opt-in
	RuleThreadsafeInconsistentLock = "IL5003"
)

// Rules are the rules guardedby reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleUnguardedField, Slug: "unguarded-field", Title: "Field accessed without the mutex that guards it elsewhere", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "The field has no lock documentation, but a sibling mutex is held at most of its accesses (at least " + strconv.Itoa(minLocked) + " and " + percent(inferredThreshold) + " of the accesses outside constructors, not counting accesses under another lock, and it is written after construction) in a type whose values reach more than one goroutine (exported, documented thread-safe, or handed to a go statement or callback), and not at this one. A concurrent caller can race with the locked accesses. Take the lock here, or document why the value is not shared yet. Opt-in: on grpc and nats-server almost every report was a field whose lock the caller holds (through an alias the pass cannot follow), a field written only from serialized callbacks, or a pointer set once; see docs/precision.md. Documented guards are IL1004."},
	{ID: RuleLockedHelperWithoutLock, Slug: "locked-helper-without-lock", Title: "Locked helper called without its lock", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
		Text: "Methods named `*Locked`, or documented as requiring the lock, assume the caller holds it. This call site does not."},
	{ID: RuleDocumentedGuardViolated, Slug: "documented-guard-violated", Title: "Field accessed without the lock its documentation names, from two goroutines", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
		Text: "The struct documents which mutex guards this field: on the field (`// guarded by mu`, `+checklocks:mu`), on the mutex for the fields after it up to a blank line or the next mutex (\"mu protects the fields below\", \"guards the following\"), on the first field of such a group (\"The following are protected by mu\"), or on the mutex naming it (\"fooLock protects 'foo'\"). This access holds neither that mutex nor an alias of it; a lock of another struct does not count. Reported only with goroutine evidence (RacerD's concurrency context): the access is in an exported function or a goroutine body, and a conflicting access (one of the two writes) runs on a goroutine the package starts (go statement, time.AfterFunc, WaitGroup.Go, errgroup, a package function that starts its func argument) or, for a type documented as safe for concurrent use, in another exported function. Take the lock, or fix the comment. One finding per field, lock and rule (here and in IL1001, IL1006, IL1007): the other accesses are its related positions. Not reported: constructors, tests, fresh values, helpers (their callers may hold the lock), functions documented as called with the lock held or with a call order, //go:norace functions, goroutines started under the lock and awaited holding it (also workers started in a loop and awaited after it: their accesses count as holding the lock). Without goroutine evidence the access is IL1006 (opt-in). See docs/precision.md."},
	{ID: RuleDocumentedGuardUnproven, Slug: "documented-guard-unproven", Title: "Field accessed without its documented lock, no goroutine evidence", Severity: checks.Warning, Level: checks.OptIn, Since: "0.3",
		Text: "IL1004 without its concurrency context: the access holds no lock its documentation names, but the pass found no second goroutine that reaches the field (no go statement, time.AfterFunc or other goroutine-starting call reaches a conflicting access, and the type claims no thread safety). Such reports were mostly accesses serialized by a contract documented elsewhere (balancer callbacks, call orders); see docs/precision.md."},
	{ID: RuleUnguardedFieldConcurrent, Slug: "unguarded-field-concurrent", Title: "Field accessed without the mutex held at most of its accesses, from two goroutines", Severity: checks.Warning, Level: checks.OptIn, Since: "0.3",
		Text: "IL1001 with a concurrency context: a sibling mutex is held at least twice and at half of the field's accesses, not here, and one of this access and a conflicting one (one of them writes) runs on a goroutine the package starts (go statement, time.AfterFunc, WaitGroup.Go, errgroup, a function of the package that starts its func argument) while the other is reached from an exported function or another goroutine, or the type claims thread safety. See docs/precision.md."},
	{ID: RuleForbiddenLockHeld, Slug: "forbidden-lock-held", Title: "Method documented as called without a lock is called holding it", Severity: checks.Warning, Level: checks.OptIn, Since: "0.2",
		Text: "The method's documentation says it must be called without the receiver's mutex held (\"must not be called with c.mu held\", \"must be called without holding mu\", \"mu must not be held\"; a sentence that goes on \"when calling handleStarted\", naming another function, is about that one): it takes the lock itself, or blocks on something that needs it. This call holds that mutex on every path, so it deadlocks or breaks the method's contract. Release the lock before the call. Not reported where the release may go through a helper the pass does not follow: a function handed a func (a *LockedOnEntry method given the unlock), or one that, before the call, calls an Unlock*/Release* method of an unlocker object or a func value a call returned. Opt-in since 2026-11-29: no finding of it was judged true on the held-out samples (0 of 6 distinct) and it found none of the real bugs of bench/staticbugs; see docs/precision.md."},
	{ID: RuleDoubleCheckedLocking, Slug: "double-checked-locking", Title: "Double-checked locking on a plain field", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "The field is read without the lock, then checked again and written under it. The unlocked read races with the write. Use sync.Once, sync.OnceValue or an atomic. Opt-in: on real code the unlocked read was almost always confined to one goroutine (a read loop, a serialized callback) or made with the lock held by the caller; see docs/precision.md."},
	{ID: RuleThreadsafeInconsistentLock, Slug: "threadsafe-inconsistent-lock", Title: "Type documented as safe for concurrent use accesses a field with and without its mutex", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
		Text: "The type promises safety for concurrent use (its doc says so, or `//interleave:threadsafe`), so any two exported methods may run at once. This exported method accesses the field on its receiver without any of the type's mutexes, while another place accesses it with the mutex held, and one of the two writes it: they race (CodeQL's P3 for Java, \"not synchronized with the same monitor\"). Take the mutex here, or make the field atomic. Both accesses are reported. One finding per defect: accesses without the same mutex that share a method or a field (directly or through other such accesses) are one finding, the others its related positions. Not reported: constructors, decoders into the receiver (UnmarshalJSON, FromProto), builder steps that return the receiver and that the package only chains on a constructor (NewT(x).SetLogger(l)), a read of a field set once (written only while nil) after the method saw it non-nil under the lock, a read-out that first seals the value (t.finalized = true) when every other writer of the field leaves once sealed (if t.finalized { panic(…) }), tests, methods documented as for use before the value is shared, fields only accessed atomically."},
}

// percent writes a threshold as the rule texts do: 0.75 is "75%".
func percent(f float64) string { return strconv.Itoa(int(f*100+0.5)) + "%" }
