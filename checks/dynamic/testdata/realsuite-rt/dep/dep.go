// Package dep plays a dependency module: the rewriter does not instrument
// it, so everything here runs outside the scheduler's control.
package dep

import (
	"runtime"
	"strings"
	"sync"
	"time"
)

// Feed returns an unbuffered channel a goroutine of its own sends v on.
func Feed(v int) <-chan int {
	ch := make(chan int)
	go func() { ch <- v }()
	return ch
}

// Closed returns a channel that a goroutine of its own closes.
func Closed() <-chan struct{} {
	ch := make(chan struct{})
	go func() { close(ch) }()
	return ch
}

// Sem is a counting semaphore built on a channel.
type Sem chan struct{}

func NewSem(n int) Sem { return make(Sem, n) }

func (s Sem) Acquire() { s <- struct{}{} }
func (s Sem) Release() { <-s }

// Pause sleeps on the real clock.
func Pause(d time.Duration) { time.Sleep(d) }

// WaitGone retries, as goleak does, until no goroutine's stack mentions
// fn, sleeping between attempts; it reports whether they were gone within
// about two seconds.
func WaitGone(fn string) bool {
	delay := time.Millisecond
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		if !strings.Contains(string(buf[:n]), fn) {
			return true
		}
		time.Sleep(delay)
		if delay < 50*time.Millisecond {
			delay *= 2
		}
	}
	return false
}

// Eventually plays testify's assert.Eventually: it calls cond on a
// goroutine of its own every tick until cond holds or waitFor has passed
// (real clock), and reports whether it held.
func Eventually(cond func() bool, waitFor, tick time.Duration) bool {
	res := make(chan bool, 1)
	go func() {
		timer := time.NewTimer(waitFor)
		defer timer.Stop()
		ticker := time.NewTicker(tick)
		defer ticker.Stop()
		for {
			select {
			case <-timer.C:
				res <- false
				return
			case <-ticker.C:
				if cond() {
					res <- true
					return
				}
			}
		}
	}()
	return <-res
}

// Recv receives from ch.
func Recv(ch <-chan int) int { return <-ch }

// Wait blocks on a channel that a goroutine of its own closes after
// sleeping d; that goroutine is not controlled, so its sleep is on the
// real clock, and the caller waits outside control.
func Wait(d time.Duration) {
	done := make(chan struct{})
	go func() {
		time.Sleep(d)
		close(done)
	}()
	<-done
}

// Held is a lock that a goroutine of its own holds for a while of real
// time (a log line written to a slow pipe).
type Held struct{ mu sync.Mutex }

// HoldFor returns a Held locked for d from now.
func HoldFor(d time.Duration) *Held {
	h := &Held{}
	h.mu.Lock()
	go func() {
		time.Sleep(d)
		h.mu.Unlock()
	}()
	return h
}

// Use waits for the lock, outside control, and lets it go.
func (h *Held) Use() {
	h.mu.Lock()
	defer h.mu.Unlock()
}

// Group plays golang.org/x/sync/errgroup: Go runs f on a goroutine of its
// own, which the rewriter did not start, and Wait waits for them all.
type Group struct{ wg sync.WaitGroup }

func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *Group) Wait() { g.wg.Wait() }
