// Package static lists interleave's static thread-safety passes, the stable
// rule IDs they report, and runs them over loaded packages.
//
// Rule ID families (IDs are never reused):
//
//	IL0xxx  the tool itself (suppression directives)
//	IL1xxx  guarded-by: fields accessed with and without their mutex
//	IL2xxx  lock discipline: RLock writes, pairing, lock order
//	IL3xxx  atomics mixed with plain access
//	IL4xxx  check-then-act
//	IL5xxx  types that claim to be safe for concurrent use
//	IL6xxx  blocking and WaitGroup misuse
//	IL9xxx  dynamic failures (registered by package checks)
package static

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/waitgroup"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/static/atomicmix"
	"github.com/interleave-dev/interleave/checks/static/checkact"
	"github.com/interleave-dev/interleave/checks/static/guardedby"
	"github.com/interleave-dev/interleave/checks/static/lockblock"
	"github.com/interleave-dev/interleave/checks/static/lockorder"
	"github.com/interleave-dev/interleave/checks/static/lockpair"
	"github.com/interleave-dev/interleave/checks/static/rlockwrite"
	"github.com/interleave-dev/interleave/checks/static/threadsafe"
)

// Pass is one analyzer and the rules it reports. A pass that reports more
// than one rule sets Diagnostic.Category to the rule ID; a diagnostic with
// no category belongs to the pass's first rule.
type Pass struct {
	Analyzer *analysis.Analyzer
	Rules    []checks.Rule
}

// Directive rules are reported by the runner, not by a pass.
var Directive = []checks.Rule{
	{ID: "IL0001", Slug: "malformed-directive", Title: "Malformed interleave directive", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
		Text: "An `//interleave:ignore` directive must name one or more rule IDs and give a reason: `//interleave:ignore IL1001 only called before the value is shared`."},
	{ID: "IL0002", Slug: "unused-directive", Title: "Suppression that matched nothing", Severity: checks.Note, Level: checks.Default, Since: "0.1",
		Text: "An `//interleave:ignore` directive suppressed no finding; remove it so it does not hide a future one."},
}

