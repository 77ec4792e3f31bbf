// Package okcallbackunlocked: publish copies the subscribers under the
// lock and calls them after unlocking, so a subscriber may read the
// registry. Must not be reported.
package okcallbackunlocked

import (
	"sync"
	"testing"
)

type registry struct {
	mu   sync.Mutex
	subs []func()
	sent int
}

func (r *registry) subscribe(f func()) {
	r.mu.Lock()
	r.subs = append(r.subs, f)
	r.mu.Unlock()
}

func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

func (r *registry) publish() {
	r.mu.Lock()
	r.sent++
	subs := append([]func(){}, r.subs...)
	r.mu.Unlock()
	for _, f := range subs {
		f()
	}
}

func TestPublish(t *testing.T) {
	r := &registry{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.subscribe(func() { _ = r.count() })
	}()
	r.publish()
	<-done
	if n := r.count(); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
}
