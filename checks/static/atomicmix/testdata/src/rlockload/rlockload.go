// Package rlockload: a sliding window (bytedance/gopkg's circuit-breaker
// metricer) whose current bucket index is loaded atomically by a helper
// every caller of which holds the window's RWMutex, some only its read
// side (one through RLocker()), and written plainly under the write lock.
// The write lock excludes every reader: no finding. A write made under
// the read side, or a reader whose caller holds nothing, stays IL3002.
package rlockload

import (
	"sync"
	"sync/atomic"
)

type bucket struct{ succ, fail int64 }

type window struct {
	rw      sync.RWMutex
	buckets []bucket
	latest  int32
	n       int32
}

func (w *window) Succeed() {
	rwx := w.rw.RLocker()
	rwx.Lock()
	b := w.getBucket()
	atomic.AddInt64(&b.succ, 1)
	rwx.Unlock()
}

func (w *window) Fail() {
	w.rw.Lock()
	b := w.getBucket()
	b.fail++
	w.rw.Unlock()
}

func (w *window) Peek() int64 {
	w.rw.RLock()
	defer w.rw.RUnlock()
	return atomic.LoadInt64(&w.getBucket().succ)
}

func (w *window) Reset() {
	w.rw.Lock()
	atomic.StoreInt32(&w.latest, 0)
	w.rw.Unlock()
}

func (w *window) tick() {
	w.rw.Lock()
	w.latest++ // ok: the write lock excludes every reader's read lock
	if w.latest >= w.n {
		w.latest = 0
	}
	w.rw.Unlock()
}

func (w *window) Run(ticks <-chan struct{}) {
	for range ticks {
		w.tick()
	}
}

func (w *window) getBucket() *bucket {
	return &w.buckets[atomic.LoadInt32(&w.latest)]
}

// The same window, but the index is bumped under the read side: readers
// run beside it.
type shared struct {
	rw     sync.RWMutex
	latest int32
}

func (s *shared) Get() int32 {
	s.rw.RLock()
	defer s.rw.RUnlock()
	return s.load()
}

func (s *shared) load() int32 { return atomic.LoadInt32(&s.latest) }

func (s *shared) tick() {
	s.rw.RLock()
	s.latest++ /* IL3002 */ // want `plain write of s\.latest races with its atomic accesses`
	s.rw.RUnlock()
}

func (s *shared) Run(ticks <-chan struct{}) {
	for range ticks {
		s.tick()
	}
}

// One caller of the loading helper holds nothing.
type open struct {
	rw     sync.RWMutex
	latest int32
}

func (o *open) Get() int32 {
	o.rw.RLock()
	defer o.rw.RUnlock()
	return o.load()
}

func (o *open) Fast() int32 { return o.load() }

func (o *open) load() int32 { return atomic.LoadInt32(&o.latest) }

func (o *open) tick() {
	o.rw.Lock()
	o.latest++ /* IL3002 */ // want `plain write of o\.latest races with its atomic accesses`
	o.rw.Unlock()
}

func (o *open) Run(ticks <-chan struct{}) {
	for range ticks {
		o.tick()
	}
}

// A per-P RWMutex of the module's own (gopkg's syncx.RWMutex: a slice of
// RWMutex shards; Lock takes every shard, RLocker one): the same window
// on it is silent too.
type shard struct {
	sync.RWMutex
	_ [40]byte
}

type perPRW []shard

func (m perPRW) Lock() {
	for i := range m {
		m[i].Lock()
	}
}

func (m perPRW) Unlock() {
	for i := len(m) - 1; i >= 0; i-- {
		m[i].Unlock()
	}
}

func (m perPRW) RLocker() sync.Locker { return m[0].RLocker() }

type pwindow struct {
	rw     perPRW
	latest int32
	n      int32
}

func (w *pwindow) Succeed() int32 {
	rwx := w.rw.RLocker()
	rwx.Lock()
	i := w.index()
	rwx.Unlock()
	return i
}

func (w *pwindow) Reset() {
	w.rw.Lock()
	atomic.StoreInt32(&w.latest, 0)
	w.rw.Unlock()
}

func (w *pwindow) tick() {
	w.rw.Lock()
	w.latest++ // ok: the write side of the sharded lock excludes the readers
	if w.latest >= w.n {
		w.latest = 0
	}
	w.rw.Unlock()
}

func (w *pwindow) Run(ticks <-chan struct{}) {
	for range ticks {
		w.tick()
	}
}

func (w *pwindow) index() int32 { return atomic.LoadInt32(&w.latest) }

// A Lock/Unlock type not built on a sync mutex (a file lock) orders
// nothing between goroutines of one process.
type flock struct{ fd int }

func (f *flock) Lock()   { f.fd++ }
func (f *flock) Unlock() { f.fd-- }

type fwindow struct {
	fl     flock
	latest int32
}

func (w *fwindow) Get() int32 {
	w.fl.Lock()
	defer w.fl.Unlock()
	return atomic.LoadInt32(&w.latest)
}

func (w *fwindow) tick() {
	w.fl.Lock()
	w.latest++ /* IL3002 */ // want `plain write of w\.latest races with its atomic accesses`
	w.fl.Unlock()
}

func (w *fwindow) Run(ticks <-chan struct{}) {
	for range ticks {
		w.tick()
	}
}