// Passes is the suite, in the order passes run. interleave check and
// interleave-vet both run exactly this list.
var Passes = []Pass{
	{guardedby.Analyzer, []checks.Rule{
		{ID: "IL1001", Slug: "unguarded-field", Title: "Field accessed without the mutex that guards it elsewhere", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "The field has no lock documentation, but a sibling mutex is held at most of its accesses (at least 2 and 75% of the accesses outside constructors, not counting accesses under another lock, and it is written after construction) in a type whose values reach more than one goroutine (exported, documented thread-safe, or handed to a go statement or callback), and not at this one. A concurrent caller can race with the locked accesses. Take the lock here, or document why the value is not shared yet. Opt-in: on grpc and nats-server almost every report was a field whose lock the caller holds (through an alias the pass cannot follow), a field written only from serialized callbacks, or a pointer set once; see docs/precision.md. Documented guards are IL1004."},
		{ID: "IL1002", Slug: "locked-helper-without-lock", Title: "Locked helper called without its lock", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
			Text: "Methods named `*Locked`, or documented as requiring the lock, assume the caller holds it. This call site does not."},
		{ID: "IL1004", Slug: "documented-guard-violated", Title: "Field accessed without the lock its documentation names, from two goroutines", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
			Text: "The struct documents which mutex guards this field: on the field (`// guarded by mu`, `+checklocks:mu`), on the mutex for the fields after it up to a blank line or the next mutex (\"mu protects the fields below\", \"guards the following\"), on the first field of such a group (\"The following are protected by mu\"), or on the mutex naming it (\"fooLock protects 'foo'\"). This access holds neither that mutex nor an alias of it; a lock of another struct does not count. Reported only with goroutine evidence (RacerD's concurrency context): the access is in an exported function or a goroutine body, and a conflicting access (one of the two writes) runs on a goroutine the package starts (go statement, time.AfterFunc, WaitGroup.Go, errgroup, a package function that starts its func argument) or, for a type documented as safe for concurrent use, in another exported function. Take the lock, or fix the comment. One finding per field, lock and rule (here and in IL1001, IL1006, IL1007): the other accesses are its related positions. Not reported: constructors, tests, fresh values, helpers (their callers may hold the lock), functions documented as called with the lock held or with a call order, //go:norace functions, goroutines started under the lock and awaited holding it. Without goroutine evidence the access is IL1006 (opt-in). See docs/precision.md."},
		{ID: "IL1006", Slug: "documented-guard-unproven", Title: "Field accessed without its documented lock, no goroutine evidence", Severity: checks.Warning, Level: checks.OptIn, Since: "0.3",
			Text: "IL1004 without its concurrency context: the access holds no lock its documentation names, but the pass found no second goroutine that reaches the field (no go statement, time.AfterFunc or other goroutine-starting call reaches a conflicting access, and the type claims no thread safety). Such reports were mostly accesses serialized by a contract documented elsewhere (balancer callbacks, call orders); see docs/precision.md."},
		{ID: "IL1007", Slug: "unguarded-field-concurrent", Title: "Field accessed without the mutex held at most of its accesses, from two goroutines", Severity: checks.Warning, Level: checks.OptIn, Since: "0.3",
			Text: "IL1001 with a concurrency context: a sibling mutex is held at least twice and at half of the field's accesses, not here, and one of this access and a conflicting one (one of them writes) runs on a goroutine the package starts (go statement, time.AfterFunc, WaitGroup.Go, errgroup, a function of the package that starts its func argument) while the other is reached from an exported function or another goroutine, or the type claims thread safety. See docs/precision.md."},
		{ID: "IL1005", Slug: "forbidden-lock-held", Title: "Method documented as called without a lock is called holding it", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
			Text: "The method's documentation says it must be called without the receiver's mutex held (\"must not be called with c.mu held\", \"must be called without holding mu\", \"mu must not be held\"): it takes the lock itself, or blocks on something that needs it. This call holds that mutex on every path, so it deadlocks or breaks the method's contract. Release the lock before the call. Not reported where the release may go through a helper the pass does not follow: a function handed a func (a *LockedOnEntry method given the unlock), or one that, before the call, calls an Unlock*/Release* method of an unlocker object or a func value a call returned."},
		{ID: "IL1003", Slug: "double-checked-locking", Title: "Double-checked locking on a plain field", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "The field is read without the lock, then checked again and written under it. The unlocked read races with the write. Use sync.Once, sync.OnceValue or an atomic. Opt-in: on real code the unlocked read was almost always confined to one goroutine (a read loop, a serialized callback) or made with the lock held by the caller; see docs/precision.md."},
		{ID: "IL5003", Slug: "threadsafe-inconsistent-lock", Title: "Type documented as safe for concurrent use accesses a field with and without its mutex", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
			Text: "The type promises safety for concurrent use (its doc says so, or `//interleave:threadsafe`), so any two exported methods may run at once. This exported method accesses the field on its receiver without any of the type's mutexes, while another place accesses it with the mutex held, and one of the two writes it: they race (CodeQL's P3 for Java, \"not synchronized with the same monitor\"). Take the mutex here, or make the field atomic. Both accesses are reported. Not reported: constructors, tests, methods documented as for use before the value is shared, fields only accessed atomically."},
	}},
	{rlockwrite.Analyzer, []checks.Rule{
		{ID: "IL2001", Slug: "write-under-rlock", Title: "Write while holding only a read lock", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "RLock lets other readers in at the same time. A write here (assignment, map update, delete, increment, append, element store, write through a pointer) races with them. Reported when the RWMutex guards the location: it is annotated so, written under the write lock elsewhere, or the RWMutex is unexported and never write-locked in the package (only ever read-locked, so it protects no write) with no other lock held exclusively. One finding per location and lock: the other writes to it under that read lock are its related positions. Take the write lock."},
	}},
	{lockpair.Analyzer, []checks.Rule{
		{ID: "IL2002", Slug: "lock-held-at-return", Title: "Lock still held when the function returns", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "A return keeps a lock that the function's other returns release, and no deferred unlock covers it. The next Lock deadlocks. Release it on every path, ideally with `defer`. One finding per function and lock: the other returns that keep it are its related positions. Functions that return holding the lock by contract (named lock*/acquire*, documented so, returning the unlock func, or telling the caller through a bool or error result) are not reported. Panicking paths count only with the pass's -panics flag. A lock of a loop variable (one mutex per element) left held by a `continue`, a `break` or the end of the loop body is reported at that statement when the function unlocks it on other paths and the element does not outlive the iteration."},
		{ID: "IL2003", Slug: "double-lock", Title: "Mutex locked twice", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "Go mutexes are not re-entrant: locking one that this goroutine already holds (directly or through a call that locks it) deadlocks."},
		{ID: "IL2004", Slug: "unlock-not-held", Title: "Unlock of a mutex that is not held", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "The function already released this mutex on this path (explicitly, or an explicit Unlock before a deferred one). Unlocking a mutex that is not locked is a fatal runtime error. An Unlock of a mutex the function never locks is the caller's and is not reported."},
		{ID: "IL2005", Slug: "unlock-mismatch", Title: "RUnlock of a write lock or Unlock of a read lock", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "The unlock does not match the lock: RLock must be released with RUnlock and Lock with Unlock."},
	}},
	{lockorder.Analyzer, []checks.Rule{
		{ID: "IL2101", Slug: "lock-order-inversion", Title: "Two locks acquired in opposite orders", Severity: checks.Error, Level: checks.OptIn, Since: "0.1",
			Text: "One path takes A then B, another takes B then A, directly or through calls (func values, interface methods and callbacks through a call graph of the package), in this package or one it imports. Two goroutines on those paths can deadlock. Pick one order. Locks are compared by class (the struct type and field, or the package variable); two instances of one class are not reported. Lock orders taken only in test files are not reported. Opt-in: locks are compared by class, so two instances of one type in different roles (a client being created and a registered one, a raft log store and a stream store) form cycles no run takes; 0 of 27 reports on yamux, etcd and nats-server were true. See docs/precision.md. The same-object case is IL2102."},
		{ID: "IL2102", Slug: "lock-order-inversion-same-object", Title: "Two locks of one object acquired in opposite orders", Severity: checks.Error, Level: checks.OptIn, Since: "0.2",
			Text: "Two locks reached from the same object (s.mu and s.sessMu, s.mu and s.log.mu) or two package-level mutexes are taken in both orders in this package's non-test code, directly or through static calls on that object (a method that locks s.log.mu, called with s.mu held). Two goroutines running the two paths on the same object deadlock. Unlike IL2101 this compares instances, not classes: locks of two different objects of one type (transfer(from, to)), a connection's lock taken while iterating a server's connections, orders taken while the value is still fresh (constructors) or in tests, read locks on both sides, paths that both hold a third lock of the object (a gate), calls whose callee drops the held lock first, locks a callee takes only under a bool parameter the call passes the other way (needLock=false), and functions that unlock through a closure called more than once are not reported. Pick one order. Opt-in: on ten modules, 1 of 7 first reports was true (yamux); after the fixes 1 true and 1 unresolved remain (nats-server consumer.go:2496), below the 90% bar; see docs/precision.md."},
	}},
	{atomicmix.Analyzer, []checks.Rule{
		{ID: "IL3001", Slug: "mixed-atomic-access", Title: "Field accessed both atomically and plainly", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "The field is updated with sync/atomic in one place and read or written plainly in another. The plain access races with the atomic one. Use atomic operations everywhere, or a typed atomic (atomic.Int64) so the compiler enforces it. Opt-in: a struct type embedded in several owners (one updates its counters atomically, another under a mutex) and accesses under a lock the caller holds are reported; see docs/precision.md. The precise case is IL3002."},
		{ID: "IL3002", Slug: "plain-write-of-atomic", Title: "Plain write of a field updated atomically through the same owner", Severity: checks.Warning, Level: checks.Default, Since: "0.2",
			Text: "The variable is written plainly (assignment, ++, --) outside constructors, init and tests, and this package accesses it with sync/atomic through the same owner path (the same struct type and field chain, or the same package variable), without a lock held at every atomic access. The atomic accesses say the value is shared between goroutines; the plain write races with them (the race detector reports it, and on some platforms a concurrent atomic can see a torn value). Use atomic.Store (or a typed atomic such as atomic.Int64). One finding per variable and owner path: the other plain writes are its related positions. Not reported: a write after WaitGroup.Wait in the same function (ordered), a write to a local copy (x := *p) or through a variable retargeted to a local value earlier in the function."},
	}},
	{checkact.Analyzer, []checks.Rule{
		{ID: "IL4001", Slug: "syncmap-check-then-act", Title: "sync.Map Load followed by Store of the same key", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "Another goroutine can store or delete the key between the Load and the Store or Delete that depends on it. Use LoadOrStore, LoadAndDelete, CompareAndSwap or CompareAndDelete, or hold one mutex around both. Opt-in: cache fills that store a value computed from the key alone and maps written by a single goroutine are reported; see docs/precision.md."},
		{ID: "IL4002", Slug: "atomic-check-then-act", Title: "Atomic Load followed by a dependent Store", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "The value can change between the Load and the Store, losing an update. Use CompareAndSwap in a loop, or Add. Opt-in: most reports on real code were flags set under a lock the caller holds, or a flag set to the value it was tested against; see docs/precision.md."},
		{ID: "IL4003", Slug: "split-critical-section", Title: "Value read in one critical section and written back in another", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
			Text: "The lock is released between reading the guarded value and writing a value computed from it, so a concurrent update in between is lost. Do the read and the write under one lock. Not reported: another lock held from the read to the write (it serializes the two), a lock released and re-taken on some paths only, a saved value restored unchanged, an owner re-checked before the write."},
	}},
	{threadsafe.Analyzer, []checks.Rule{
		{ID: "IL5001", Slug: "threadsafe-exported-field", Title: "Type documented as safe for concurrent use has an exported mutable field", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
			Text: "The field is written after construction, modified in place, or is a map, slice or pointer used in place (indexed, ranged over, dereferenced) under the type's mutex; callers can read and write it without that lock, so the documented guarantee does not hold. Unexport it and add methods that take the lock. Configuration fields set only while the value is built are not reported."},
		{ID: "IL5002", Slug: "threadsafe-leaked-state", Title: "Type documented as safe for concurrent use returns its guarded state", Severity: checks.Warning, Level: checks.Default, Since: "0.1",
			Text: "The method returns an internal map, slice or pointer that its mutex guards and that the type keeps modifying in place (a slice only appended to is not: the elements handed out never change). The caller then uses it without the lock. Return a copy (maps.Clone, slices.Clone), or replace the field wholesale instead of modifying it (copy-on-write)."},
	}},
	{lockblock.Analyzer, []checks.Rule{
		{ID: "IL6001", Slug: "blocking-under-lock", Title: "Blocking operation while holding a lock", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
			Text: "A channel send or receive (unbuffered or of unknown capacity), range over a channel, select without default, WaitGroup.Wait, Cond.Wait while holding a lock other than the Cond's own, or time.Sleep while holding a mutex stalls every goroutine waiting for it, and deadlocks if the other side needs the same lock. Release the lock first, or use select with default. Opt-in: holding a lock across a bounded wait (shutdown, a short timer, a buffered channel drained under the same lock) is usually deliberate; see docs/precision.md. The case that is a deadlock is IL6002."},
		{ID: "IL6002", Slug: "lock-channel-cycle", Title: "Wait under a lock that every partner needs", Severity: checks.Error, Level: checks.Default, Since: "0.2",
			Text: "A channel send (on a channel known to be unbuffered), a receive, a select whose every case is such an operation, or WaitGroup.Wait is made while holding lock L, and every operation that could end the wait (the receive for a send; the send or close for a receive; Done for Wait) holds L or takes L first in its function (a worker that locks L in its loop before reaching a deferred Done). Once the partner waits for L, the holder waits for the partner: a deadlock (Tu et al., ASPLOS'19: most Go blocking bugs mix channels and locks). Only channels and WaitGroups private to the package are considered (an unexported field or variable, never passed, returned or stored elsewhere, so every partner is visible), and the same instance on both sides (the lock's path relative to the channel's is the same, or the lock is a package-level variable); two read locks do not exclude each other; a goroutine that counts itself in (WaitGroup.Add) under L is not counted by a Wait that holds L. Release L before waiting, or do not take it on the partner's side."},
	}},
	{waitgroup.Analyzer, []checks.Rule{
		{ID: "IL6101", Slug: "waitgroup-add-in-goroutine", Title: "WaitGroup.Add called inside the goroutine it counts", Severity: checks.Error, Level: checks.Default, Since: "0.1",
			Text: "Wait may return before the goroutine runs Add. Call Add before the go statement, or use WaitGroup.Go. (This is go vet's waitgroup pass.)"},
	}},
}

// Analyzers returns the suite's analyzers in order.
func Analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(Passes))
	for i, p := range Passes {
		out[i] = p.Analyzer
	}
	return out
}

func init() {
	checks.Register(Directive...)
	for _, p := range Passes {
		checks.Register(p.Rules...)
	}
}
