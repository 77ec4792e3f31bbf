package rlockwrite

import "github.com/interleave-dev/interleave/checks"

// The rule IDs rlockwrite reports, set as Diagnostic.Category.
const (
	RuleWriteUnderRLock = "IL2001"
)

// Rules are the rules rlockwrite reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleWriteUnderRLock, Slug: "write-under-rlock", Title: "Write while holding only a read lock", Severity: checks.Error, Level: checks.Default, Since: "0.1",
		Text: "RLock lets other readers in at the same time. A write here (assignment, map update, delete, increment, append, element store, write through a pointer) races with them. Reported when the RWMutex guards the location: it is annotated so, written under the write lock elsewhere, or the RWMutex is unexported and never write-locked in the package (only ever read-locked, so it protects no write) with no other lock held exclusively. Not reported: a write that runs only under a bool local set true only on paths holding the write lock (a flag set after upgrading from RLock to Lock), nor a write under a test of the same value that chose the write lock earlier in the function (if mark { mu.Lock() } else { mu.RLock() } ... if mark { write }, the mutex released only by defer), nor a write by a function that runs on one goroutine at a time (an unexported function started once per value it creates, outside any loop, or called only from such a function) when every access of the unexported field elsewhere holds the write lock; a function documented as not safe for concurrent use (\"It is not thread safe\", \"must not be called concurrently\") counts as such a goroutine, its callers serializing it by contract. One finding per location and lock: the other writes to it under that read lock are its related positions. Take the write lock."},
}
