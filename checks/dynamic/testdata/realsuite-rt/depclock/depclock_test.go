// Package depclock: timers and clock reads made inside a dependency
// module are on the test's virtual clock. Each test failed under the
// search (on every schedule) while dependencies ran on the real clock.
package depclock

import (
	"sync"
	"testing"
	"time"

	"clockdep"
)

// A job a dependency's AfterFunc runs after 1s has run once the test has
// slept 2s.
func TestDepAfterFunc(t *testing.T) {
	var mu sync.Mutex
	ran := false
	clockdep.Real().AfterFunc(time.Second, func() {
		mu.Lock()
		ran = true
		mu.Unlock()
	})
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if !ran {
		t.Fatal("the dependency's 1s AfterFunc has not run after a 2s sleep")
	}
}

// A dependency's 1s timer fires before the test's 2s timeout.
func TestDepTimer(t *testing.T) {
	tm := clockdep.Real().NewTimer(time.Second)
	defer tm.Stop()
	select {
	case <-tm.Chan():
	case <-time.After(2 * time.Second):
		t.Fatal("the test's 2s timeout fired before the dependency's 1s timer")
	}
}

// The dependency's clock sees the test's sleep.
func TestDepElapsed(t *testing.T) {
	c := clockdep.Real()
	start := c.Now()
	time.Sleep(time.Second)
	if d := c.Since(start); d < time.Second {
		t.Fatalf("slept 1s, the dependency's clock says %v", d)
	}
}

// A generic cache in the dependency expires its entries on the test's
// clock.
func TestDepCacheExpiry(t *testing.T) {
	c := clockdep.NewCache[string, int](time.Second)
	c.Set("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %d, %v right after Set", v, ok)
	}
	time.Sleep(2 * time.Second)
	if _, ok := c.Get("a"); ok {
		t.Fatal("a 1s entry is still there after a 2s sleep")
	}
}

// A dependency's timer whose Stop is promoted from an embedded
// *time.Timer, called through an interface, stops the timer.
func TestDepEmbeddedStop(t *testing.T) {
	var mu sync.Mutex
	ran := false
	tm := clockdep.EmbeddedAfterFunc(time.Second, func() {
		mu.Lock()
		ran = true
		mu.Unlock()
	})
	if !tm.Stop() {
		t.Fatal("Stop of a pending timer returned false")
	}
	tm.Reset(time.Second)
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if !ran {
		t.Fatal("the reset timer has not run after a 2s sleep")
	}
}
