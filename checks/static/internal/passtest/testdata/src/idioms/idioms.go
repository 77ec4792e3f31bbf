package idioms

import (
	"sync"
	"sync/atomic"
)

// Box exercises the idioms every pass must stay silent on.
type Box struct {
	mu    sync.RWMutex
	cmu   sync.Mutex
	cond  *sync.Cond
	once  sync.Once
	count atomic.Int64
	items map[string]int
	ready bool
	out   chan int
	name  string
}

// NewBox touches fields before the value is shared.
func NewBox(name string) *Box {
	b := &Box{name: name, items: map[string]int{}, out: make(chan int, 8)}
	b.cond = sync.NewCond(&b.cmu)
	b.items["init"] = 0
	return b
}

func (b *Box) Put(k string, v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items[k] = v
	b.count.Add(1)
}

func (b *Box) Get(k string) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	b.count.Add(1) // ok: typed atomic under the read lock
	return b.items[k]
}

func (b *Box) TryPut(k string, v int) bool {
	if !b.mu.TryLock() {
		return false
	}
	b.items[k] = v // ok: TryLock succeeded
	b.mu.Unlock()
	return true
}

func (b *Box) Update(k string) {
	b.mu.Lock()
	func() {
		b.items[k]++ // ok: closure run under the caller's lock
	}()
	b.mu.Unlock()
}

func (b *Box) Offer(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.out <- v: // ok: select with default
	default:
	}
}

func (b *Box) Init() {
	b.once.Do(func() { b.ready = true })
}

func (b *Box) WaitReady() {
	b.cmu.Lock()
	for !b.ready {
		b.cond.Wait() // ok: the Cond's own lock
	}
	b.cmu.Unlock()
}

func (b *Box) Name() string { return b.name } // ok: only written by the constructor

// Confined builds a Box that never leaves this goroutine.
func Confined() int {
	b := NewBox("local")
	b.items["x"] = 1 // ok: not shared
	b.mu.RLock()
	b.items["y"] = 2 // ok: not shared, even under RLock
	b.mu.RUnlock()
	return len(b.items)
}
