// Package testcallers: a helper's entry locks come from the package's
// own callers; a test that calls it on a value it owns does not decide
// them.
package testcallers

import "sync"

type Table struct {
	mu       sync.Mutex
	policies map[string]int
	count    int
}

func NewTable() *Table { return &Table{policies: map[string]int{}} }

func (t *Table) Add(k string, v int) {
	t.mu.Lock()
	t.policies[k] = v
	t.count++
	t.mu.Unlock()
}

func (t *Table) Get(k string) (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.policies[k], t.count
}

func (t *Table) Len() (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.policies), t.count
}

func (t *Table) Reset(m map[string]int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload(m)
}

func (t *Table) Replace(m map[string]int) {
	t.mu.Lock()
	t.reload(m)
	t.mu.Unlock()
}

// reload replaces the policies (its callers outside tests lock).
func (t *Table) reload(m map[string]int) error {
	t.policies = m
	t.count = len(m)
	return nil
}

// Cache's helper is also called without the lock outside tests.
type Cache struct {
	mu    sync.Mutex
	items map[string]int
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

func (c *Cache) Has(k string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.items[k]
	return ok
}

func (c *Cache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *Cache) Drop(k string) {
	c.mu.Lock()
	delete(c.items, k)
	c.mu.Unlock()
}

func (c *Cache) Load(m map[string]int) {
	c.mu.Lock()
	c.fill(m)
	c.mu.Unlock()
}

func (c *Cache) Clear() { c.fill(nil) }

func (c *Cache) fill(m map[string]int) {
	c.items = m // want `field c.items written without holding c.mu`
}
