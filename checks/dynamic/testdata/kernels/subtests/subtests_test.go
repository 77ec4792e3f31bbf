// Package subtests holds bugs inside nested subtests: the failure is the
// bug's, whatever order the schedule's end unwinds the subtests in.
package subtests

import (
	"sync"
	"testing"
)

// notifier wakes the waiters registered when notifyAll runs; one that
// registers later waits for the next call.
type notifier struct {
	mu      sync.Mutex
	waiters []chan struct{}
}

func (n *notifier) wait() <-chan struct{} {
	ch := make(chan struct{})
	n.mu.Lock()
	n.waiters = append(n.waiters, ch)
	n.mu.Unlock()
	return ch
}

func (n *notifier) notifyAll() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	woken := len(n.waiters)
	for _, ch := range n.waiters {
		close(ch)
	}
	n.waiters = nil
	return woken
}

// TestNestedLostWakeup: the worker says it started before it registers,
// so notifyAll can come first; the count check fails and Wait blocks
// forever, two subtests deep.
func TestNestedLostWakeup(t *testing.T) {
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) {
			t.Run("inner", func(t *testing.T) {
				var n notifier
				var wg sync.WaitGroup
				wg.Add(1)
				started := make(chan struct{})
				go func() {
					defer wg.Done()
					close(started) // should come after n.wait()
					<-n.wait()
				}()
				<-started
				if woken := n.notifyAll(); woken != 1 {
					t.Errorf("notifyAll woke %d waiters, want 1", woken)
				}
				wg.Wait()
			})
		})
	}
}
