package lockblock

import "github.com/interleave-dev/interleave/checks"

// The rule IDs lockblock reports, set as Diagnostic.Category.
const (
	RuleBlockingUnderLock = "IL6001" // opt-in; IL6002 is the deadlocking case
	RuleLockChannelCycle  = "IL6002" // a wait under a lock every partner needs
)

// Rules are the rules lockblock reports, with their texts: what is wrong, why,
// and the fix. The first is the rule of a diagnostic with no category.
var Rules = []checks.Rule{
	{ID: RuleBlockingUnderLock, Slug: "blocking-under-lock", Title: "Blocking operation while holding a lock", Severity: checks.Warning, Level: checks.OptIn, Since: "0.1",
		Text: "A channel send or receive (unbuffered or of unknown capacity), range over a channel, select without default, WaitGroup.Wait, Cond.Wait while holding a lock other than the Cond's own, or time.Sleep while holding a mutex stalls every goroutine waiting for it, and deadlocks if the other side needs the same lock. Release the lock first, or use select with default. Opt-in: holding a lock across a bounded wait (shutdown, a short timer, a buffered channel drained under the same lock) is usually deliberate; see docs/precision.md. The case that is a deadlock is IL6002."},
	{ID: RuleLockChannelCycle, Slug: "lock-channel-cycle", Title: "Wait under a lock that every partner needs", Severity: checks.Error, Level: checks.OptIn, Since: "0.2",
		Text: "A channel send (on a channel known to be unbuffered), a receive, a select whose every case is such an operation, or WaitGroup.Wait is made while holding lock L, and every operation that could end the wait (the receive for a send; the send or close for a receive; Done for Wait) holds L or takes L first in its function (a worker that locks L in its loop before reaching a deferred Done). Once the partner waits for L, the holder waits for the partner: a deadlock (Tu et al., ASPLOS'19: most Go blocking bugs mix channels and locks). Only channels and WaitGroups private to the package are considered (an unexported field or variable, never passed, returned or stored elsewhere, so every partner is visible), and the same instance on both sides (the lock's path relative to the channel's is the same, or the lock is a package-level variable); two read locks do not exclude each other; a goroutine that counts itself in (WaitGroup.Add) under L is not counted by a Wait that holds L; a receive reached only after the same critical section of L found the buffer non-empty (len(ch) == cap(ch) on a channel that may be buffered, len(ch) > 0) does not wait, nor does a receive or range after a close of the same channel in the same critical section of L (close(old); for b := range old, or close(p.ch); for range p.ch with no store or call in between): a closed channel drains its buffer and never waits (also not IL6001). Release L before waiting, or do not take it on the partner's side. Opt-in since 2026-12-02: under half of its findings on untuned modules were true (docs/rules.md), and it finds no bug of the real-bug set (bench/staticbugs) by default; interleave pr still runs it as a candidate that a schedule must confirm."},
}
