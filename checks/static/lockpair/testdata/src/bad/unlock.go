package bad

import "sync"

type Conn struct {
	mu     sync.Mutex
	closed bool
}

func (c *Conn) Close() { // want Close:"acquires c.mu"
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
	}
	c.closed = true
	c.mu.Unlock() // want `c.mu unlocked but not held: it was already released at line 13 on this path`
}

func (c *Conn) closeTwice() {
	c.mu.Lock()
	defer c.mu.Unlock() // want `deferred unlock of c.mu runs after it was already released at line 23`
	c.closed = true
	c.mu.Unlock()
}

func (c *Conn) mismatch() {
	var rw sync.RWMutex
	rw.Lock()
	defer rw.RUnlock() // want `deferred RUnlock of rw but it is write-locked \(Lock at line 28\)`
	c.closed = true
}

func (t *Table) readWrongUnlock() int {
	t.mu.RLock()
	n := len(t.m)
	t.mu.Unlock() // want `t.mu released with Unlock but it is read-locked \(RLock at line 34\)`
	return n
}

func (t *Table) writeWrongUnlock() {
	t.mu.Lock()
	t.m = nil
	t.mu.RUnlock() // want `t.mu released with RUnlock but it is write-locked \(Lock at line 41\)`
}

// goLocksOther's goroutine leaves another mutex locked, not c.mu: the
// second Unlock of c.mu is of an unlocked mutex.
func (c *Conn) goLocksOther(other *sync.Mutex) {
	c.mu.Lock()
	c.mu.Unlock()
	wait := make(chan struct{})
	go func() {
		defer close(wait)
		other.Lock()
	}()
	<-wait
	c.mu.Unlock() // want `c.mu unlocked but not held`
}
