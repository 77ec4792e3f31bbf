package locked

import "sync"

type Queue struct {
	mu    sync.Mutex
	items []int
}

func (q *Queue) pushLocked(v int) {
	q.items = append(q.items, v)
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pushLocked(v) // ok
}

func (q *Queue) PushFast(v int) {
	q.pushLocked(v) // want `call to q.pushLocked without holding q.mu`
}

// flush must be called with q.mu held.
func (q *Queue) flush() {
	q.items = nil
}

func (q *Queue) Flush() {
	q.flush() // want `call to q.flush without holding q.mu`
}

func (q *Queue) FlushOK() {
	q.mu.Lock()
	q.flush() // ok
	q.mu.Unlock()
}

func (q *Queue) popLocked() int {
	v := q.items[0]
	q.items = q.items[1:]
	q.flushIfEmptyLocked() // ok: the caller holds q.mu
	return v
}

func (q *Queue) flushIfEmptyLocked() {
	if len(q.items) == 0 {
		q.items = nil
	}
}

func (q *Queue) Pop() int {
	if q.mu.TryLock() {
		defer q.mu.Unlock()
		return q.popLocked() // ok
	}
	return -1
}

// trim drops old items. q.mu must be held.
func (q *Queue) trim() { q.items = q.items[:0] }

// Assumes q.mu is locked.
func (q *Queue) grow() { q.items = append(q.items, 0) }

// +checklocks:q.mu
func (q *Queue) shrink() { q.items = q.items[1:] }

// Trim lacks q.mu for three helpers: one finding, the other calls its
// related positions.
func (q *Queue) Trim() {
	q.trim() // want `call to q.trim without holding q.mu \(and 2 more calls, listed as related\)$`
	q.grow()
	q.shrink()
}

// relock releases the lock around a slow step and forgets to retake it
// before calling the helper.
func (q *Queue) relock() {
	q.mu.Lock()
	q.trim() // ok
	q.mu.Unlock()
	q.grow() // want `call to q.grow without holding q.mu`
}

// helper leaves the lock to its callers, which all hold it.
func (q *Queue) helper() {
	q.shrink() // ok: every caller holds q.mu
}

// mixedHelper is called with and without the lock: the report belongs at
// the caller (Trim above shows the entry-point case), not here.
func (q *Queue) mixedHelper() {
	q.trim() // ok
}

func (q *Queue) Use() {
	q.mu.Lock()
	q.helper()
	q.mixedHelper()
	q.mu.Unlock()
	q.relock()
	go q.mixedHelper()
}

// Pair has two mutexes: which one fooLocked means is unclear.
type Pair struct {
	a, b sync.Mutex
	n    int
}

func (p *Pair) bumpLocked() { p.n++ }

func (p *Pair) Bump() {
	p.bumpLocked() // ok: ambiguous lock, not reported
}

// Store has a "Locked" method that takes the lock itself when asked to:
// its name does not mean the caller must hold it.
type Store struct {
	mu   sync.RWMutex
	msgs map[int]string
}

func (s *Store) loadLocked(k int, needLock bool) string {
	if needLock {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	return s.msgs[k]
}

func (s *Store) Load(k int) string {
	return s.loadLocked(k, true) // ok: loadLocked locks s.mu itself
}

// Config documents a helper that needs its own lock; Client serializes
// every use of its config under the client's lock instead.
type Config struct {
	modifyLock sync.RWMutex
	Address    string
}

// ParseAddress must be called with c.modifyLock held for write access.
func (c *Config) ParseAddress(a string) string {
	c.Address = a
	return a
}

type Client struct {
	modifyLock sync.RWMutex
	config     *Config
	other      *Config
	addr       string
}

func (c *Client) SetAddress(a string) {
	c.modifyLock.Lock()
	defer c.modifyLock.Unlock()
	c.addr = c.config.ParseAddress(a) // ok: the lock of the client that owns config is held
}

func (c *Client) SetOther(a string) {
	c.other.ParseAddress(a) // want `call to c.other.ParseAddress without holding c.other.modifyLock`
}

// Syncer's stopLocked means the lock of its argument: the buffer's.
type Syncer struct {
	mu      sync.Mutex
	buffers map[*Buffer]bool
}

type Buffer struct {
	mu    sync.Mutex
	items []int
}

func (s *Syncer) stopLocked(b *Buffer) { b.items = nil }

func (s *Syncer) Cancel(b *Buffer) {
	b.mu.Lock()
	s.stopLocked(b) // ok: the lock held is b.mu
	b.mu.Unlock()
	s.mu.Lock()
	delete(s.buffers, b)
	s.mu.Unlock()
}
