// Package doublelockcallback: a registry calls its subscribers while it
// holds its lock; a subscriber that reads the registry locks it again.
package doublelockcallback

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
	defer r.mu.Unlock()
	r.sent++
	for _, f := range r.subs {
		f() // called with r.mu held
	}
}

func TestPublish(t *testing.T) {
	r := &registry{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.subscribe(func() { _ = r.count() }) // count locks r.mu a second time
	}()
	r.publish()
	<-done
	if n := r.count(); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
}
