package bad

import "sync"

type Stats struct{ n int }

type Cache struct {
	mu    sync.RWMutex
	m     map[string]int
	hits  int
	keys  []string
	slots [4]int
	stats *Stats
}

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.hits++ // want `field c.hits written while holding only the read lock c.mu \(and 1 more write, listed as related\)`
	return c.m[k]
}

func (c *Cache) Put(k string, v int) {
	c.mu.RLock()
	c.m[k] = v // want `map c.m modified while holding only the read lock c.mu \(and 2 more writes, listed as related\)`
	c.mu.RUnlock()
}

func (c *Cache) Del(k string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	delete(c.m, k) // related position of the finding at line 25 (same field, same lock)
}

func (c *Cache) Remember(k string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.keys = append(c.keys, k) // want `field c.keys written while holding only the read lock c.mu \(and 1 more write, listed as related\)`
}

func (c *Cache) First(k string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.keys[0] = k  // related position of the finding at line 38 (same field, same lock)
	c.slots[1] = 2 // want `element of c.slots written while holding only the read lock c.mu`
}

func (c *Cache) Count() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.stats.n++ // want `write through c.stats while holding only the read lock c.mu`
}

func (c *Cache) Alias(k string) {
	c.mu.RLock()
	m := c.m
	m[k] = 1 // related position of the finding at line 25 (same field, same lock)
	c.mu.RUnlock()
}

func (c *Cache) InClosure() {
	c.mu.RLock()
	func() {
		c.hits = 0 // related position of the finding at line 19 (same field, same lock)
	}()
	c.mu.RUnlock()
}

var (
	regMu    sync.RWMutex
	registry = map[string]int{}
	lookups  int
)

func Lookup(k string) int {
	regMu.RLock()
	defer regMu.RUnlock()
	lookups++ // want `variable lookups written while holding only the read lock regMu`
	if _, ok := registry[k]; !ok {
		registry[k] = 0 // want `map registry modified while holding only the read lock regMu`
	}
	return registry[k]
}

type Embedded struct {
	sync.RWMutex
	n int
}

func (e *Embedded) Bump() {
	e.RLock()
	e.n++ // want `field e.n written while holding only the read lock e.RWMutex`
	e.RUnlock()
}

// Reset is the evidence: the same fields are written under the write lock.
func (c *Cache) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits = 0
	c.m = map[string]int{}
	c.keys = nil
	c.slots = [4]int{}
	c.stats = &Stats{}
}

func Clear() {
	regMu.Lock()
	registry = map[string]int{}
	lookups = 0
	regMu.Unlock()
}

func (e *Embedded) Set(n int) {
	e.Lock()
	e.n = n
	e.Unlock()
}

type Annotated struct {
	mu sync.RWMutex
	// +checklocks:mu
	seen map[string]bool
}

func (a *Annotated) Mark(k string) {
	a.mu.RLock()
	a.seen[k] = true // want `map a.seen modified while holding only the read lock a.mu`
	a.mu.RUnlock()
}

// A queue group whose leaving member writes the others' pending maps
// holding only its own read lock (the others' locks not taken, or only
// read-locked).
type qgroup struct {
	members []*qmember
}

type qmember struct {
	sync.RWMutex
	grp     *qgroup
	pending map[uint64]int64
}

func (m *qmember) join(g *qgroup) {
	m.Lock()
	m.grp = g
	m.Unlock()
}

func (m *qmember) handOff(seqs []uint64) {
	m.RLock()
	defer m.RUnlock()
	for i, seq := range seqs {
		other := m.grp.members[i%len(m.grp.members)]
		other.pending[seq] = 1 // want `write through m.grp while holding only the read lock m.RWMutex \(and 1 more write, listed as related\)`
	}
}

// handOffShared read-locks the other member only: the same location and
// lock as handOff, so a related write of that finding.
func (m *qmember) handOffShared(seqs []uint64) {
	m.RLock()
	defer m.RUnlock()
	for i, seq := range seqs {
		other := m.grp.members[i%len(m.grp.members)]
		other.RLock()
		other.pending[seq] = 1
		other.RUnlock()
	}
}
