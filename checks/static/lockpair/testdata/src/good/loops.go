package good

import "sync"

func (s *S) lockPerIteration(xs []int) {
	for _, x := range xs {
		s.mu.Lock()
		if x < 0 {
			s.mu.Unlock()
			continue
		}
		s.n += x
		s.mu.Unlock()
	}
}

func lockEach(ms []*S) {
	for _, m := range ms {
		m.mu.Lock() // a different m each iteration
	}
	for _, m := range ms {
		m.mu.Unlock()
	}
}

// handOff locks in a loop; another goroutine unlocks after each round.
func handOff(mu *sync.Mutex, n int, done chan<- bool) {
	for i := 0; i < n; i++ {
		mu.Lock()
		done <- true
	}
}

// releaseRounds unlocks a lock another goroutine takes.
func releaseRounds(mu *sync.Mutex, n int, done <-chan bool) {
	for i := 0; i < n; i++ {
		<-done
		mu.Unlock()
	}
}

type node struct {
	mu   sync.Mutex
	next *node
}

type list struct{ cur *node }

// the second s.cur.mu is another node's mutex
func (l *list) advance() {
	l.cur.mu.Lock()
	next := l.cur.next
	l.cur = next
	l.cur.mu.Lock()
	l.cur.mu.Unlock()
}

type frame struct {
	mu     sync.Mutex
	parent *frame
}

// walkUp holds one frame's lock at a time, moving c up the chain.
func (c *frame) walkUp(n int) {
	c.mu.Lock()
	get := func() *frame { return c } // c lives in memory
	_ = get
	for i := 0; i < n && c.parent != nil; i++ {
		c.mu.Unlock()
		c = c.parent
		c.mu.Lock()
	}
	c.mu.Unlock()
}

// climb mirrors testing's frameSkip: the caller holds c.mu, the loop
// trades it for each parent's, a deferred closure releases the last one.
func (c *frame) climb(n int) {
	shouldUnlock := false
	defer func() {
		if shouldUnlock {
			c.mu.Unlock()
		}
	}()
	for i := 0; i < n; i++ {
		if c.parent != nil {
			parent := c.parent
			if shouldUnlock {
				c.mu.Unlock()
			}
			c = parent
			shouldUnlock = true
			c.mu.Lock()
			continue
		}
		return
	}
}
