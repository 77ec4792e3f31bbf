// Package oklockptr: lockcopy with a pointer receiver.
package oklockptr

import (
	"sync"
	"testing"
)

type Registry struct {
	mu    sync.Mutex
	names map[string]int
}

func (r *Registry) Add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name]++
}

func TestAdd(t *testing.T) {
	r := &Registry{names: map[string]int{}}
	done := make(chan bool)
	go func() {
		r.Add("a")
		done <- true
	}()
	r.Add("b")
	<-done
	if len(r.names) != 2 {
		t.Fatalf("names = %v", r.names)
	}
}
