// Package chans holds bugs around channels and select.
package chans

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fetch returns early on a validation error and strands the goroutine that
// computes the result on an unbuffered channel.
func fetch(key string) (int, error) {
	ch := make(chan int) // should be buffered: make(chan int, 1)
	go func() { ch <- len(key) }()
	if key == "" {
		return 0, errors.New("empty key")
	}
	return <-ch, nil
}

func TestEarlyReturnLeak(t *testing.T) {
	if n, err := fetch("abc"); err != nil || n != 3 {
		t.Fatalf("fetch(abc) = %d, %v", n, err)
	}
	if _, err := fetch(""); err == nil {
		t.Fatal("fetch of the empty key succeeded")
	}
}

// query gives up when cancelled and strands the worker's send.
func query(cancel <-chan struct{}) (int, bool) {
	result := make(chan int)
	go func() { result <- 42 }()
	select {
	case v := <-result:
		return v, true
	case <-cancel: // the worker's send now blocks forever
		return 0, false
	}
}

func TestSelectStrandsSender(t *testing.T) {
	cancel := make(chan struct{})
	go close(cancel)
	query(cancel)
}

// shutdown closes a channel guarded by a flag that two callers can pass.
type notifier struct {
	closed atomic.Bool
	done   chan struct{}
}

func (n *notifier) shutdown() {
	if !n.closed.Load() {
		n.closed.Store(true)
		close(n.done) // close of closed channel when both callers pass the check
	}
}

func TestCloseClosed(t *testing.T) {
	n := &notifier{done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); n.shutdown() }()
	go func() { defer wg.Done(); n.shutdown() }()
	wg.Wait()
	<-n.done
}

// collect closes the results channel on timeout while the worker may still
// send on it.
func TestSendOnClosed(t *testing.T) {
	results := make(chan int)
	go func() { results <- 1 }() // send on closed channel after a timeout
	select {
	case <-results:
	case <-time.After(10 * time.Millisecond):
	}
	close(results)
}

// lookup times out and returns, leaving the worker blocked on its send.
func lookup() (int, error) {
	out := make(chan int)
	go func() {
		time.Sleep(5 * time.Millisecond)
		out <- 7
	}()
	select {
	case v := <-out:
		return v, nil
	case <-time.After(5 * time.Millisecond):
		return 0, errors.New("timeout") // the worker leaks
	}
}

func TestTimeoutLeak(t *testing.T) {
	lookup()
}

// players decide who serves first with a check-then-act; when both serve,
// both block sending on the unbuffered table.
func TestPingPongDeadlock(t *testing.T) {
	table := make(chan int)
	var served atomic.Bool
	var wg sync.WaitGroup
	play := func() {
		defer wg.Done()
		if !served.Load() {
			served.Store(true)
			table <- 0 // serve
		}
		for {
			ball := <-table
			if ball >= 2 {
				return
			}
			table <- ball + 1
			if ball+1 >= 2 {
				return
			}
		}
	}
	wg.Add(2)
	go play()
	go play()
	wg.Wait()
}

// produce forgets to close its channel when it stops early, so the consumer
// ranging over it never finishes.
func produce(out chan<- int, stop *atomic.Bool) {
	for i := range 3 {
		if stop.Load() {
			return // should close(out) here too
		}
		out <- i
	}
	close(out)
}

func TestProducerForgetsClose(t *testing.T) {
	ch := make(chan int)
	var stop atomic.Bool
	done := make(chan int)
	go produce(ch, &stop)
	go func() {
		sum := 0
		for v := range ch {
			sum += v
		}
		done <- sum
	}()
	go stop.Store(true)
	<-done
}

// flagWaker drops a wakeup nobody is receiving (select with default); the
// waiter checks the flag and then receives, so a wakeup sent between the two
// is lost.
type flagWaker struct {
	ready atomic.Bool
	wake  chan struct{}
}

func (n *flagWaker) set() {
	n.ready.Store(true)
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

func (n *flagWaker) await() {
	if !n.ready.Load() {
		<-n.wake
	}
}

func TestSelectDefaultLostWakeup(t *testing.T) {
	n := &flagWaker{wake: make(chan struct{})}
	go n.set()
	n.await()
}
