// Package lockcopy: a method with a value receiver locks a copy of the
// mutex, so two callers write the shared map with no lock between them.
package lockcopy

import (
	"sync"
	"testing"
)

type Registry struct {
	mu    sync.Mutex
	names map[string]int
}

func (r Registry) Add(name string) { // should be *Registry
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
