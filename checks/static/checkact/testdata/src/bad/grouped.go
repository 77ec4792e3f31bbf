package bad

import "sync"

// Index copies two tables under the lock, rebuilds them without it and
// stores both back in a later section: one split, two writes.
type Index struct {
	mu     sync.Mutex
	keys   map[string]int
	counts map[string]int
	gen    int
}

func (x *Index) Rebuild(add string) {
	x.mu.Lock()
	keys := x.keys
	counts := x.counts
	x.mu.Unlock()

	nk := map[string]int{add: len(keys)}
	for k, v := range keys {
		nk[k] = v
	}
	nc := map[string]int{add: len(counts)}
	for k, v := range counts {
		nc[k] = v
	}

	x.mu.Lock()
	x.keys = nk   // want `x\.keys is written from nk, read under x\.mu in an earlier critical section at grouped\.go:16; an update made while x\.mu was released is lost \(and 1 more write, listed as related\)`
	x.counts = nc // related position of the finding at line 30 (same lock, same earlier section)
	x.gen++
	x.mu.Unlock()
}

// Bump reads and writes back in two separate pairs of sections: two
// splits, two findings.
func (x *Index) Bump() {
	x.mu.Lock()
	g := x.gen
	x.mu.Unlock()
	x.mu.Lock()
	x.gen = g + 1 // want `x\.gen is written from g, read under x\.mu`
	x.mu.Unlock()

	x.mu.Lock()
	c := x.counts["n"]
	x.mu.Unlock()
	x.mu.Lock()
	x.counts["n"] = c + 1 // want `x\.counts\["n"\] is written from c, read under x\.mu`
	x.mu.Unlock()
}
