// Package atomicmix defines an Analyzer that reports variables and struct
// fields that are accessed both through sync/atomic functions and plainly.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer atomicmix
//
// atomicmix: report plain reads and writes of a variable that is accessed with sync/atomic elsewhere
//
// A struct field or package-level variable whose address is passed to a
// sync/atomic function (atomic.AddInt64(&s.n, 1), atomic.LoadUint32(&x),
// atomic.CompareAndSwapPointer(&p, ...)) is shared between goroutines
// without a lock. Any plain read or write of the same variable races with
// the atomic operations. The analyzer reports each plain access and names
// one atomic access as related information.
//
// A plain write made through the same owner path as one of the package's
// atomic accesses (the same struct type and field chain, c.stats.sent for
// atomic.AddInt64(&c.stats.sent, 1) in a method of the same type, or the
// same package variable), outside tests and not after a WaitGroup.Wait,
// is IL3002 plain-write-of-atomic (default); every other report is IL3001
// mixed-atomic-access (opt-in). The owner path keeps a struct embedded in
// several owners, one counting atomically and another under its mutex,
// from pairing the second owner's writes with the first's atomics. A
// write is IL3001 too when its owner path is only ever Stored atomically,
// or when its struct type is documented as not safe for concurrent use
// ("It is NOT thread-safe"), or when its function's doc says it runs
// while every other accessor is stopped ("every execution but the
// caller is parked", "all other threads are stopped", "stop-the-world").
// IL3002 also needs evidence that the write runs beside the atomics: a
// lock-free reader of the owner path (Load, Swap, CompareAndSwap, or an
// Add whose result is used), or an atomic access of it in the writing function itself. Atomic adds alone, in
// other methods, only show adders running beside each other (a type
// merged atomically by aggregators and filled plainly from a response).
// Nor is the atomic update evidence when its struct type is not built for
// concurrent use: no lock, typed atomic, channel or other atomically
// accessed field, and both the writing function and every function
// updating the field atomically (or every caller of a helper that only
// updates it) write other fields of the type plainly: run side by side
// they would race on those anyway (a handshake state's nonce counter,
// bumped with atomic.AddUint32 by Encrypt and reset by MixIntoKey);
// such a write is IL3001.
// So is a reset a function makes before its first go statement (outside
// loops and literals) when it joins every goroutine it starts before any
// later return (a literal's deferred wg.Done() and a later wg.Wait(), or
// a deferred send on an unbuffered local channel the started function
// only receives from to return) and every atomic access of the field
// runs in those goroutines, in the function itself, or in functions
// only they reach; the package never starts the function as a goroutine.
// Only two overlapping calls of it race, which would also mix one run's
// counts with another's (ScanLog zeroing its counters, starting the
// matchers that add to them and waiting for them).
// So is a write made before the value is published (passutil.Publication): its
// root is a local bound to a fresh allocation, or a parameter (receiver
// included, exported functions too) every call outside tests passes such
// a value, and nothing before the write hands it on: no store, send,
// capture by a literal not called on the spot, call of another package's
// function with it, nor call of the package's own with it unless that one
// keeps it too; a go statement on it counts only when the goroutine may
// reach an access of the field (a connection goroutine builds a client,
// starts its writer, parses the connect packet into it, then adds it to
// the client map). An interface method it is passed to is decided by the
// package's own implementations: one in another package (a hook) is
// trusted not to hand it back to a goroutine accessing the field.
// A fresh value stored before the write (s.clients[id] = cl; cl.n = 1) is
// shared, though the function started no goroutine.
// IL3002 is one finding per variable and owner path: the other plain
// writes are its related positions.
//
// Accesses that cannot race are not reported:
//   - accesses in init functions, package-level initializers, and
//     functions and methods named new*, New* or init* (constructors and
//     their helpers, run before the value is shared);
//   - accesses to a value allocated in the same function (&T{}, new(T),
//     var t T, or returned by a constructor newX()) before the function
//     starts a goroutine or stores the value: it is not shared yet, as in
//     a constructor;
//   - accesses in unexported methods only ever called on such a value,
//     or from constructors (db := &DB{}; db.recoverJournal()), or on the
//     receiver of a method that starts a goroutine on it (go s.loop())
//     before that method's first go statement (Open: s.load(), then
//     go s.mergerLoop()), or on the caller's receiver under if s.f == nil
//     before the caller's first go statement, when the method sets s.f
//     and such a starting call of it is guarded by the same field (an
//     OpenMeta that opens the store only while Open has not); calls in
//     test files are not counted (a test owns its value);
//   - accesses through a pointer parameter of an unexported function,
//     never reassigned, before the function's first go statement, when
//     every call (a direct call outside tests) passes a value its caller
//     is still setting up in that sense, or such a parameter of its own
//     (declarePublisher builds the producer, internalDeclarePublisher(
//     name, producer) sets its sequence before it is returned);
//   - writes through the parameter of a construction option: a
//     literal returned as, or a function never called directly whose
//     signature is, a named func type of the package that only
//     constructors apply, to the value they allocated, before their
//     first go statement (WithNoRetransmit(c *Client) for type
//     ClientOption func(c *Client));
//   - accesses in unexported functions run only once the value's
//     reference count was dropped to zero by this goroutine (if
//     atomic.AddInt32(&el.refs, -1) == 0 { freeLog(el) }, freeLog then
//     el.reset()): no other goroutine holds the value (call sites in
//     test files are not counted);
//   - reads after a sync.WaitGroup.Wait in the same function (outside
//     closures): the goroutines that updated the variable have finished;
//   - accesses to a copy (a struct received by value);
//   - a write of an unexported variable inside a function literal passed
//     to sync.Once's Do (a package-level Once for a package variable,
//     s.once for a field s.n), when every other access of it in the
//     package is inside such a literal or follows a statement calling Do
//     on the same Once in an enclosing block: Do returns only after the
//     literal ran (no goto, no &v other than sync/atomic operands, no
//     access outside functions, no base reassigned in its function);
//   - accesses on the other side of an immutable bool flag of the same
//     value than every atomic access (if m.Shared { atomic.StoreUint64(
//     &m.size, n) } else { m.size = n }, also after if m.Shared { …;
//     return }): the package sets the flag only in composite literals
//     and constructors, and no access's base is reassigned in its
//     function, so the two sides never touch the same value;
//   - unsafe.Sizeof, Offsetof and Alignof operands.
//
// A mutex orders a plain access with the atomic ones only when they take
// it too. A plain read is therefore not reported when the package has no
// atomic write of the variable (Store, Add, Swap, CompareAndSwap, And, Or;
// reads do not race with reads), or when a mutex held at the read is held
// at every atomic write. A plain write is not reported when a mutex it
// holds is held at every atomic access. Otherwise the lock does not help
// and the access is reported. Mutexes are matched by field path and type
// (s.mu in one method and c.mu in another are the same mutex when s and c
// have the same type), and lock state is tracked syntactically within a
// function. An unexported function whose every call is visible (never a
// func value, method value or interface method; not started by go or
// defer, nor called from a literal that may run elsewhere: one handed to
// a function that runs it before returning, in any package, runs here)
// starts with
// the mutexes every call holds exclusively on every path (a store-wide
// write lock its callers take around a helper); a read lock held by the
// callers does not count, nor do calls in test files (a test owns the
// value it calls a helper on). A plain write made under the write side of
// an RWMutex (Lock, not RLock) is ordered with atomic accesses that all
// hold that mutex in either mode, here or at every call of their function
// (readers that load under RLock, or through x := mu.RLocker(); x.Lock(),
// against a writer under Lock). For this ordering only, a call in the
// literal of a go statement holds the locks the literal takes before it
// (go func() { mu.RLock(); p.ParseUA(l); mu.RUnlock() }()), and an
// exported function counts as entered with the mutex when every call of
// it in the package (at least one) holds it and the function reads a
// field path another function of the package accesses under the mutex's
// write side (uap-go's ParseUserAgent ranges over the patterns
// checkAndSort sorts under Lock): a caller of another package that skips
// the mutex races on that state already, so the mutex is the function's
// contract. An exported adder that touches nothing else the mutex orders,
// or has no call in the package, or one call without it, is still
// reported. Like every pass (lockset.CustomLock), it
// takes the Lock, Unlock and RLocker methods of a type of the module
// whose Lock and Unlock plainly take and release a sync mutex of it (a
// field, every shard of a slice or array of such structs, as gopkg's
// per-P syncx.RWMutex, or another such type; decided by the method
// bodies, internal/locktype) for a mutex's. An atomic access in a goroutine that the
// starter joins right after starting it (go f(); wg.Wait(), a receive of
// what the goroutine sends last, or a loop that only starts and counts
// workers followed by the join) is made under the starter's locks: the
// starter holds them until the goroutine ends. Plain accesses in such a
// goroutine are not: its siblings run beside it. Accesses of one field through two struct-valued
// fields (x.first.seq, x.last.seq) are different memory: the locks of one
// do not decide the other, and a finding cites an atomic access of the
// same memory and owner path, a Load for a plain write, by preference one
// not ordered with it: holding none of its mutexes, not in a goroutine
// its function starts after it, not in a function that calls its
// function. Typed atomics
// (atomic.Int64, atomic.Pointer[T]) cannot be accessed plainly and need
// no check.
//
// Fields accessed atomically are exported as facts, so a plain access in an
// importing package is reported too.
//
// WRONG:
//
//	type Stats struct{ hits int64 }
//
//	func (s *Stats) Hit()          { atomic.AddInt64(&s.hits, 1) }
//	func (s *Stats) Hits() int64   { return s.hits } // plain read races with Hit
//
// RIGHT:
//
//	type Stats struct{ hits atomic.Int64 }
//
//	func (s *Stats) Hit()          { s.hits.Add(1) }
//	func (s *Stats) Hits() int64   { return s.hits.Load() }
package atomicmix
