// Package conc exercises every construct the rewriter instruments.
package conc

import (
	"sync"

	"example.com/mod/dep"
)

type Embeds struct {
	sync.Mutex
	n int
}

type Inner struct{ sync.RWMutex }

type Outer struct {
	*Inner
	Name string
}

type Guarded[T any] struct {
	mu sync.Mutex
	v  T
}

func (g *Guarded[T]) Set(v T) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v = v
}

func (g *Guarded[T]) Get() T {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v
}

func Locks() int {
	var mu sync.Mutex
	mu.Lock()
	if mu.TryLock() {
		panic("TryLock on a held mutex")
	}
	mu.Unlock()
	pm := &mu
	pm.Lock()
	pm.Unlock()

	var e Embeds
	e.Lock()
	e.n++
	e.Unlock()
	pe := &e
	pe.Lock()
	defer pe.Unlock()

	o := Outer{Inner: &Inner{}}
	o.Lock()
	o.Unlock()
	o.RLock()
	if !o.TryRLock() {
		panic("TryRLock with a reader")
	}
	o.RUnlock()
	o.RUnlock()
	if !o.TryLock() {
		panic("TryLock free")
	}
	o.Unlock()

	var rw sync.RWMutex
	rw.RLocker().Lock()
	rw.RLocker().Unlock()
	var l sync.Locker = &rw
	l.Lock()
	l.Unlock()
	if rw.TryRLock() {
		rw.RUnlock()
	}
	if rw.TryLock() {
		rw.Unlock()
	}
	unlock := mu.Unlock // method value: bound to the runtime's Unlock
	mu.Lock()
	unlock()
	lock, try := (*sync.Mutex).Lock, e.TryLock
	lock(&mu)
	mu.Unlock()
	if try() {
		(*sync.Mutex).Unlock(&e.Mutex)
	}
	var wg sync.WaitGroup
	add, done := wg.Add, wg.Done
	add(1)
	done()
	rl := l.Lock
	rl()
	l.Unlock()

	g := &Guarded[string]{}
	g.Set("x")
	var c dep.Counter
	dep.Fan(3, func(int) { c.Inc() })
	return e.n + len(g.Get()) + c.N()
}

// bufs is a package-level pool: its Get and Put go through the runtime,
// which empties it at each schedule's start.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

type pooled struct{ sync.Pool }

func Pools() int {
	b := bufs.Get().(*[]byte)
	*b = append((*b)[:0], 'x')
	bufs.Put(b)
	var p pooled
	p.Put(1)
	get, put := p.Get, (*sync.Pool).Put // method value and expression
	put(&p.Pool, 2)
	n, _ := get().(int)
	return len(*b) + n
}

func LockerOf[L sync.Locker](l L) {
	l.Lock()
	l.Unlock()
}

func WaitOnce() int {
	var wg sync.WaitGroup
	var once sync.Once
	var mu sync.Mutex
	n := 0
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { mu.Lock(); n += 10; mu.Unlock() })
		}()
	}
	wg.Go(func() { mu.Lock(); n++; mu.Unlock() })
	wg.Wait()
	return n
}

func CondPingPong() int {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var cv sync.Cond
	cv.L = &mu
	ready := false
	go func() {
		c.L.Lock()
		ready = true
		c.L.Unlock()
		c.Broadcast()
		cv.Signal()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	return 1
}

// The Onces of the package (a variable, a field of one) start daemons;
// a Once reached through a pointer or made by the caller does not.
var (
	clockOnce sync.Once
	global    struct{ once sync.Once }
	globalPtr = &struct{ once sync.Once }{}
)

func Daemons(local *sync.Once) {
	clockOnce.Do(func() {})
	global.once.Do(func() {})
	(global.once).Do(func() {})
	globalPtr.once.Do(func() {})
	local.Do(func() {})
}
