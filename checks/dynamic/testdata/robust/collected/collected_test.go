// Package collected holds tests that need the garbage collector to see
// what they dropped: passing under plain go test, they must pass on every
// schedule (the scheduler's shadow state once held every object it met).
package collected

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

type cache struct {
	mu sync.Mutex
	n  int
}

// TestCollectedLocked: an object whose mutex was used is collected once
// dropped.
func TestCollectedLocked(t *testing.T) {
	c := &cache{}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	wp := weak.Make(c)
	c = nil
	runtime.GC()
	if wp.Value() != nil {
		t.Fatal("not collected")
	}
}

type ticking struct {
	mu   sync.Mutex
	n    int
	done chan struct{}
}

// newTicking starts a goroutine that holds it weakly, ticks, and returns
// once it was collected (a cache's periodic clean-up).
func newTicking() *ticking {
	k := &ticking{done: make(chan struct{})}
	w, done := weak.Make(k), k.done
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			k := w.Value()
			if k == nil {
				return
			}
			k.mu.Lock()
			k.n++
			k.mu.Unlock()
		}
	}()
	return k
}

// TestTickerStopsWhenCollected: the goroutine of a dropped object returns
// after a collection, and the test waits for it.
func TestTickerStopsWhenCollected(t *testing.T) {
	done := func() chan struct{} {
		k := newTicking()
		k.mu.Lock()
		k.n++
		k.mu.Unlock()
		return k.done
	}()
	for i := 0; ; i++ {
		select {
		case <-done:
			return
		default:
		}
		if i == 10 {
			t.Fatal("the goroutine of an unreachable object did not stop")
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

type watched struct {
	hits atomic.Int64
	done chan struct{}
}

// watch starts a goroutine that holds w weakly and reads it at each tick
// (atomic loads only), returning once it was collected.
func watch() *watched {
	w := &watched{done: make(chan struct{})}
	wp, done := weak.Make(w), w.done
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			w := wp.Value()
			if w == nil {
				return
			}
			_ = w.hits.Load()
		}
	}()
	return w
}

// TestDroppedWithoutGC returns without stopping what it started and
// without a runtime.GC: the goroutine outlives the test until the next
// collection, as under go test, and is no leak.
func TestDroppedWithoutGC(t *testing.T) {
	w := watch()
	w.hits.Add(1)
	if w.hits.Load() != 1 {
		t.Fatal("lost a hit")
	}
}
