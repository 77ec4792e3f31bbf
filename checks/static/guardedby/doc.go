// Package guardedby defines an Analyzer that reports struct fields
// accessed without the mutex that guards them everywhere else.
//
// Its rules (IDs and texts) are in rules.go; the inference thresholds are
// declared in guardedby.go.
//
// # Analyzer guardedby
//
// guardedby: report fields accessed without the sibling mutex that guards them elsewhere
//
// For every struct type of the package that has a mutex field
// (sync.Mutex or sync.RWMutex, named or embedded, or a lock type of the
// module whose Lock and Unlock plainly take and release one:
// lockset.CustomLock, decided by internal/locktype), the analyzer computes
// the locks held at each access to the struct's other fields, using the
// SSA form of the package and a must-lockset analysis (Lock, RLock,
// deferred Unlock, TryLock, lock helpers, function literals run on the
// spot). An access is protected when the sibling mutex reached from the
// same base is held: c.count is protected by c.mu. An unexported helper
// whose every call site in the package holds the lock is analyzed as
// holding it too; a call passing false to a helper that starts with `if
// !locked { mu.Lock(); defer mu.Unlock() }` (locked a bool parameter)
// counts as holding mu, since the helper takes it itself.
//
// IL1004 documented-guard-violated. A field's guard is documented when
//   - the field says so: // guarded by mu, // protected by mu, or gVisor's
//     +checklocks:mu;
//   - the mutex says so for the fields after it, up to a blank line or
//     the next mutex: "mu protects all members below", "mutex guards the
//     following fields", "mu protects variables below";
//   - the first field of a group says so: "The following fields are
//     protected by mu." (or "Protected by mu:" alone);
//   - the mutex names it: "fooLock protects 'foo'", "mu guards a and b".
//
// A block does not cover fields of sync or sync/atomic types, nor fields
// whose own comment disclaims a guard (atomic, immutable, read-only, set
// once, guarded by another lock); a negated comment ("does not protect")
// documents nothing. Each access to the receiver's field (or to a field
// of a struct embedded in it: c.inMsgs for the embedded c.stats) that
// holds neither the documented mutex nor another mutex of the struct nor
// a lock of an enclosing object is reported, when the field is written
// after construction and, for block and name documentation, the mutex is
// held at one access to the documented fields. A lock of another struct
// does not stand in for the documented one:
//
//	field c.closed written without holding c.mu, which guards it by the comment on its block of fields
//
// Not reported: accesses through parameters other than the receiver or
// through pointer fields (their locking may be the caller's), accesses
// made before the function hands the value to a goroutine (set-up), and
// functions whose names put locking on the caller (unsafeFoo, fooNoLock,
// fooUnlocked) or documented as called with the lock held, //go:norace
// functions, and an access that a path reaches from the function's own
// Lock of the mutex without an Unlock (the analysis may have lost the
// lock there); an access after the Unlock is reported. Nor is a read in
// a goroutine literal of a field written only before its go statement,
// in the function that makes it, under a nil check of the field (set
// once, then published by the go statement). An unlocked write through a
// parameter or the receiver when every call of the function in the
// package passes a value its caller has not published yet (construction
// before publication, passutil.Publication) is IL1006, not IL1004, and
// does not count against an inferred guard.
//
// Concurrency context (RacerD's lesson). IL1004 is reported only with
// evidence that two goroutines reach the field: the access and a
// conflicting one (one of them writes; for two fields of an embedded
// struct, the same field) are in different functions, and one of them
// is reached, through static calls of the package, from a goroutine the
// package starts (a go statement, time.AfterFunc, sync.WaitGroup.Go,
// errgroup's Go, or a function of the package that runs its func
// argument in a go statement) while the other is reached from an
// exported function or from another such start; or the type claims
// safety for concurrent use and both are reached from exported
// functions. The message names the start:
//
//	field p.state read without holding p.mu, which guards it by the comment on its block of fields; loop runs on the goroutine started by the go statement at poller.go:20, State is reached from an exported function
//
// A conflicting access that holds a lock the access also holds, one of
// the two exclusively, is no evidence; when every conflicting access is
// so excluded, the access is not reported under any guard rule. The
// locks counted include those every caller holds (lockset's caller
// classes: named by mutex field, through calls that do not pass the
// lock's owner and pointer fields that point to one mutex field): a
// control message handled under a device-wide write lock does not race
// with a drain that holds its read lock, though neither holds the ring's
// own mu.
//
// Without that evidence the same access is IL1006
// documented-guard-unproven (opt-in), its message ending "(no second
// goroutine seen)": methods a framework calls one at a time (balancer
// callbacks) look like that.
//
// A goroutine registered with a WaitGroup field (started by s.wg.Go, or
// by a go statement after s.wg.Add whose function defers s.wg.Done()) is
// no evidence against an access that follows s.wg.Wait() of the same
// value on every path: close(s.stopCh); s.wg.Wait(); s.parts = nil runs
// after every such worker has returned. When every goroutine that
// reaches the field is joined so, the access is not reported under any
// guard rule (IL1001, IL1004, IL1006, IL1007); one started otherwise, or
// a write before the Wait, still is.
//
// IL1007 unguarded-field-concurrent. An inferred guard (below) with the
// concurrency context of IL1004: with that evidence a majority of one
// half (concurrentThreshold, still at least two locked accesses) is
// enough; the finding replaces IL1001's.
//
// IL1008 unguarded-read-entry (default; posted only when confirmed). The IL1001 finding (below) whose
// access is a read of an unexported field on the receiver of an exported
// method, when every write of the field holds the inferred guard: a
// locked writer and an unlocked reader any goroutine may call. Not for a
// method documented as for use before sharing, an Init/Start-like one, a
// type whose doc disclaims concurrent use or orders calls before the
// method ("must be called before the first call to Open"). Nor when the
// only locked writes set a value up before it is published: on a value
// the writing function created (also x, err := newX(), or a package
// function such as dial that returns only values it made and kept to
// itself), with nothing taking the value before the write but method
// values of methods that do not touch the field (Dial setting
// peerConn.outbox before returning the connection). It replaces IL1001's
// and IL1007's finding for that access. One test of "already shared"
// (sharedvalue.go) decides this and IL1009's confirming write. Neither
// for a read of a part of a struct-valued field that no access outside
// construction writes (it.op.collection, when only it.op.limit is
// written under the lock), nor, in any inferred-guard rule, for an
// exported method of an unexported type that only the package can call
// (never embedded, never converted to an interface with the method) and
// that it calls only on values not published yet (ringShards.Add in
// NewRing, before the heartbeat goroutine starts; setupOnly).
//
// IL1009 unguarded-read-shared (default; posted only when confirmed). The IL1008 finding confirmed:
// the reader implements a method of an interface its type implements
// (declared in the package or one it imports), one of the locked writes
// is on a value shared before it (the same test as IL1008's writes: not a
// value the writer created and has not published yet), the reading function calls no lock
// helper of the mutex (a function that locks it and never unlocks it:
// lockNodes(ns...)), and the reader is reachable (an exported method of
// an unexported type that the package never calls, embeds or converts to
// an interface with it is not). The rest stays IL1008 (sharedread.go).
//
// A read under a single-goroutine contract is no inferred-guard finding
// (IL1008, IL1009, IL1007, IL1001): the read is in a method implementing
// an interface of the package documented as not safe for concurrent use
// ("All calls … must be made from a single goroutine"), which the package
// converts the type (an unexported one) to, and every write of the field is in such a method
// or in an unexported function only they call (serial.go). A write in a
// callback handed elsewhere, a goroutine, or a method called from one
// still races with the read.
//
// IL1001 unguarded-field (opt-in). For fields without documentation,
// the guard is inferred: counting the accesses outside constructors and
// not under another lock, mu is held at least twice and at no smaller a
// share of them than inferredThreshold (the share IL1001's rule text
// states), and the field is written somewhere
// after construction, and the struct's values can reach more than one
// goroutine (RacerD's concurrency context: the type is exported, claims
// thread safety, or its values are handed to a go statement, used in a
// goroutine body or a callback, or its method values escape). Each access
// without mu is reported with the lock's name, the count, and one
// protected access as related information:
//
//	field c.count written without holding c.mu (held at 7 of 8 other accesses)
//
// A comment that says "not guarded by mu" is a disclaimer, not an
// annotation.
//
// IL5003 threadsafe-inconsistent-lock (default). For a struct type
// documented as safe for concurrent use (see package threadsafe) or
// marked //interleave:threadsafe, an exported method that accesses a field
// of its receiver without any of the type's mutexes, while another place
// accesses it with the mutex held, and one of the two writes it (a plain
// getter of a field written under the lock included): both positions are
// reported, once per defect: accesses lacking the same mutex that share
// a method or a field, directly or through other such accesses, are one
// finding (the others are related positions). Methods documented as for use before
// the value is shared or
// started are exempt, as are fields never written after construction,
// decoders into the receiver (UnmarshalJSON, FromProto: no accesses of
// theirs are counted, as for constructors) and builder steps that return
// the receiver and that the package only calls on a value being built
// (NewT(x).SetLogger(l)). Nor is a read of a field set once (every write
// runs only while it is nil: inside if x.f == nil, or after if … x.f !=
// nil … { return }) in a function that first tested it against nil under
// the lock and returns when it was (noop := t.scheduler == nil; unlock;
// if noop { return }; t.scheduler.Flush()); IL1001 skips it too. Nor
// is an access in a read-out that seals the value: a method that first
// sets a bool field of its receiver to true (t.finalized = true), when
// every other function writing the field leaves first once that flag is
// set (if t.finalized { panic(…) }, or return): the writers are declared
// done when it runs, the read-out after their join (IL1001 and IL1004
// skip it too). Nor is a read in a select case receiving from a channel
// field of the same receiver (case <-g.ready: return g.name) when every
// write of the field is followed, in its own statement list, by
// close(g.ready) with no return or branch between, and the channel is
// never sent on, nor assigned outside constructors and init, nor has its
// address taken: it is closed once, after every write, and the case runs
// after the close (closeorder.go; every guard rule skips it). A read
// after a blocking receive (<-g.ready; a select without default) is not
// counted at all (afterSync), whatever the channel's other uses.
//
// IL1002 locked-helper-without-lock. A method whose name ends in Locked
// (fooLocked, fooRLocked) on a struct with exactly one mutex (and no
// struct field carrying its own, and that does not lock that mutex
// itself, as in loadLocked(k, needLock bool)), or whose doc says "must be called with
// mu held", "mu must be held", "caller must hold mu", "assumes mu is
// locked" or carries +checklocks:mu, is analyzed as holding the lock.
// A negation in the same sentence voids the phrase: "must not be called
// with mu held" and "can not be called with c.mu held" are not
// requirements, nor is a permission ("Safe to call with r.mu held", "may
// be called with mu held"). A doc that names no lock ("Lock should be held", "Lock is
// assumed held", "called with the lock held") on a struct with a single
// mutex sets the entry state but is not enforced at call sites. A
// call made without it is reported in entry points (exported functions,
// goroutine bodies) and in functions that take the lock themselves; in
// other helpers the lock is the callers' business. One finding per
// function and lock: its other such calls are related positions. A call
// that releases the lock and takes it again before every return (a wait
// with the lock released, or an early return that leaves it) keeps it
// held for the calls after it. A helper that takes
// its receiver's mutex itself before releasing it, directly or through a
// method on the receiver (a getter that read-locks it), is no requirement
// at all: holding the lock would deadlock, so its doc means another
// instance's (the parent's, held by parent.AddRouter around
// child.setRouter(parent)); its accesses are skipped like an ambiguous
// fooLocked's.
//
// IL1005 forbidden-lock-held (opt-in). The reverse: a method documented as called
// without the receiver's mutex ("must not be called with c.mu held",
// "must be called without holding mu", "mu must not be held"; not when
// the sentence goes on to name another function, "… when calling
// handleStarted", the closure the method returns), called while that
// mutex is held on every path to the call:
//
//	call to c.flushOutbound while holding c.mu, which its documentation says must not be held
//
// A lock released through a helper is not followed, so IL1005 is silent
// in a function handed a func (a *LockedOnEntry method given the unlock)
// and after a call of an Unlock*/Release* method of an unlocker object or
// of a func value a call returned. The guard rules (IL1001, IL1004,
// IL1006, IL1007, IL1008, IL1009) report one finding per field, lock and
// rule, with the other accesses as related positions; and the findings
// of one rule in one function about fields the same lock guards are one
// finding (a String that reads three maps without p.mu: one missing
// Lock), the first by position, the other fields' accesses and their
// related positions its related positions.
//
// IL1003 double-checked-locking. A plain field read without the lock and
// tested, then read and written again under the lock in code dominated by
// the first read, is reported at the unlocked read. Use sync.Once,
// sync.OnceValue or an atomic instead.
//
// Not counted and not reported (precision before recall):
//   - accesses to values allocated in the same function (&T{}, new(T),
//     var t T, or the result of a NewT constructor of this package);
//   - accesses in init functions, in functions named newX or NewX, and in
//     _test.go files;
//   - fields of sync and sync/atomic types, and fields ever accessed
//     through sync/atomic functions (atomicmix covers those);
//   - accesses made while another, unrelated lock is held (it may be the
//     real guard), in function literals whose caller is unknown, and in
//     unexported functions whose callers are not all visible (method
//     values, interface calls) or that take some lock named only by a
//     Locked suffix;
//   - unlocked reads that follow a channel receive, a blocking select or
//     WaitGroup.Wait on every path (ordered by the channel, not the
//     lock), and unlocked reads of channel-typed fields;
//   - unannotated fields that are only read after construction, and
//     fields annotated "also guarded by".
//
// A goroutine literal whose starter holds a mutex at the go statement
// and still holds it, in the same critical section, at a wait that the
// go statement dominates or that every path from it passes (workers
// started in a loop and awaited after it with wg.Wait) runs under that
// mutex: its accesses count as holding it.
//
// # Examples
//
// WRONG:
//
//	func (c *Counter) Inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }
//	func (c *Counter) Get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }
//	func (c *Counter) Reset() { c.n = 0 } // field c.n written without holding c.mu
//
// RIGHT:
//
//	func (c *Counter) Reset() { c.mu.Lock(); c.n = 0; c.mu.Unlock() }
//
// WRONG:
//
//	func (c *Cache) get() *T {
//		if c.v == nil { // double-checked locking
//			c.mu.Lock()
//			if c.v == nil {
//				c.v = load()
//			}
//			c.mu.Unlock()
//		}
//		return c.v
//	}
//
// RIGHT:
//
//	func (c *Cache) get() *T { c.once.Do(func() { c.v = load() }); return c.v }
package guardedby
