// Package exportedrlock: a user-agent parser (ua-parser/uap-go's
// Parser) whose exported matchers count misses with atomic adds. Parse
// runs them on goroutines that each hold the read side of p.mu, and
// checkAndSort resets the counters plainly under the write side while it
// reorders the patterns the matchers range over. Every call of the
// exported matchers in the package holds p.mu, and each matcher reads
// p.defs.UA, which checkAndSort sorts under p.mu.Lock(): a caller of
// another package that skips the lock races on the patterns already, so
// the lock is part of the matchers' contract. No finding. The near
// misses below stay IL3002.
package exportedrlock

import (
	"sort"
	"sync"
	"sync/atomic"
)

type pattern struct{ expr string }

type defs struct {
	UA []*pattern
	OS []*pattern
}

type Parser struct {
	UAMisses uint64 // want UAMisses:`atomic\(AddUint64\)`
	OSMisses uint64 // want OSMisses:`atomic\(AddUint64\)`
	*defs
	threshold uint64
	mu        *sync.RWMutex
}

func (p *Parser) Parse(line string) (string, string) {
	var ua, os string
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.mu.RLock()
		ua = p.ParseUA(line)
		p.mu.RUnlock()
	}()
	go func() {
		defer wg.Done()
		p.mu.RLock()
		os = p.ParseOS(line)
		p.mu.RUnlock()
	}()
	wg.Wait()
	checkAndSort(p)
	return ua, os
}

func (p *Parser) ParseUA(line string) string {
	for i, pt := range p.defs.UA {
		if pt.expr == line {
			if i > 10 {
				atomic.AddUint64(&p.UAMisses, 1)
			}
			return pt.expr
		}
	}
	return ""
}

func (p *Parser) ParseOS(line string) string {
	for i, pt := range p.defs.OS {
		if pt.expr == line {
			if i > 10 {
				atomic.AddUint64(&p.OSMisses, 1)
			}
			return pt.expr
		}
	}
	return ""
}

func checkAndSort(p *Parser) {
	p.mu.Lock()
	if atomic.LoadUint64(&p.UAMisses) >= p.threshold {
		p.UAMisses = 0 // ok: every adder holds p.mu's read side
		sort.Slice(p.defs.UA, func(i, j int) bool { return p.defs.UA[i].expr < p.defs.UA[j].expr })
	}
	p.mu.Unlock()
	p.mu.Lock()
	if atomic.LoadUint64(&p.OSMisses) >= p.threshold {
		p.OSMisses = 0 // ok: the same for the second matcher
		sort.Slice(p.defs.OS, func(i, j int) bool { return p.defs.OS[i].expr < p.defs.OS[j].expr })
	}
	p.mu.Unlock()
}

// One call of the exported adder in the package skips the lock.
type loose struct {
	misses uint64
	pats   []string
	mu     sync.RWMutex
}

func (l *loose) Match(line string) bool {
	for _, s := range l.pats {
		if s == line {
			return true
		}
	}
	atomic.AddUint64(&l.misses, 1)
	return false
}

func (l *loose) Locked(line string) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.Match(line)
}

func (l *loose) Fast(line string) bool { return l.Match(line) }

func (l *loose) reset() {
	l.mu.Lock()
	if atomic.LoadUint64(&l.misses) < 10 {
		l.mu.Unlock()
		return
	}
	l.misses = 0 /* IL3002 */ // want `plain write of l\.misses races with its atomic accesses`
	sort.Strings(l.pats)
	l.mu.Unlock()
}

func (l *loose) Run(ticks <-chan struct{}) {
	for range ticks {
		l.reset()
	}
}

// The exported adder's callers in the package all hold the read lock,
// but it touches nothing else the lock orders: a counter bumped without
// the lock is a supported use, and one of another package races with the
// reset.
type counter struct {
	hits uint64
	mu   sync.RWMutex
}

func (c *counter) Hit() { atomic.AddUint64(&c.hits, 1) }

func (c *counter) Serve() {
	go func() {
		c.mu.RLock()
		c.Hit()
		c.mu.RUnlock()
	}()
}

func (c *counter) reset() {
	c.mu.Lock()
	if atomic.LoadUint64(&c.hits) < 10 {
		c.mu.Unlock()
		return
	}
	c.hits = 0 /* IL3002 */ // want `plain write of c\.hits races with its atomic accesses`
	c.mu.Unlock()
}

func (c *counter) Run(ticks <-chan struct{}) {
	for range ticks {
		c.reset()
	}
}

// The exported adder reads the ordered state but nothing in the package
// calls it: nothing says its callers hold the lock.
type uncalled struct {
	misses uint64
	pats   []string
	mu     sync.RWMutex
}

func (u *uncalled) Match(line string) bool {
	for _, s := range u.pats {
		if s == line {
			return true
		}
	}
	atomic.AddUint64(&u.misses, 1)
	return false
}

func (u *uncalled) reset() {
	u.mu.Lock()
	if atomic.LoadUint64(&u.misses) < 10 {
		u.mu.Unlock()
		return
	}
	u.misses = 0 /* IL3002 */ // want `plain write of u\.misses races with its atomic accesses`
	sort.Strings(u.pats)
	u.mu.Unlock()
}

func (u *uncalled) Run(ticks <-chan struct{}) {
	for range ticks {
		u.reset()
	}
}

// A goroutine literal that calls the adder after releasing the lock.
type released struct {
	misses uint64
	pats   []string
	mu     sync.RWMutex
}

func (r *released) Match(line string) bool {
	for _, s := range r.pats {
		if s == line {
			return true
		}
	}
	atomic.AddUint64(&r.misses, 1)
	return false
}

func (r *released) Serve(line string) {
	go func() {
		r.mu.RLock()
		r.mu.RUnlock()
		r.Match(line)
	}()
}

func (r *released) reset() {
	r.mu.Lock()
	if atomic.LoadUint64(&r.misses) < 10 {
		r.mu.Unlock()
		return
	}
	r.misses = 0 /* IL3002 */ // want `plain write of r\.misses races with its atomic accesses`
	sort.Strings(r.pats)
	r.mu.Unlock()
}

func (r *released) Run(ticks <-chan struct{}) {
	for range ticks {
		r.reset()
	}
}

// The counter of an exported method, bumped in an unexported helper: the
// exported method's in-package callers do not vouch for the helper.
type viaHelper struct {
	hits uint64
	mu   sync.RWMutex
}

func (v *viaHelper) Hit() { v.bump() }

func (v *viaHelper) bump() { atomic.AddUint64(&v.hits, 1) }

func (v *viaHelper) Serve() {
	go func() {
		v.mu.RLock()
		v.Hit()
		v.mu.RUnlock()
	}()
}

func (v *viaHelper) reset() {
	v.mu.Lock()
	if atomic.LoadUint64(&v.hits) < 10 {
		v.mu.Unlock()
		return
	}
	v.hits = 0 /* IL3002 */ // want `plain write of v\.hits races with its atomic accesses`
	v.mu.Unlock()
}

func (v *viaHelper) Run(ticks <-chan struct{}) {
	for range ticks {
		v.reset()
	}
}
