// Package checkact defines an Analyzer that reports check-then-act
// sequences on shared state: a value is read, a decision or a new value is
// computed from it, and the result is written back in a separate step that
// another goroutine can interleave with.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer checkact
//
// checkact: report sync.Map, atomic and critical-section check-then-act sequences
//
// The analyzer reports three rules.
//
// IL4001 syncmap-check-then-act: a sync.Map Store or Delete of a key that
// follows a Load of the same map and key and depends on it (the Store runs
// on a branch decided by the Load, or stores a value computed from it),
// with no mutex held around both. Another goroutine can store the key in
// between. Use LoadOrStore, LoadAndDelete, CompareAndSwap or
// CompareAndDelete.
//
// IL4002 atomic-check-then-act: an atomic Store (atomic.StoreInt64(&n, v),
// x.Store(v) on a typed atomic) that depends on an atomic Load of the same
// variable, either through the stored value or through a condition. An
// update made between the Load and the Store is lost. Use CompareAndSwap
// in a loop, or Add. "Store if changed" (if x.Load() != v { x.Store(v) })
// loses nothing and is not reported.
//
// IL4003 split-critical-section: a guarded field or map entry is read under
// a mutex into a local, the mutex is released, and a later critical section
// of the same mutex writes the location from that local. An update made
// while the mutex was released is lost. A second section that reads the
// location again before writing it (re-validation, the double-checked
// "lock and recheck" idiom) is not reported, nor is a write that only runs
// on a branch decided by the earlier read but stores a value of its own
// (a cache fill: if !ok { mu.Lock(); s.m[k] = build(k); mu.Unlock() }),
// which is usually idempotent, nor one whose value reached it from the
// earlier read only as an argument of a call that returns an
// *http.Response (client.Do(req), http.Get, a wrapper of the package):
// the server's answer is not computed from the request here, so a
// location refilled from it (a token refresh that sends the refresh token
// it read and stores the token the endpoint issues) is not a
// read-modify-write; the old value carried by any other path (merged
// with the answer, computed from locally) still is; nor one that puts back an unmodified saved
// copy (saved := s.n ... s.n = saved: a rollback, or a test restoring
// state; also a clone, maps.Clone(s.m), slices.Clone or append(nil, s.x...),
// that is used for nothing else), nor a write in a function whose doc
// says its callers hold an exclusive lock other than this one ("MUST be
// called with the chain state lock held (for writes)", "during a
// database write transaction"): that lock serializes the sections. Nor one made after the second section re-checked the owner
// through a method and left if it changed (if c.isClosed() { return }).
// Nor one made after the second section re-checked a ticket and left if it
// changed (if d.pending != sess { return }), when every writer of the
// field writes the ticket in the same section (a commit clears or
// replaces it; against a local copy, a generation, it must step it:
// x.gen++); nor a once-only step: the write runs only while a field P
// of the same value is nil or false (if m.conn != nil { return }, or
// inside if m.conn == nil { … }), the same section sets P, and every
// other writer of the field outside constructors and Init tests P in its
// section (set: it runs after the step; unset: another once-only step),
// or tests set a field Q that is set only where P is tested set and P is
// never cleared (a staged update applied if len(m.pending) > 0).
// Nor is a write in a function that runs whole under a one-slot channel
// semaphore (c.sem <- x; defer func() { <-c.sem }()) that every writer of
// the field holds: nothing writes it between the sections. Nor one in an
// unexported function every call of which holds a wider mutex (a caller
// lockset: directly, or through its own callers, as handlers that each
// hold r.execMu for the whole call; a call in a function literal counts
// when the literal is handed to a function that runs it before returning,
// in this package or another, tracer.Capture(name, func() error { … }) or
// an interface method every implementation beside the interface runs
// that way), when every other writer of the
// unexported field (delete and clear included; constructors and Init
// aside) holds that mutex too, through its callers or its own Lock. Locks
// are matched by type and field (T.execMu), not by instance.
// Nor is a write whose field (unexported) has one writer after
// construction: both sections run in a function literal started by a go
// statement outside loops, in an unexported method run once per value
// (each call direct, outside loops and literals, on a local its caller
// made: s := T{…}; s.handleSignals()), and every other function writing
// the field is a constructor or Init method; that goroutine runs its
// sections in turn. Likewise when both sections are in an unexported
// method whose only callers are a starter run once per value (as above,
// or a Start method by contract), before its go statement, and the one
// goroutine body that starter starts (go s.poll(ctx), its only
// reference, outside loops), each call direct on the receiver: Start
// loads once, then the poller loads on each tick (growthbook's
// PollDataSource.loadData).
// Test files are not checked for IL4003: a test steps the state it drives
// through the versions it wants, as its only writer.
// One finding per function, mutex and earlier critical section: the
// other writes from values read in that section are related positions.
//
// For atomics, a Store reached only after an early exit counts as
// dependent when the exit tests the loaded value itself and returns
// (if p := x.Load(); p != nil { return p }); bounds tests and sanity
// checks that panic are not treated as decisions.
//
// Pairs made while a common mutex is held at both ends, functions named
// *Locked (their callers hold the lock), and keys or values that are not
// written alike are not reported. Lock state is tracked syntactically
// within one function: Lock/Unlock, deferred Unlock, TryLock guards and
// closures called where they are written.
//
// WRONG:
//
//	if _, ok := cache.Load(key); !ok {
//		cache.Store(key, build(key))
//	}
//
//	if !started.Load() {
//		started.Store(true)
//		go run()
//	}
//
//	mu.Lock()
//	n := s.n
//	mu.Unlock()
//	mu.Lock()
//	s.n = n + 1
//	mu.Unlock()
//
// RIGHT:
//
//	cache.LoadOrStore(key, build(key))
//
//	if started.CompareAndSwap(false, true) {
//		go run()
//	}
//
//	mu.Lock()
//	s.n++
//	mu.Unlock()
package checkact
