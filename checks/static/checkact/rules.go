package checkact

import "github.com/interleave-dev/interleave/checks"

// The rule IDs checkact reports, set as Diagnostic.Category.
const (
	RuleSyncMapCheckThenAct  = "IL4001"
	RuleAtomicCheckThenAct   = "IL4002"
	RuleSplitCriticalSection = "IL4003"
)

// Rules are the rules checkact reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleSyncMapCheckThenAct, Slug: "syncmap-check-then-act", Title: "sync.Map Load followed by Store of the same key", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "Another goroutine can store or delete the key between the Load and the Store or Delete that depends on it. Use LoadOrStore, LoadAndDelete, CompareAndSwap or CompareAndDelete, or hold one mutex around both. Opt-in: cache fills that store a value computed from the key alone and maps written by a single goroutine are reported; see docs/precision.md."},
	{ID: RuleAtomicCheckThenAct, Slug: "atomic-check-then-act", Title: "Atomic Load followed by a dependent Store", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "The value can change between the Load and the Store, losing an update. Use CompareAndSwap in a loop, or Add. Opt-in: most reports on real code were flags set under a lock the caller holds, or a flag set to the value it was tested against; see docs/precision.md."},
	{ID: RuleSplitCriticalSection, Slug: "split-critical-section", Title: "Value read in one critical section and written back in another", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "The lock is released between reading the guarded value and writing a value computed from it, so a concurrent update in between is lost. Do the read and the write under one lock. Not reported: another lock held from the read to the write (it serializes the two), a value that reaches the write only as an argument of a call returning an *http.Response (a refresh token sent to the token endpoint, the answer stored: the server's value, not an update of the old one), a lock released and re-taken on some paths only, a saved value or an unmodified clone of it (maps.Clone) restored unchanged, a function documented as called with another lock held exclusively (\"MUST be called with the chain lock held (for writes)\"), an owner re-checked before the write, a ticket re-checked before the write when every writer of the field clears or replaces the ticket in the same section (if d.pending != sess { return }), a once-only step (the write runs only while a field of the same value is nil or false, the same section sets that field, and every other writer tests it, or tests set a field set only where that one is set and never cleared: a staged update applied if len(m.pending) > 0), a wider lock held by every caller of the function and by every other writer of the field (matched by type and field, as handlers that each hold r.execMu for the whole call), one serial writer (the unexported field written after construction only by one goroutine started once per value, or by a method that a Start method calls before it starts the one goroutine that calls it in turn). One finding per function, lock and earlier critical section: the other writes from values read there are related positions. Opt-in since 2026-12-02: under half of its findings on untuned modules were true (docs/rules.md), and it finds no bug of the real-bug set (bench/staticbugs) by default; interleave pr still runs it as a candidate that a schedule must confirm."},
}
