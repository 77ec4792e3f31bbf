// Package lockpair defines an Analyzer that checks that every Lock is
// paired with an Unlock on every path of a function.
//
// Its rules (IDs and texts) are in rules.go. The walk of one function is
// walk.go (blocks, branches, calls), with the lock operations in ops.go,
// returns and IL2002 in exits.go, and its diagnostics in report.go. The
// path state is state.go; loops.go handles locks of loop variables,
// enum.go switches over enums, signal.go unlocks handed to others, and
// facts.go the facts other packages' callers read.
//
// # Analyzer lockpair
//
// lockpair: check lock and unlock pairing on every path of a function
//
// The pass follows each function's paths through its SSA form with a lock
// state machine per path. A lock is named by its access path (s.mu,
// s.inner.mu, a package variable, an embedded s.Mutex). Deferred unlocks,
// deferred closures that unlock, TryLock in a condition, and calls to
// functions of this or another package that lock, keep or release a lock
// of their parameters (exported as facts) are understood. It reports:
//
//   - IL2002 lock-held-at-return: a return that keeps a lock which other
//     returns of the same function release. A function that keeps the lock
//     on every return is a lock helper and is not reported, nor is one
//     named lock*, acquire*, tryLock*, one documented as returning with the
//     lock held, one that returns a func (the unlock function), one whose
//     bool result says whether the lock is held, or one that keeps the lock
//     exactly on its nil-error returns (the lock goes with the value it
//     returns, as in a transaction constructor). Panicking paths count only
//     with -panics; log.Fatal-like calls, t.Fatal, t.FailNow, t.Skip
//     (also through testing.TB) and testify's require.NoError(t, err)
//     where err != nil holds end a path silently, and so does a call
//     through a package-level func variable of the package whose every
//     store outside its tests is a function that never returns and whose
//     address is not taken (var OsExit = os.Exit, klog's exit hook; an
//     exported function of another package is known not to return from
//     a fact this pass exports for it, since ctrlflow's is private, and
//     an exported hook carries the same fact for importers that call it,
//     klog.OsExit(1): a
//     hook that tests or importers may swap, documented as never
//     returning; a variable a setter stores a caller's func in, or first
//     holding a literal that returns, is followed past the call), and a
//     call of a function that ends every path in such a call (klog's
//     FlushAndExit; exported ones carry the fact too). One finding
//     per function and lock: the other exits that keep it are related
//     positions. Nor is a lock of a value the function made (new(T),
//     &T{}, a newX constructor) that never leaves it (not returned,
//     stored outside its own objects, sent, captured, or handed to a call
//     with a parameter or a global): once the function returns nothing
//     can lock it again.
//     Nor is a mutex used as a signal (below): a callback's m.wake()
//     unlocks m.Mutex, and a one-shot wait may end holding it and free it.
//     Nor is a session lock: a method takes it only where a field of its
//     receiver is nil, stores that field before every return that keeps
//     it, and another method of the type releases it, without taking it,
//     only where the field is not nil (cayley's quadWriter keeps the
//     store's writer lock while w.tx != nil; Close releases it then).
//     Locks of a loop variable (for _, s := range subs { s.mu.Lock() ... },
//     also through a helper: w.pause(); defer w.unpause()) are one lock
//     per iteration: a continue, a break or the end of the
//     body that leaves the element locked is reported there, when the
//     function unlocks that lock on another path and the element does not
//     outlive the iteration (stored, appended, kept in a variable the code
//     after the loop unlocks: found = s; break).
//   - IL2003 double-lock: Lock of a mutex already held on the path, directly
//     or through a call that locks it. RLock of a read-held RWMutex is not
//     reported: it deadlocks only with a writer in between. Nor is a second
//     Lock of a lock type of the module (lockset.CustomLock, whose Lock
//     and Unlock pair like a mutex's when no summary names the mutex it
//     wraps): it may be re-entrant.
//   - IL2004 unlock-not-held: Unlock of a mutex this function already
//     released on the path, including a deferred unlock after an explicit
//     one. An Unlock of a mutex the function never locked is the caller's
//     lock and is not reported.
//   - IL2005 unlock-mismatch: RUnlock of a write-held lock, Unlock of a
//     read-held one.
//
// Lock helpers are summarized per function: "acquires s.mu" (locks it on
// every returning path, so calling it with s.mu held deadlocks), "holds s.mu"
// (returns with it held) and "releases s.mu". Exported functions carry the
// summary as a fact for callers in other packages. A lock handed to a
// callee that releases it on every path is released at the call
// (return c.finish(ctx), finish unlocking first), also when the callee's
// receiver is captured by a closure, or a deferred closure of the callee
// takes the lock again for a critical section of its own: only what a
// function releases of its caller's locks is its summary's. A method of the object
// a helper returned that releases a lock of the same class releases the
// helper's lock (enc := newEncoder(c) locks c.encMu; defer enc.end()
// unlocks e.c.encMu).
//
// Not followed, so not reported (precision before recall): a function
// whose range-over-func loop body locks or unlocks (the body runs as the
// iterator's callback); a lock handed to a goroutine that releases it (go
// s.finishAndUnlock()); the releases before a call given a *testing.T or
// testing.TB (an assertion helper may end the test there); an Unlock
// repeated by the same call on a later loop iteration (n RLocks, then n
// RUnlocks); branches on a constant false, and the default of a switch
// (or if-else chain) that has ruled out every constant of its enum type;
// a mutex whose Unlock method value is handed elsewhere, or that a callback
// or goroutine unlocks through a function of this package (go func() {
// m.wake() }()): a signal another goroutine releases, a second Lock waits
// for it. So is a mutex field (by class: T.wait) that a function of this
// package handed over as a func value (a callback given to C through a
// uintptr, stored, passed, or started by go) unlocks without locking,
// itself or through package functions it calls; a callback that locks
// the field for a critical section of its own is no signal. A named closure that unlocks is
// followed when it is called directly, also when another closure captures it,
// and when a helper object keeps it in a field (unlock := NewCleanup(func()
// { m.mu.Unlock() }); defer unlock.Run(); …; unlock.Run()): a method that
// calls the field releases what the closure releases, if held here, and the
// deferred call does not release it again (such a Run runs the closure once).
//
// A lock reached through a variable that a loop reassigns (cur := s;
// cur.Lock(); for { next := cur.parent; cur.Unlock(); cur = next;
// cur.Lock() }) is followed across the loop's merge: what was locked as s
// or as next is what cur unlocks, when the merge is the only way that
// value goes on. So a hand-over-hand walk up a chain that releases the
// last lock is no lock helper, and one that returns mid-walk holding cur
// is reported.
//
// A function too large for the path walk (more than 64 lock states at one
// block) is skipped rather than approximated. Booleans are correlated
// across branches (if locked { mu.Unlock() }) only when branched on twice
// or set from constants (also across a loop's back edge: if !locked {
// mu.Lock(); locked = true }), so long functions stay tractable.
//
// WRONG:
//
//	func (c *Cache) Get(k string) (string, error) {
//		c.mu.Lock()
//		v, ok := c.m[k]
//		if !ok {
//			return "", errNotFound // c.mu still held
//		}
//		c.mu.Unlock()
//		return v, nil
//	}
//
// RIGHT:
//
//	func (c *Cache) Get(k string) (string, error) {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		v, ok := c.m[k]
//		if !ok {
//			return "", errNotFound
//		}
//		return v, nil
//	}
//
// WRONG:
//
//	func (c *Cache) Put(k, v string) {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		c.evict() // evict locks c.mu too: deadlock
//		c.m[k] = v
//	}
//
// RIGHT: split evict into an evictLocked helper that expects the lock held.
package lockpair
