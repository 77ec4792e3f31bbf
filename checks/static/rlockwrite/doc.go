// Package rlockwrite defines an Analyzer that reports writes made while
// holding only the read side of the RWMutex that guards them.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer rlockwrite
//
// rlockwrite: report writes to guarded state while holding only RLock
//
// sync.RWMutex.RLock admits any number of readers at once. A write made
// under RLock therefore races with the other readers, and for a map it
// can crash the program with "concurrent map writes".
//
// The analyzer tracks the locks held at each instruction (SSA, must
// analysis) and reports a write to a field of a struct while only the read
// lock of a sibling RWMutex reached from the same base is held, and a
// write to a package-level variable while only the read lock of a
// package-level RWMutex is held, provided the RWMutex guards the location:
// the location is annotated as guarded by it (// guarded by mu,
// +checklocks:mu) or accessed with its write lock held somewhere in the
// package, or the RWMutex is an unexported field that the package never
// write-locks (no Lock or TryLock, directly or through a helper, and its
// address never handed elsewhere, as to sync.NewCond) and no other lock is
// held exclusively at the write: a mutex that is only ever read-locked
// protects no write. An RWMutex used only as a close barrier (database/sql.Rows)
// guards nothing it is read-locked around. Unlike gVisor's checklocks, which counts
// only direct stores as writes, a write here includes:
//   - an assignment, x.f = v, x.f++, x.f += n, x.f = append(x.f, v);
//   - a map assignment, delete or clear through the field;
//   - an element store into a slice or array held in the field;
//   - a store through a pointer loaded from the field (x.p.n++).
//
// One finding per location and lock: the other writes to it under that
// read lock are its related positions.
//
// It stays silent when the write goes to a local copy or a value created
// in the function, when the object written through, or the object whose
// field it is (other.pending[k] = v, other reached through the read-locked
// value), has a lock of its own that is held exclusively, when the write lock (or another mutex of the
// struct) is held exclusively, and for atomic operations and method calls
// (sync.Map.Store, atomic.Int64.Add), which synchronize themselves. It is
// silent too when the write runs only under a bool parameter that every
// read-locked caller passes the other way (find(key, prev) writing a
// shared prev array when prev), when the write runs only under a bool
// local that becomes true only on paths holding the write lock
// (updateCache set after upgrading from RLock to Lock, the read-locked
// branch leaving it false), for fields documented as written with
// only the read lock ("requires at least RLock": one producer serialized
// by its caller), and for a single writer: the write is in an unexported
// function that runs on one goroutine at a time (started by a go
// statement outside any loop on a value the starting function just
// created, d := &T{…}; go d.run(), or called only from such functions),
// and every access of the field (unexported) in any other function holds the write
// lock, which excludes the read section. A function documented as not
// safe for concurrent use ("It is not thread safe", "must not be called
// concurrently") runs on one goroutine at a time by contract, as do the
// unexported functions called only from it; the doc covers it against
// itself only, so the rest of the condition stays. A goroutine started
// on every tick, another reader under the read lock, or a helper also
// reached from a function that promises nothing is still reported.
// A test's set-up write is not reported either: in a test file, before
// any go statement of its function, to a location that at most half of
// the package's own (non-test) accesses make holding that lock (a test
// setting s.opts.Timeout under s.mu.RLock() where the server reads
// s.opts.Timeout without s.mu; a write through a pointer field counts
// the accesses of the field it writes in the object pointed to).
//
// # Examples
//
// WRONG:
//
//	func (c *Cache) Get(k string) V {
//		c.mu.RLock()
//		defer c.mu.RUnlock()
//		c.hits++ // field c.hits written while holding only the read lock c.mu
//		return c.m[k]
//	}
//
// RIGHT:
//
//	func (c *Cache) Get(k string) V {
//		c.mu.RLock()
//		defer c.mu.RUnlock()
//		c.hits.Add(1) // hits is an atomic.Int64
//		return c.m[k]
//	}
package rlockwrite
