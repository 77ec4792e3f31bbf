// Package lockorder defines an Analyzer that reports pairs of locks
// acquired in opposite orders.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer lockorder
//
// lockorder: report locks acquired in opposite orders
//
// A goroutine that holds lock A and waits for B, and another that holds B
// and waits for A, deadlock. The pass records, for every acquisition, the
// locks held at that point on the path (from the lockpair state machine),
// and for every call made while holding a lock, the locks the callee may
// acquire, transitively (call chains up to 6 deep). It reports IL2101
// lock-order-inversion when one place acquires B while holding A and
// another acquires A while holding B, once per pair, with the second site
// in the diagnostic's related information and the call chain when the
// acquisition happens in a callee.
//
// IL2102 lock-order-inversion-same-object is the precise form: the two
// locks are reached from one object (s.mu and s.sessMu, or s.mu and
// s.log.mu, with the same root variable on both paths) or are two
// package-level mutexes, both orders are taken in non-test code outside
// constructors, directly or through static calls in the package on that
// object (a method locking its receiver's s.log.mu, called with s.mu
// held), the object is not fresh, and not both sides only read-lock. It
// uses lockblock's lock states (SSA, must analysis).
//
// Locks are compared by class: the field of a named struct type
// (bank.Account.mu, for a.mu where a is a *bank.Account), or a package
// variable (bank.registryMu). Locks with no class (a *sync.Mutex parameter,
// a local variable) take no part.
//
// Calls the syntax does not resolve are followed through a VTA call graph
// of the package (golang.org/x/tools/go/callgraph/vta): a func value kept
// in a field (h.onEvict(k)), an interface method (l.Notify(ev)) or a
// callback parameter (fn(e)) goes to the functions and types that flow
// there in this package's code. A value whose origin the package cannot
// see (the parameter of an exported function nobody here calls) goes
// nowhere: no guess. A call of a parameter (fn(e), l.Notify() on a
// parameter l) is followed per call site instead: the caller that passes
// a function literal to a function calling that parameter pairs the
// callee's locks with that literal's, not with every literal any caller
// passes (checkFor(t, f) in tests would otherwise reach them all).
//
// Works across packages: each exported function carries a fact listing the
// lock classes it may acquire and the func parameters it calls while
// holding a lock, and each package a fact listing the ordered pairs seen
// in it, so an inversion split between a package and one it imports is
// reported in the importing package, also when the dependency calls back
// a function literal the importing package passed to it.
//
// Not reported, for precision:
//   - two instances of one class (transfer(a, b) locking a.mu then b.mu of
//     the same type). Whether the order is consistent depends on the values
//     at run time, which a static pass cannot see; the dynamic search finds
//     the deadlocking schedule when tests exercise it.
//   - inversions where both uses of a lock are RLock: they deadlock only
//     with a third goroutine waiting to write.
//   - a lock held around a call whose callee (or a function it calls)
//     unlocks that caller's lock before going on (mu.Unlock(); cb();
//     mu.Lock()): what it acquires next is not taken under the lock.
//   - lock orders taken only in _test.go files: tests hold locks to
//     inspect state, and on nats-server most reported cycles had a test
//     on one side.
//   - locks taken by goroutines a path starts (go f()): the starting
//     goroutine does not wait for them.
//   - interface and func-value calls whose targets the package cannot see.
//
// WRONG:
//
//	func (s *Server) Handle() {
//		s.mu.Lock()
//		defer s.mu.Unlock()
//		s.db.commit() // locks s.db.mu while holding s.mu
//	}
//
//	func (d *DB) notify(s *Server) {
//		d.mu.Lock()
//		defer d.mu.Unlock()
//		s.mu.Lock() // s.mu while holding d.mu: the reverse order
//		s.dirty = true
//		s.mu.Unlock()
//	}
//
// RIGHT: take the two locks in one order everywhere (Server, then DB), or
// release d.mu before calling back into the Server.
package lockorder
