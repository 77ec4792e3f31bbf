// Package threadsafe defines an Analyzer that checks struct types whose
// documentation promises safety for concurrent use.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer threadsafe
//
// threadsafe: report types documented as safe for concurrent use that expose mutable state
//
// A struct type claims thread safety when its doc comment says "safe for
// concurrent use", "safe for use by multiple goroutines", "safe to use
// concurrently", "may be used by multiple goroutines simultaneously",
// "concurrency-safe", "goroutine-safe" or "thread-safe" (not negated: "not
// thread-safe" and "must not be used by multiple goroutines" are no
// claim), or when it carries the //interleave:threadsafe directive. For such a type the analyzer reports
// two rules.
//
// IL5001 threadsafe-exported-field (opt-in): an exported field that callers can use
// without the type's lock. Reported are (a) exported fields of map, slice
// or pointer type, whose referent callers can change in place at any time,
// and (b) exported fields of any other kind that the package writes after
// construction, so that a caller's plain read races with the write.
// Exempt are sync and sync/atomic values, channels and functions, pointers
// to types that themselves claim safety (in this package, or a few from
// the standard library such as *log.Logger and *sql.DB), and
// configuration fields of other kinds written only when the value is built
// (time.Duration, string, interface options, as in http.Client). Embedded
// fields are not reported. Writes in decoders (UnmarshalJSON, FromProto:
// they fill a value being built) and to a struct held by value in a
// local or parameter (a copy) are not writes after construction.
//
// IL5002 threadsafe-leaked-state: an exported method that returns one of
// the type's map, slice or pointer fields itself (or a reslice of it), when
// the field is accessed under the type's mutex and modified in place after
// construction (m[k] = v, delete, clear, append, a write through the
// pointer). The caller then reads the shared value without the lock while
// the type keeps modifying it. A returned copy (maps.Clone, slices.Clone,
// append([]T(nil), s...), a loop into a new map) is not the field itself,
// and fields that are only replaced wholesale (copy-on-write) or only set
// in the constructor are immutable to the caller: neither is reported.
//
// WRONG:
//
//	// Cache is safe for concurrent use.
//	type Cache struct {
//		mu    sync.Mutex
//		Items map[string]int // exported: callers bypass mu
//		seen  map[string]bool
//	}
//
//	func (c *Cache) Seen() map[string]bool {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		return c.seen // the caller reads it while Add writes it
//	}
//
// RIGHT:
//
//	// Cache is safe for concurrent use.
//	type Cache struct {
//		mu    sync.Mutex
//		items map[string]int
//		seen  map[string]bool
//	}
//
//	func (c *Cache) Seen() map[string]bool {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		return maps.Clone(c.seen)
//	}
package threadsafe
