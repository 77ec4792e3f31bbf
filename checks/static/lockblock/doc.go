// Package lockblock defines an Analyzer that reports operations that can
// block for an unbounded time while a mutex is held.
//
// Its rules (IDs and texts) are in rules.go.
//
// # Analyzer lockblock
//
// lockblock: report blocking operations made while holding a lock
//
// A goroutine that blocks while holding a mutex stalls every goroutine
// waiting for that mutex, and deadlocks if the goroutine it waits for
// needs the same mutex. Tu et al. (ASPLOS'19) found that most blocking
// bugs in Go programs involve channels, often combined with a lock.
//
// The analyzer tracks the locks held at each instruction (SSA, must
// analysis: Lock, RLock, deferred Unlock, TryLock, lock helpers, function
// literals run on the spot) and reports, when at least one is held:
//   - a send on or a receive from a channel that is unbuffered or whose
//     capacity is not known; a channel made in the same function with a
//     constant capacity greater than zero, or loaded from a field that only
//     ever holds such channels, is taken as non-blocking (precision before
//     recall: a receive from an empty buffered channel does block);
//   - range over a channel, whatever its capacity;
//   - a select statement without a default case;
//   - sync.WaitGroup.Wait;
//   - sync.Cond.Wait on a Cond whose L is known (sync.NewCond(&s.mu) or
//     c.L = &s.mu anywhere in the package) while a lock other than L is
//     held; waiting on the Cond's own lock is the normal idiom and is not
//     reported, and a Cond whose lock is not known is not reported either;
//   - time.Sleep.
//
// The lock and where it was acquired are given as related information.
// These reports are IL6001 blocking-under-lock (opt-in: most waits under a
// lock on real code are bounded on purpose).
//
// IL6002 lock-channel-cycle is the case that is a deadlock: a send on a
// channel known to be unbuffered, a receive, a select whose every case is
// such an operation, or WaitGroup.Wait, made while holding lock L, when
// every partner operation in the package (the receive for a send, the
// send or close for a receive, Done for Wait) holds L, or runs after a
// Lock of L in its function (a deferred Done after any Lock of L). The
// channel or WaitGroup must be private to the package (an unexported
// field or variable whose value is never passed, returned or stored
// elsewhere, so every partner is visible), and L must be the same
// instance on both sides: its path relative to the channel's is the same,
// or it is a package-level lock. A select with a case on any other
// channel (ctx.Done(), a timer) is a bounded wait and is not reported.
// A partner's Lock does not count when the partner stores a field under
// it that the blocked side reads under its lock before the operation (a
// started flag: Start sets stopped = false under the lock, Stop sends
// only when it sees it): the partner is past that Lock by then. A
// receive reached only where a test that the buffer holds an element
// (len(ch) == cap(ch) on a channel that may be buffered, len(ch) > 0)
// came out true in the same critical section of L is not reported: every
// sender needs L, so nothing emptied the buffer in between (a bounded
// FIFO evicting its oldest entry under the lock). Nor is a receive or
// range after a close of the same channel in the same critical section
// (close(old); for b := range old, or close(p.ch); for range p.ch with no
// store or call between the close and the reload): a closed channel
// drains and never waits; IL6001 skips it too. A Done that the waiting
// function itself runs before the Wait, in the same critical section
// (a one-shot close: if setClosing() { …; wg.Done() }; wg.Wait()), is
// no partner: it already ran. Test files are ignored on both sides. An IL6002 site is not also
// reported as IL6001.
//
// # Examples
//
// WRONG:
//
//	s.mu.Lock()
//	defer s.mu.Unlock()
//	s.events <- ev // send on channel s.events while holding s.mu
//
// RIGHT:
//
//	s.mu.Lock()
//	pending := s.pending
//	s.mu.Unlock()
//	s.events <- pending
//
// RIGHT (never blocks):
//
//	select {
//	case s.events <- ev:
//	default:
//	}
package lockblock
