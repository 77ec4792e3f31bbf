// Package loopvar holds locks of loop variables: one mutex per element,
// locked and unlocked once per iteration. An iteration that leaves through
// continue or break (or falls off the end of the body) with its element
// still locked leaks that element's lock; the next iteration locks
// another element, so nothing reports it as a double lock.
package loopvar

import "sync"

type sub struct {
	mu      sync.Mutex
	closed  bool
	pending []string
	acked   int
}

type conn struct {
	mu   sync.RWMutex
	idle bool
	sent int
}

type broker struct {
	subs  []*sub
	conns map[string]*conn
	slots [4]struct {
		mu   sync.Mutex
		used bool
	}
}

// flush skips closed subscriptions without unlocking them.
func (b *broker) flush() int {
	n := 0
	for _, s := range b.subs {
		s.mu.Lock()
		if s.closed {
			continue // want `s.mu locked at line 36 is still held when this continue moves to the next iteration, which locks another s: this one is never unlocked`
		}
		n += len(s.pending)
		s.pending = s.pending[:0]
		s.mu.Unlock()
	}
	return n
}

// pickIdle breaks out with the connection it found still locked and
// never unlocks it.
func (b *broker) pickIdle() bool {
	found := false
	for _, c := range b.conns {
		c.mu.RLock()
		if c.idle {
			found = true
			break // want `c.mu locked at line 52 is still held when this break leaves the loop and the function returns with it held`
		}
		c.mu.RUnlock()
	}
	return found
}

// ackSome unlocks only when there was something to acknowledge.
func (b *broker) ackSome() {
	for _, s := range b.subs {
		s.mu.Lock()
		if len(s.pending) > 0 {
			s.acked++
			s.mu.Unlock()
		}
	} // want `s.mu locked at line 65 can still be held at the end of the loop body; the next iteration locks another s`
}

// drain leaves the inner loop for the next subscription with the lock held.
func (b *broker) drain(stop string) {
outer:
	for _, s := range b.subs {
		s.mu.Lock()
		for _, p := range s.pending {
			if p == stop {
				continue outer // want `s.mu locked at line 77 is still held when this continue moves to the next iteration`
			}
		}
		s.pending = nil
		s.mu.Unlock()
	}
}

// claim locks array elements by index.
func (b *broker) claim() int {
	for i := range b.slots {
		b.slots[i].mu.Lock()
		if b.slots[i].used {
			continue // want `b.slots\[i\].mu locked at line 91 is still held when this continue`
		}
		b.slots[i].used = true
		b.slots[i].mu.Unlock()
		return i
	}
	return -1
}

// Silent: the idioms below lock a loop variable correctly.

// flushOK unlocks before every continue.
func (b *broker) flushOK() {
	for _, s := range b.subs {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			continue
		}
		s.pending = s.pending[:0]
		s.mu.Unlock()
	}
}

// perIteration scopes each lock to a closure with a deferred unlock.
func (b *broker) perIteration() {
	for _, s := range b.subs {
		func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.closed {
				return
			}
			s.acked++
		}()
	}
}

// findLocked returns with the element it found locked, through another
// variable; the caller-facing unlock happens after the loop.
func (b *broker) findLocked() int {
	var found *sub
	for _, s := range b.subs {
		s.mu.Lock()
		if !s.closed {
			found = s
			break
		}
		s.mu.Unlock()
	}
	if found == nil {
		return 0
	}
	n := len(found.pending)
	found.mu.Unlock()
	return n
}

// lockAll takes every element's lock, then releases them all.
func (b *broker) lockAll() {
	for _, s := range b.subs {
		s.mu.Lock()
	}
	for _, s := range b.subs {
		s.mu.Unlock()
	}
}

// tryEach skips the elements it cannot lock: nothing is held then.
func (b *broker) tryEach() {
	for _, s := range b.subs {
		if !s.mu.TryLock() {
			continue
		}
		s.acked++
		s.mu.Unlock()
	}
}

// switchBreak breaks out of a switch, not the loop.
func (b *broker) switchBreak() {
	for _, s := range b.subs {
		s.mu.Lock()
		switch len(s.pending) {
		case 0:
			break
		default:
			s.acked++
		}
		s.mu.Unlock()
	}
}

// deferEach holds every lock until the function returns.
func (b *broker) deferEach() {
	for _, s := range b.subs {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			continue
		}
		s.acked++
	}
}

type node struct {
	mu   sync.Mutex
	next *node
	val  int
}

// handOverHand walks a list holding at most two node locks.
func handOverHand(head *node, v int) *node {
	head.mu.Lock()
	prev := head
	for n := head.next; n != nil; n = n.next {
		n.mu.Lock()
		prev.mu.Unlock()
		if n.val == v {
			return n // returned locked, documented below
		}
		prev = n
	}
	prev.mu.Unlock()
	return nil
}

// breakThenUnlock leaves the loop with the lock held and releases it
// through the same variable after the loop.
func (b *broker) breakThenUnlock() {
	var s *sub
	for _, s = range b.subs {
		s.mu.Lock()
		if s.closed {
			break
		}
		s.mu.Unlock()
		s = nil
	}
	if s != nil {
		s.mu.Unlock()
	}
}

type route struct {
	self *broker
	subs []*rsub
}

type rsub struct {
	owner *conn
	name  string
}

// sendSubs locks each owner but its own, and unlocks under the same
// condition evaluated again: the walk cannot tie the two conditions, so a
// conditional Lock is not reported.
func (r *route) sendSubs(self *conn) []string {
	var out []string
	for _, s := range r.subs {
		if s.owner != nil && s.owner != self {
			s.owner.mu.Lock()
		}
		out = append(out, s.name)
		if s.owner != nil && s.owner != self {
			s.owner.mu.Unlock()
		}
	}
	return out
}

type wire struct {
	rlock sync.Mutex
	ids   []int
}

// awaitResponse reads until it sees its id and returns holding the read
// lock for the caller to release: the *sync.Mutex result hands it over
// (kafka-go's waitResponse).
func (c *wire) awaitResponse(id int) (*sync.Mutex, bool) {
	for {
		c.rlock.Lock()
		if len(c.ids) == 0 {
			c.rlock.Unlock()
			return nil, false
		}
		if c.ids[0] == id {
			c.ids = c.ids[1:]
			break // ok: the lock is returned to the caller
		}
		c.rlock.Unlock()
	}
	return &c.rlock, true
}

// awaitLocker is the same through a sync.Locker result.
func (c *wire) awaitLocker(id int) sync.Locker {
	var l sync.Locker
	for _, x := range c.ids {
		c.rlock.Lock()
		if x == id {
			l = &c.rlock
			break // ok: handed over
		}
		c.rlock.Unlock()
	}
	return l
}

// awaitLeak breaks out holding the lock and returns nothing that lets the
// caller release it.
func (c *wire) awaitLeak(id int) bool {
	ok := false
	for {
		c.rlock.Lock()
		if len(c.ids) == 0 {
			c.rlock.Unlock()
			break
		}
		if c.ids[0] == id {
			ok = true
			break // want `c.rlock locked at line 307 is still held when this break leaves the loop`
		}
		c.rlock.Unlock()
	}
	return ok
}
