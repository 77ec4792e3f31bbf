// Package okloadorstore: LoadOrStore makes the check and the insert one
// operation. Must not be reported.
package okloadorstore

import (
	"sync"
	"testing"
)

type registry struct{ m sync.Map }

func (r *registry) get(k string) *string {
	if v, ok := r.m.Load(k); ok {
		return v.(*string)
	}
	v := new(string)
	*v = "built:" + k
	actual, _ := r.m.LoadOrStore(k, v)
	return actual.(*string)
}

func TestGet(t *testing.T) {
	r := &registry{}
	got := make(chan *string, 2)
	for range 2 {
		go func() { got <- r.get("a") }()
	}
	if a, b := <-got, <-got; a != b {
		t.Fatal("two instances")
	}
}
