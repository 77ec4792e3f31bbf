// Package settle is a kernel of gen's sequential check: Warm makes an
// item in the background, and after one Warm an order of Take and
// TakeAll blocks once that work is done (TakeAll first). go test runs
// the check's cases in parallel, so goroutines of other tests end while
// a case runs; Warm ends one such goroutine (of others) as it starts its
// own, and the check must still wait for the value's work before the
// calls.
package settle

import (
	"runtime"
	"sync"
	"time"
)

// others stand in for the goroutines of the tests that run beside a
// case: each Warm ends one and returns once the process counts one fewer.
var others = make(chan struct{})

func init() {
	for i := 0; i < 2000; i++ {
		go func() { <-others }()
	}
}

func endOther() {
	n := runtime.NumGoroutine()
	select {
	case others <- struct{}{}:
	default:
		return
	}
	for runtime.NumGoroutine() >= n {
		runtime.Gosched()
	}
}

// Pool is safe for concurrent use. Its items are made in the background.
type Pool struct {
	mu    sync.Mutex
	items int
	ready *sync.Cond
}

// New returns an empty pool.
func New() *Pool {
	p := &Pool{}
	p.ready = sync.NewCond(&p.mu)
	return p
}

// Warm starts making an item in the background.
func (p *Pool) Warm() {
	endOther()
	go p.fill()
}

func (p *Pool) fill() {
	time.Sleep(200 * time.Microsecond)
	p.mu.Lock()
	p.items++
	p.mu.Unlock()
	p.ready.Broadcast()
}

// Take waits for an item and takes it.
func (p *Pool) Take() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.items == 0 {
		p.ready.Wait()
	}
	p.items--
}

// TakeAll takes the items there are now and says how many.
func (p *Pool) TakeAll() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.items
	p.items = 0
	return n
}
