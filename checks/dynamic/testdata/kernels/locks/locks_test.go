// Package locks holds bugs around sync.Mutex, sync.RWMutex and sync.Cond.
package locks

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// account pairs that transfer to each other lock in opposite orders.
type account struct {
	mu      sync.Mutex
	balance int
}

func transfer(from, to *account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // AB-BA: the other transfer holds to.mu and wants from.mu
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func TestABBA(t *testing.T) {
	a, b := &account{balance: 10}, &account{balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transfer(a, b, 1) }()
	go func() { defer wg.Done(); transfer(b, a, 2) }()
	wg.Wait()
	if a.balance+b.balance != 20 {
		t.Fatalf("money created: %d", a.balance+b.balance)
	}
}

// registry takes its read lock twice on one path; a writer queued between the
// two read locks blocks the second one, and the writer waits for the first.
type registry struct {
	mu    sync.RWMutex
	names map[string]int
}

func (r *registry) lookup(name string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if name == "" {
		return r.count() // recursive RLock
	}
	return r.names[name]
}

func (r *registry) count() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.names)
}

func (r *registry) add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = len(r.names)
}

func TestRecursiveRLock(t *testing.T) {
	r := &registry{names: map[string]int{"a": 0}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.lookup("") }()
	go func() { defer wg.Done(); r.add("b") }()
	wg.Wait()
}

// conn releases its lock twice when two closers race past the check.
type conn struct {
	mu   sync.Mutex
	held atomic.Bool
}

func (c *conn) acquire() {
	c.mu.Lock()
	c.held.Store(true)
}

func (c *conn) release() {
	if c.held.Load() { // check-then-act: both closers can see true
		c.held.Store(false)
		c.mu.Unlock()
	}
}

func TestDoubleUnlock(t *testing.T) {
	c := &conn{}
	c.acquire()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.release() }()
	go func() { defer wg.Done(); c.release() }()
	wg.Wait()
}

// cache forgets to unlock when it has been closed.
type cache struct {
	mu     sync.Mutex
	closed atomic.Bool
	data   map[string]string
}

var errClosed = errors.New("cache closed")

func (c *cache) get(k string) (string, error) {
	c.mu.Lock()
	if c.closed.Load() {
		return "", errClosed // missing unlock on the error path
	}
	v := c.data[k]
	c.mu.Unlock()
	return v, nil
}

func TestMissingUnlockOnError(t *testing.T) {
	c := &cache{data: map[string]string{"k": "v"}}
	done := make(chan bool)
	go func() {
		c.closed.Store(true)
		done <- true
	}()
	c.get("k")
	<-done
	c.mu.Lock() // blocks forever when get took the error path
	c.data = nil
	c.mu.Unlock()
}

// counter reads and writes under two separate critical sections.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = v + 1 // lost update: another inc may have run in between
	c.mu.Unlock()
}

func TestLostUpdate(t *testing.T) {
	c := &counter{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); c.inc() }()
	}
	wg.Wait()
	if c.n != 2 {
		t.Fatalf("counter = %d after two increments, want 2", c.n)
	}
}

// sessions checks for a key under one critical section and inserts it under
// another.
type sessions struct {
	mu      sync.Mutex
	m       map[string]int
	created int
}

func (s *sessions) open(user string) {
	s.mu.Lock()
	_, ok := s.m[user]
	s.mu.Unlock()
	if ok {
		return
	}
	s.mu.Lock()
	s.m[user] = 1
	s.created++ // both callers can get here for the same user
	s.mu.Unlock()
}

func TestCheckThenActMap(t *testing.T) {
	s := &sessions{m: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.open("ann") }()
	go func() { defer wg.Done(); s.open("ann") }()
	wg.Wait()
	if s.created != 1 {
		t.Errorf("created %d sessions for one user, want 1", s.created)
	}
}

// gate waits on a Cond without a predicate loop: a Signal sent before the
// Wait is lost.
type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func TestCondLostWakeup(t *testing.T) {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.mu.Lock()
		g.cond.Wait() // should be: for !g.open { g.cond.Wait() }
		g.mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		g.mu.Lock()
		g.open = true
		g.cond.Signal()
		g.mu.Unlock()
	}()
	wg.Wait()
}
