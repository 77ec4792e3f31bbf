// Package guardedby defines an Analyzer that reports struct fields
// accessed without the mutex that guards them everywhere else.
//
// # Analyzer guardedby
//
// guardedby: report fields accessed without the sibling mutex that guards them elsewhere
//
// For every struct type of the package that has a mutex field
// (sync.Mutex or sync.RWMutex, named or embedded), the analyzer computes
// the locks held at each access to the struct's other fields, using the
// SSA form of the package and a must-lockset analysis (Lock, RLock,
// deferred Unlock, TryLock, lock helpers, function literals run on the
// spot). An access is protected when the sibling mutex reached from the
// same base is held: c.count is protected by c.mu. An unexported helper
// whose every call site in the package holds the lock is analyzed as
// holding it too.
//
// IL1001 unguarded-field. A field is guarded by mu when it is annotated
// (// guarded by mu, // protected by mu, or gVisor's +checklocks:mu) or
// when, counting the accesses outside constructors, mu is held at least
// twice and at no fewer than 75% of them (inferredThreshold) and the field
// is written somewhere after construction. Each access without mu is
// reported with the lock's name, the count, and one protected access as
// related information:
//
//	field c.count written without holding c.mu (held at 7 of 8 other accesses)
//
// A comment that says "not guarded by mu" is a disclaimer, not an
// annotation.
//
// IL1002 locked-helper-without-lock. A method whose name ends in Locked
// (fooLocked, fooRLocked) on a struct with exactly one mutex (and no
// struct field carrying its own, and that does not lock that mutex
// itself, as in loadLocked(k, needLock bool)), or whose doc says "must be called with
// mu held", "mu must be held", "caller must hold mu", "assumes mu is
// locked" or carries +checklocks:mu, is analyzed as holding the lock. A
// call made without it is reported in entry points (exported functions,
// goroutine bodies) and in functions that take the lock themselves; in
// other helpers the lock is the callers' business.
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
