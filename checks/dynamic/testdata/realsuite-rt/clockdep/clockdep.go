// Package clockdep plays a dependency module that wraps the clock, as
// scheduling libraries do (clockwork), and a generic cache that expires
// its entries on it: timers and clock reads made here must be on the
// clock the test's own sleeps are on.
package clockdep

import (
	"sync"
	"time"
)

// Clock is the clock interface libraries take so that tests can fake it.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	AfterFunc(d time.Duration, f func()) Timer
	NewTimer(d time.Duration) Timer
}

// Timer is a stoppable timer.
type Timer interface {
	Chan() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

type realClock struct{}

// Real returns the clock of package time.
func Real() Clock { return realClock{} }

func (realClock) Now() time.Time                  { return time.Now() }
func (realClock) Since(t time.Time) time.Duration { return time.Since(t) }

func (realClock) AfterFunc(d time.Duration, f func()) Timer {
	return realTimer{t: time.AfterFunc(d, f)}
}

func (realClock) NewTimer(d time.Duration) Timer {
	t := time.NewTimer(d)
	return realTimer{t: t, c: t.C}
}

type realTimer struct {
	t *time.Timer
	c <-chan time.Time
}

func (r realTimer) Chan() <-chan time.Time     { return r.c }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// Cache holds values that expire ttl after they were set.
type Cache[K comparable, V any] struct {
	mu  sync.Mutex
	ttl time.Duration
	m   map[K]entry[V]
}

type entry[V any] struct {
	v       V
	expires time.Time
}

// NewCache returns an empty cache.
func NewCache[K comparable, V any](ttl time.Duration) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, m: map[K]entry[V]{}}
}

// Set stores v under k.
func (c *Cache[K, V]) Set(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = entry[V]{v, time.Now().Add(c.ttl)}
}

// Get returns the value under k unless it has expired.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !time.Now().Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Embedded is a timer as clockwork makes it: Stop and Reset are the
// promoted methods of *time.Timer, reached through the Timer interface.
type Embedded struct{ *time.Timer }

func (e Embedded) Chan() <-chan time.Time { return e.C }

// EmbeddedAfterFunc is AfterFunc returning an Embedded.
func EmbeddedAfterFunc(d time.Duration, f func()) Timer {
	return Embedded{time.AfterFunc(d, f)}
}
