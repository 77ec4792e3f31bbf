package rt

import (
	"runtime"
	"time"
	_ "unsafe" // go:linkname
)

// A controlled goroutine waits for its turn on a semaphore of the Go
// runtime: it parks in the Go scheduler, which hands it a processor as
// soon as the scheduler goroutine wakes it, where a futex wait holds an OS
// thread whose processor the runtime takes back only after a while
// (sysmon), so that with many goroutines parked each hand-off waited for
// it. The runtime's semaphores carry no race-detector annotation (sync's
// Mutex and WaitGroup add theirs in package sync), so hand-offs stay
// invisible to the race detector. The scheduler goroutine waits on one too
// (waitChange), with a timer to end the wait.

//go:linkname semacquire sync.runtime_Semacquire
func semacquire(addr *uint32)

//go:linkname semrelease sync.runtime_Semrelease
func semrelease(addr *uint32, handoff bool, skipframes int)

// wake gives g its turn: runSeq changes, and g's semaphore is released.
//
//go:norace
func (g *gstate) wake() {
	g.runSeq++
	semrelease(&g.sema, false, 0)
}

// waitTurn waits until runSeq is no longer seen and returns it.
//
//go:norace
func (g *gstate) waitTurn(seen uint32) uint32 {
	for i := 0; i < spinRounds; i++ {
		if v := g.runSeq; v != seen {
			return v
		}
		runtime.Gosched()
	}
	for {
		if v := g.runSeq; v != seen {
			return v
		}
		// A release whose change was already seen above leaves a count
		// behind: this acquire takes it and the loop checks again.
		semacquire(&g.sema)
	}
}

// wakeSema is the scheduler goroutine's semaphore (waitChange); a release
// that finds it awake leaves a count, which only makes a later sleep
// return early to check its word again.
var wakeSema uint32

// wakeTimer ends a sleep on wakeSema; made once, so that a wait allocates
// nothing (tests count allocations).
var wakeTimer *time.Timer

// sleepSema sleeps on wakeSema for at most d.
//
//go:norace
func sleepSema(d time.Duration) {
	if wakeTimer == nil {
		wakeTimer = time.AfterFunc(time.Hour, func() { semrelease(&wakeSema, false, 0) })
	}
	wakeTimer.Reset(d)
	semacquire(&wakeSema)
	wakeTimer.Stop()
}
